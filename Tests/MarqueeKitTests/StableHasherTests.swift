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

    /// Long texts are hashed in four lanes of sixteen-byte steps, then the words past the last
    /// 64 bytes one by one: words that trade places, between lanes, within a step, between steps
    /// of one lane or with the words after the lanes, must still change the hash.
    @Test func wordOrderMattersInLongTexts() {
        let words = (0..<20).map { String(format: "word%04d", $0) }  // eight bytes each
        var seen: Set<UInt64> = [hash(words.joined())]
        for first in words.indices {
            for second in words.indices where second > first {
                var swapped = words
                swapped.swapAt(first, second)
                seen.insert(hash(swapped.joined()))
            }
        }
        #expect(seen.count == 1 + words.count * (words.count - 1) / 2)
    }

    /// The tail of fewer than eight bytes after the last whole word, read with one load when the
    /// bytes are eight or more, is the same word as read byte by byte (memo keys written by
    /// earlier builds stay valid).
    @Test func theTailWordIsItsBytesInOrder() {
        let bytes = (0..<24).map { UInt8(0xA0 + $0) }
        for count in 0...bytes.count {
            bytes.prefix(count).withUnsafeBytes { raw in
                for offset in (count - Swift.min(7, count))...count {
                    var expected: UInt64 = 0
                    for (shift, byte) in raw[offset...].enumerated() { expected |= UInt64(byte) << UInt64(8 * shift) }
                    #expect(raw.tailWord(from: offset) == expected, "\(count) bytes from \(offset)")
                }
            }
        }
    }
}
