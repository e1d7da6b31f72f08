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

    /// An update sees each element with its index, returns results in order, and leaves each
    /// element held by the array alone (so that changing an item later needs no copy).
    @Test(arguments: [0, 1, 2, 63, 5_000])
    func updatesSeeIndicesAndLeaveElementsReferencedOnce(count: Int) {
        var boxes = (0..<count).map { Box($0) }
        let seen = boxes.concurrentUpdate { index, box in index == box.value }
        #expect(seen == [Bool](repeating: true, count: count))
        #expect(boxes.map(\.value) == Array(0..<count))
        #expect(boxes.indices.allSatisfy { isKnownUniquelyReferenced(&boxes[$0]) })
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
