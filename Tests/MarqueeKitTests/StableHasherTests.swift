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

    /// The memo keys of a killed-build test once collided for these descriptions (a weaker
    /// multiply-and-rotate mix); every numbered variant must hash apart.
    @Test func numberedTextsDoNotCollide() {
        #expect(hash("A description of movie 12 that is long enough") != hash("A description of movie 99 that is long enough"))
        let hashes = (0..<100_000).map { hash("A description of movie \($0) that is long enough to wrap over a few lines.") }
        #expect(Set(hashes).count == hashes.count)
    }

    @Test func everyByteAndBoundaryMatters() {
        // One of 66 bytes (a long text's first step in each lane, then two bytes), one of 150 (two steps per lane, then 22 bytes).
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

    /// The hash is the first eight bytes (little-endian) of SHA-256 over what was combined:
    /// each string's UTF-8 then its length, each number as eight little-endian bytes. The
    /// expected values were computed with Python's hashlib over the same bytes.
    @Test func itIsSHA256OfWhatWasCombined() {
        #expect(hash("Marquee") == 0x227b_bb73_2649_83f2)
        #expect(hash("Ünïcödé") == 0x2487_b488_4ba8_2110)
        var plain = StableHasher()
        plain.combine("abc")
        #expect(plain.value == 0xf9db_3bf9_5d77_baba)
    }

    /// Past the buffer's size, what is combined is hashed in pieces: the same bytes, however
    /// they were cut, give the same hash, and reading the value does not end the stream.
    @Test func longStreamsHashTheSameHoweverTheyAreFed() {
        let texts = (0..<3_000).map { "item \($0)" }
        var one = StableHasher("test"), other = StableHasher("test")
        for (index, text) in texts.enumerated() {
            one.combine(text)
            if index.isMultiple(of: 700) { _ = one.value }
            other.combine(bytes: Data(text.utf8))
        }
        #expect(one.value == other.value)
        other.combine(1)
        #expect(one.value != other.value)
    }
}
