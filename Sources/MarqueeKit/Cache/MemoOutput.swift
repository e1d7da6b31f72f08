/// The kinds of encoded values, by their first byte.
enum MemoTag: UInt8 {
    case null, no, yes, signed, unsigned, double, string, list, record
}

/// The bytes being encoded, shared by the containers of one value, and only by them: one encode
/// call on one thread owns it.
final class MemoOutput {
    /// The encoding so far.
    private(set) var bytes: [UInt8]

    init() {
        bytes = []
        bytes.reserveCapacity(64)
    }

    /// Writes `value`: a container it asks for, or an empty record if it asks for none.
    func write(_ value: some Encodable) throws {
        // As in decoding: scalars that come through generic code are written directly.
        if let scalar = value as? any MemoScalar { return scalar.write(to: self) }
        let start = bytes.count
        try value.encode(to: MemoEncoder(output: self))
        if bytes.count == start { bytes += [MemoTag.record.rawValue, 0, 0, 0, 0] }
    }

    func tag(_ tag: MemoTag) {
        bytes.append(tag.rawValue)
    }

    /// A tag and an unsigned LEB128 number.
    func tagged(_ tag: MemoTag, varint value: UInt64) {
        bytes.append(tag.rawValue)
        Self.append(varint: value, to: &bytes)
    }

    /// Eight bytes, little-endian.
    func tagged(_ tag: MemoTag, fixed value: UInt64) {
        bytes.append(tag.rawValue)
        bytes.appendLittleEndian(value, bytes: 8)
    }

    /// A key, or a string's text after its tag: its UTF-8 length, then its bytes.
    func text(_ text: String, tag: MemoTag? = nil) {
        if let tag { bytes.append(tag.rawValue) }
        Self.append(varint: UInt64(text.utf8.count), to: &bytes)
        bytes += text.utf8
    }

    private static func append(varint value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Starts a list or a record; returns where its count is.
    func open(_ tag: MemoTag) -> Int {
        bytes += [tag.rawValue, 0, 0, 0, 0]
        return bytes.count - 4
    }

    /// Starts a list whose element count is known (a container's is counted as it is filled).
    func openList(count: Int) {
        bytes.append(MemoTag.list.rawValue)
        bytes.appendLittleEndian(UInt32(count), bytes: 4)
    }

    /// Counts one more member of the list or record whose count is at `offset`.
    func countMember(at offset: Int) {
        bytes.setLittleEndian(bytes.littleEndian(at: offset, bytes: 4) + 1, at: offset, bytes: 4)
    }
}
