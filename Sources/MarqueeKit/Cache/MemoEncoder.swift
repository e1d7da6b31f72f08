/// Encodes `Encodable` values into the memo's compact binary form, read back by ``MemoDecoder``.
///
/// Written here because no package at hand has a binary `Codable` format, and Foundation's JSON
/// and property-list coders cost more per value than much of the work a memo entry saves: a
/// rebuild decodes tens of thousands of entries.
///
/// Every value starts with a tag byte (``MemoTag``): integers follow as LEB128 varints (signed
/// ones zigzag-encoded), doubles as their eight bit-pattern bytes, strings as their UTF-8 length
/// and bytes. A list is its element count (four bytes) and its elements; a record (a keyed
/// container) is its member count and, per member, its key as a string and its value. Counts are
/// four little-endian bytes, raised in place as members are added.
struct MemoEncoder: Encoder {
    let output: MemoOutput
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The bytes of `value`.
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let output = MemoOutput()
        try output.write(value)
        return output.bytes
    }

    /// The bytes of a scalar, which cannot fail.
    static func encode(scalar: any MemoScalar) -> [UInt8] {
        let output = MemoOutput()
        scalar.write(to: output)
        return output.bytes
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RecordEncoder(output: output, countAt: output.open(.record)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        ListEncoder(output: output, countAt: output.open(.list))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ValueEncoder(output: output)
    }
}

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

private struct ValueEncoder: SingleValueEncodingContainer {
    let output: MemoOutput
    var codingPath: [any CodingKey] { [] }

    func encodeNil() { output.tag(.null) }
    func encode(_ value: Bool) { value.write(to: output) }
    func encode(_ value: String) { value.write(to: output) }
    func encode(_ value: Double) { value.write(to: output) }
    func encode(_ value: Float) { value.write(to: output) }
    func encode(_ value: Int) { value.write(to: output) }
    func encode(_ value: Int8) { value.write(to: output) }
    func encode(_ value: Int16) { value.write(to: output) }
    func encode(_ value: Int32) { value.write(to: output) }
    func encode(_ value: Int64) { value.write(to: output) }
    func encode(_ value: UInt) { value.write(to: output) }
    func encode(_ value: UInt8) { value.write(to: output) }
    func encode(_ value: UInt16) { value.write(to: output) }
    func encode(_ value: UInt32) { value.write(to: output) }
    func encode(_ value: UInt64) { value.write(to: output) }
    func encode(_ value: some Encodable) throws { try output.write(value) }
}

private struct RecordEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let output: MemoOutput
    let countAt: Int
    var codingPath: [any CodingKey] { [] }

    /// Writes the key of a new member; its value follows.
    private func member(_ key: Key) -> ValueEncoder {
        output.countMember(at: countAt)
        output.text(key.stringValue)
        return ValueEncoder(output: output)
    }

    func encodeNil(forKey key: Key) { member(key).encodeNil() }
    func encode(_ value: Bool, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: String, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Double, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Float, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Int, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Int8, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Int16, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Int32, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: Int64, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: UInt, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: UInt8, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: UInt16, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: UInt32, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: UInt64, forKey key: Key) { member(key).encode(value) }
    func encode(_ value: some Encodable, forKey key: Key) throws { try member(key).encode(value) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        _ = member(key)
        return MemoEncoder(output: output).container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        _ = member(key)
        return MemoEncoder(output: output).unkeyedContainer()
    }

    func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    func superEncoder(forKey key: Key) -> any Encoder {
        _ = member(key)
        return MemoEncoder(output: output)
    }
}

private struct ListEncoder: UnkeyedEncodingContainer {
    let output: MemoOutput
    let countAt: Int
    private(set) var count = 0
    var codingPath: [any CodingKey] { [] }

    init(output: MemoOutput, countAt: Int) {
        self.output = output
        self.countAt = countAt
    }

    private mutating func element() -> ValueEncoder {
        count += 1
        output.countMember(at: countAt)
        return ValueEncoder(output: output)
    }

    mutating func encodeNil() { element().encodeNil() }
    mutating func encode(_ value: Bool) { element().encode(value) }
    mutating func encode(_ value: String) { element().encode(value) }
    mutating func encode(_ value: Double) { element().encode(value) }
    mutating func encode(_ value: Float) { element().encode(value) }
    mutating func encode(_ value: Int) { element().encode(value) }
    mutating func encode(_ value: Int8) { element().encode(value) }
    mutating func encode(_ value: Int16) { element().encode(value) }
    mutating func encode(_ value: Int32) { element().encode(value) }
    mutating func encode(_ value: Int64) { element().encode(value) }
    mutating func encode(_ value: UInt) { element().encode(value) }
    mutating func encode(_ value: UInt8) { element().encode(value) }
    mutating func encode(_ value: UInt16) { element().encode(value) }
    mutating func encode(_ value: UInt32) { element().encode(value) }
    mutating func encode(_ value: UInt64) { element().encode(value) }
    mutating func encode(_ value: some Encodable) throws { try element().encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        _ = element()
        return MemoEncoder(output: output).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        _ = element()
        return MemoEncoder(output: output).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        _ = element()
        return MemoEncoder(output: output)
    }
}
