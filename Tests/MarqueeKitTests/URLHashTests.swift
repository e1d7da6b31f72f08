import Foundation
import Testing
@testable import MarqueeKit

/// Item ids and fallback slugs appear in URLs: their hash must never change. The expected
/// values were computed with an independent FNV-1a (Python) over the same parts.
@Suite("URL hash")
struct URLHashTests {
    @Test func itemIdHashIsFNV1aOverItsParts() {
        #expect(StableHash.hex("movies", "Arrival", "A linguist is recruited.", "") == "b949c2821f55eeea")
        #expect(StableHash.hex("Café 🎻") == "f0de7dc1fc35c74e")
        var parts = StableHash.Parts()
        for part in ["movies", "Arrival", "A linguist is recruited."] { parts.add(part) }
        parts.add("")
        #expect(parts.hex == "b949c2821f55eeea")
    }

    /// Hashing many lists side by side gives each list the hash that adding its parts one by one
    /// gives, whatever the number of lists and the lengths of their parts.
    @Test func hashingSideBySideMatchesOneByOne() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["", "a", "movies", "Café 🎻", String(repeating: "long text ", count: 40), "\n\"", String(repeating: "é", count: 300)]
        for count in [0, 1, 2, 3, 4, 5, 7, 8, 9, 64, 200] {
            let lists = (0..<count).map { _ in
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    pieces.randomElement(using: &generator)! + String(Int.random(in: 0...1_000, using: &generator))
                }
            }
            let sideBySide = StableHash.Parts.of(lists)
            #expect(sideBySide.count == lists.count)
            for (list, hash) in zip(lists, sideBySide) {
                var oneByOne = StableHash.Parts()
                for part in list { oneByOne.add(part) }
                #expect(hash.hex == oneByOne.hex, "\(list)")
            }
        }
    }
}
