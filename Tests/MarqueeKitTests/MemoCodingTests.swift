import Foundation
import Testing
@testable import MarqueeKit

/// The memo's binary `Codable` format (`MemoEncoder`, `MemoDecoder`).
@Suite("Memo coding")
struct MemoCodingTests {
    enum Shape: Codable, Equatable {
        case none
        case circle(radius: Double)
        case label(String, size: Int8?)
    }

    struct Sample: Codable, Equatable {
        var name: String
        var count: Int
        var big: UInt64
        var small: Int16
        var ratio: Float
        var flag: Bool
        var note: String?
        var missing: Int?
        var nested: [[Int]]
        var shapes: [Shape]
        var table: [String: Double]
        var date: Date
        var url: URL
    }

    static let sample = Sample(
        name: "drei · 三 \u{0}", count: -1, big: .max, small: .min, ratio: 0.25, flag: true, note: "", missing: nil,
        nested: [[], [0, -64, 64, .max, .min]], shapes: [.none, .circle(radius: -0.5), .label("x", size: nil), .label("", size: -3)],
        table: ["a": 1.5, "": .infinity], date: Date(timeIntervalSince1970: 1_234_567.875), url: URL(string: "https://example.org/a?b#c")!)

    static func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
        let bytes = try MemoEncoder.encode(value)
        return try MemoDecoder.decode(Value.self, from: bytes, in: 0..<bytes.count)
    }

    /// Structs, enums with associated values, optionals, nested arrays, dictionaries and
    /// Foundation's types read back exactly as written.
    @Test func valuesReadBackExactly() throws {
        #expect(try Self.roundTrip(Self.sample) == Self.sample)
        #expect(try Self.roundTrip("") == "")
        #expect(try Self.roundTrip([String?]([nil, "a", nil])) == [nil, "a", nil])
        #expect(try Self.roundTrip(Optional<Int>.none) == nil)
        let counts = LayoutEngine.LineCounts(title: [1, 2, 3], description: [14, 9, 6], blocks: 4, isEstimated: true)
        #expect(try Self.roundTrip(counts) == counts)
        let record = MovieRecord(idState: .max, bodyDigest: 0, title: 0, description: 1, intro: 7, photo: nil, photoIsLocal: true)
        #expect(try Self.roundTrip(record) == record)
    }

    struct Reordered: Codable, Equatable {
        var first: Int
        var second: String
        var third: Bool

        enum CodingKeys: String, CodingKey { case first, second, third }

        init(first: Int, second: String, third: Bool) {
            (self.first, self.second, self.third) = (first, second, third)
        }

        /// Reads the members in another order than they were written, and one twice.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            third = try container.decode(Bool.self, forKey: .third)
            first = try container.decode(Int.self, forKey: .first)
            second = try container.decode(String.self, forKey: .second)
            _ = try container.decode(Int.self, forKey: .first)
        }
    }

    struct FewerMembers: Codable, Equatable {
        var second: String
        var extra: Int?
    }

    /// A type may read its members in any order, skip some, or look for members that were never
    /// written (an older or newer shape of the value).
    @Test func membersAreFoundByKey() throws {
        let value = Reordered(first: 7, second: "two", third: true)
        #expect(try Self.roundTrip(value) == value)
        let bytes = try MemoEncoder.encode(value)
        #expect(try MemoDecoder.decode(FewerMembers.self, from: bytes, in: 0..<bytes.count) == FewerMembers(second: "two", extra: nil))
    }

    /// Damaged or foreign bytes throw (the memo then works the value out again): never a crash,
    /// never a value read from beyond the entry. Every truncation and every single-byte change
    /// of an encoded sample is tried.
    @Test func damagedBytesThrowOrReadWithinTheEntry() throws {
        let bytes = try MemoEncoder.encode(Self.sample)
        for end in 0..<bytes.count {
            #expect(throws: (any Error).self) { try MemoDecoder.decode(Sample.self, from: bytes, in: 0..<end) }
        }
        for index in bytes.indices {
            for change: UInt8 in [0, 1, 0x7F, 0x80, 0xFF] where change != bytes[index] {
                var damaged = bytes
                damaged[index] = change
                _ = try? MemoDecoder.decode(Sample.self, from: damaged, in: 0..<damaged.count)
            }
        }
        // A huge count or length claims more bytes than the entry has.
        let list = [UInt8]([MemoTag.list.rawValue, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: (any Error).self) { try MemoDecoder.decode([Int].self, from: list, in: 0..<list.count) }
        let text = [UInt8]([MemoTag.string.rawValue, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x41])
        #expect(throws: (any Error).self) { try MemoDecoder.decode(String.self, from: text, in: 0..<text.count) }
    }
}

extension MemoCodingTests {
    /// Lists nested a hundred thousand deep (a damaged file) throw instead of exhausting the stack.
    /// Line counts and movie records are stored as lists of numbers: a list of another shape
    /// (from a damaged entry) throws, and the memo then works the value out again.
    @Test func numberListsOfAnotherShapeThrow() throws {
        func read<Value: Codable, Number: Codable>(_ type: Value.Type, from numbers: [Number]) throws -> Value {
            let bytes = try MemoEncoder.encode(numbers)
            return try MemoDecoder.decode(type, from: bytes, in: 0..<bytes.count)
        }
        #expect(try read(LayoutEngine.LineCounts.self, from: [4, 1, 2, 1, 1, 3, 2]) == LayoutEngine.LineCounts(title: [1, 1], description: [3, 2], blocks: 4, isEstimated: true))
        for numbers: [Int] in [[], [4, 1], [4, 1, 3, 1, 1], [4, 1, -1, 2]] {
            #expect(throws: DecodingError.self) { try read(LayoutEngine.LineCounts.self, from: numbers) }
        }
        let record = MovieRecord(idState: 9, bodyDigest: 8, title: 0, description: 5, intro: nil, photo: 2, photoIsLocal: true)
        #expect(try read(MovieRecord.self, from: [9, 8, 0, 5, 0, 3, 1] as [UInt64]) == record)
        for numbers: [UInt64] in [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6, 2], [1, 2, 3, 4, 5, 6, 0, 0], [1, 2, .max, 4, 5, 6, 0]] {
            #expect(throws: DecodingError.self) { try read(MovieRecord.self, from: numbers) }
        }
    }

    /// Bytes that are not a string, or a string cut short, do not read as one.
    @Test func damagedTextThrows() throws {
        let number = try MemoEncoder.encode(42)
        #expect(throws: DecodingError.self) { try MemoDecoder.decode(String.self, from: number, in: number.indices) }
        let text = try MemoEncoder.encode("cut short")
        #expect(throws: DecodingError.self) { try MemoDecoder.decode(String.self, from: text, in: 0..<text.count - 1) }
        #expect(try MemoDecoder.decode(String.self, from: text, in: text.indices) == "cut short")
    }

    @Test func deepNestingThrows() {
        let bytes = [UInt8](repeating: 0, count: 500_000).enumerated().map { $0.offset % 5 == 0 ? MemoTag.list.rawValue : $0.offset % 5 == 1 ? 1 : 0 }
        #expect(throws: (any Error).self) { try MemoDecoder.decode([[Int]].self, from: bytes, in: 0..<bytes.count) }
    }
}
