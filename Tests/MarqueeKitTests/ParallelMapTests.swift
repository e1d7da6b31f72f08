import Foundation
import Testing
@testable import MarqueeKit

@Suite("Parallel map")
struct ParallelMapTests {
    struct Refused: Error, Equatable { let index: Int }

    /// Each result comes back in its own place, whichever finishes first.
    @Test func concurrentlyReturnsBothResultsInPlace() {
        for _ in 0..<50 {
            let (sum, text) = concurrently({ (1...2_000).reduce(0, +) }, { String(repeating: "ab", count: 3) })
            #expect(sum == 2_001_000 && text == "ababab")
        }
    }

    @Test func keepsOrderAndReportsTheFirstFailureInOrder() throws {
        let numbers = Array(0..<5_000)
        #expect(try numbers.concurrentMap { (n: Int) throws(Refused) -> String in "#\(n)" } == numbers.map { "#\($0)" })
        // Failures in several chunks: the one reported is the earliest, whatever finished first;
        // the strings made before them are released (the sanitizer runs check that).
        for failing in [[4_999], [3, 4_000], [2_500, 17, 4_321]] {
            #expect(throws: Refused(index: failing.min()!)) {
                try numbers.concurrentMap { (n: Int) throws(Refused) -> String in
                    if failing.contains(n) { throw Refused(index: n) }
                    return String(repeating: "x", count: 40) + "\(n)"
                }
            }
        }
        #expect(try [Int]().concurrentMap { (n: Int) throws(Refused) -> Int in n }.isEmpty)
    }

    final class Box: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    /// Parts of every size (empty ones too) are joined in order; when the parts are handed over,
    /// each element ends up held by the joined array alone, so that changing an item later needs
    /// no copy.
    @Test func joinsPartsInOrderLeavingEachElementReferencedOnce() {
        let sizes = [0, 3, 0, 0, 64, 1, 200, 0, 17]
        var next = 0
        let parts = sizes.map { size in
            (0..<size).map { _ in
                defer { next += 1 }
                return Box(next)
            }
        }
        var joined = joinedOnEveryCore(parts)
        #expect(joined.map(\.value) == Array(0..<next))
        // `parts` still holds every element until it goes; the join took its own references.
        withExtendedLifetime(parts) {
            #expect(!isKnownUniquelyReferenced(&joined[5]))
        }
        let moved = sizes.map { size in (0..<size).map { Box($0) } }
        var alone = joinedOnEveryCore(consume moved)
        #expect(alone.count == sizes.reduce(0, +))
        #expect(alone.indices.allSatisfy { isKnownUniquelyReferenced(&alone[$0]) })
        #expect(joinedOnEveryCore([[Int]]()).isEmpty && joinedOnEveryCore([[Int](), []]).isEmpty)
    }

    @Test(arguments: [0, 1, 2, 63, 5_000])
    func updatesEveryElementInPlaceOnce(count: Int) {
        var items = (0..<count).map { Item(id: "\($0)", source: "s", title: "t\($0)", body: .text("x")) }
        let copy = items
        items.concurrentUpdate { item in item.title += "!" }
        #expect(items.map(\.title) == (0..<count).map { "t\($0)!" })
        // Items shared with another array are copied before they change, not changed under it.
        #expect(copy.map(\.title) == (0..<count).map { "t\($0)" })
    }
}
