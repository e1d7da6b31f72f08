import Foundation
import Testing
@testable import MarqueeKit

@Suite("Change-detection hash")
struct StableHasherTests {
    func hash(_ text: String) -> UInt64 {
        var hasher = StableHasher("test")
        hasher.combine(text)
        return hasher.value
    }

    /// Numbered variants of one text, which a weak mix lets collide, hash apart.
    @Test func numberedTextsDoNotCollide() {
        #expect(hash("A description of movie 12 that is long enough") != hash("A description of movie 99 that is long enough"))
        let hashes = (0..<100_000).map { hash("A description of movie \($0) that is long enough to wrap over a few lines.") }
        #expect(Set(hashes).count == hashes.count)
    }

    @Test func everyByteAndBoundaryMatters() {
        let texts = ["The quick brown fox jumps over the lazy dog, twice, and then some!", String(String(repeating: "Pack my box with five dozen liquor jugs. ", count: 4).prefix(150))]
        for text in texts {
            let base = Array(text.utf8)
            var seen: Set<UInt64> = [hash(String(decoding: base, as: UTF8.self))]
            for index in base.indices {
                for flip in [UInt8(1), 0x20, 0x40] {
                    var changed = base
                    changed[index] ^= flip
                    seen.insert(hash(String(decoding: changed, as: UTF8.self)))
                }
            }
            #expect(seen.count == 1 + base.count * 3, "\(base.count) bytes")
        }
        var split = StableHasher("test")
        split.combine("ab")
        split.combine("c")
        var other = StableHasher("test")
        other.combine("a")
        other.combine("bc")
        #expect(split.value != other.value)
    }

    /// A string is hashed as exactly its UTF-8 bytes, whether it is stored inline (up to 15
    /// bytes), in its own buffer, or taken from a larger string.
    @Test func aStringHashesAsItsBytes() {
        let long = String(repeating: "Ünïcödé and ASCII, ", count: 9)
        for text in ["", "short", "fifteen bytes!!", long, String(long.dropFirst(3)), String(long.prefix(20))] {
            var asText = StableHasher("test"), asBytes = StableHasher("test")
            asText.combine(text)
            asBytes.combine(bytes: Data(text.utf8))
            #expect(asText.value == asBytes.value, "\(text.utf8.count) bytes")
        }
    }

    /// XXH64 as its reference implementation computes it (the expected values are Python's
    /// `xxhash` package's), for every length class: none, under four bytes, under eight, under
    /// 32, and many 32-byte stripes with a tail.
    @Test func xxh64MatchesTheReference() {
        let expected: [(String, UInt64)] = [
            ("", 0xef46_db37_51d8_e999), ("a", 0xd24e_c4f1_a98c_6e5b), ("abc", 0x44bc_2cf5_ad77_0999),
            ("The quick brown fox jumps over the lazy dog", 0x0b24_2d36_1fda_71bc),
            (String(repeating: "Pack my box with five dozen liquor jugs. ", count: 30), 0x4776_e8db_fc22_3fd8),
        ]
        for (text, value) in expected {
            #expect(XXH64.hash(Array(text.utf8).span) == value, "\(text.utf8.count) bytes")
        }
    }

    /// Fed in two parts cut anywhere, or a word at a time, XXH64 is the hash of the whole.
    @Test func xxh64FedInPartsIsTheHashOfTheWhole() {
        let whole = Array(String(repeating: "Sphinx of black quartz, judge my vow. ", count: 3).utf8)
        let expected = XXH64.hash(whole.span)
        for cut in whole.indices {
            let first = Array(whole[..<cut]), second = Array(whole[cut...])
            var parts = XXH64()
            parts.append(first.span)
            parts.append(second.span)
            #expect(parts.value == expected, "cut at \(cut)")
        }
        var bytes = XXH64(), words = XXH64()
        for start in stride(from: 0, to: 80, by: 8) {
            let word = whole[start..<start + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            words.append(word: word)
            let part = Array(whole[start..<start + 8])
            bytes.append(part.span)
        }
        #expect(words.value == bytes.value)
        #expect(words.value == XXH64.hash(Array(whole.prefix(80)).span))
    }

    /// The hash is XXH64 of each part after its length (eight bytes, little-endian): keys written
    /// by one machine's builds are another's. The expected value is Python `xxhash`'s.
    @Test func theHashIsXXH64OfTheLengthPrefixedParts() {
        var hasher = StableHasher("test")
        hasher.combine("abc")
        hasher.combine(-1)
        #expect(hasher.value == 0x9c28_cb15_6563_b5df)
        #expect(hasher.hex == "9c28cb156563b5df")
    }
}
