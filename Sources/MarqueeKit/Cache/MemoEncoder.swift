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
/// four little-endian bytes: written at once when known (an array of scalars), else raised in
/// place as a container's members are added.
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
