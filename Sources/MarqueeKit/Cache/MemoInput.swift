/// Encoded bytes being read: the memo file's, from where a value starts. Every read checks its
/// bounds and its tag, so damaged bytes throw instead of reading astray.
struct MemoInput {
    let bytes: [UInt8]
    var position: Int
    /// Where the bytes readable here end (the end of the entry).
    let end: Int

    static let damaged = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "damaged memo entry"))

    func peekTag() throws -> MemoTag {
        guard position < end, let tag = MemoTag(rawValue: bytes[position]) else { throw Self.damaged }
        return tag
    }

    mutating func tag() throws -> MemoTag {
        let tag = try peekTag()
        position += 1
        return tag
    }

    mutating func expect(_ expected: MemoTag) throws {
        guard try tag() == expected else { throw Self.damaged }
    }

    mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 7) {
            guard position < end else { throw Self.damaged }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte < 0x80 { return value }
        }
        throw Self.damaged
    }

    /// The range of the next `count` bytes, skipped.
    mutating func take(_ count: Int) throws -> Range<Int> {
        guard count >= 0, count <= end - position else { throw Self.damaged }
        defer { position += count }
        return position..<position + count
    }

    /// A key or a string's text, as the range of its UTF-8.
    mutating func textRange() throws -> Range<Int> {
        let length = try varint()
        guard length <= UInt64(end - position) else { throw Self.damaged }
        return try take(Int(length))
    }

    /// The count of a list or record, after its tag.
    mutating func count() throws -> Int {
        Int(bytes.littleEndian(at: try take(4).lowerBound, bytes: 4))
    }

    /// Moves past the next value, whatever it is. Lists and records nested deeper than any value
    /// the build stores are taken for damage, before they could exhaust the stack.
    mutating func skipValue(depth: Int = 0) throws {
        guard depth < 64 else { throw Self.damaged }
        switch try tag() {
        case .null, .no, .yes: break
        case .signed, .unsigned: _ = try varint()
        case .double: _ = try take(8)
        case .string: _ = try textRange()
        case .list:
            for _ in 0..<(try count()) { try skipValue(depth: depth + 1) }
        case .record:
            for _ in 0..<(try count()) {
                _ = try textRange()
                try skipValue(depth: depth + 1)
            }
        }
    }
}
