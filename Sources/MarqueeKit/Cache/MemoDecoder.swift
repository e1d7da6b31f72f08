/// Decodes `Decodable` values from the bytes ``MemoEncoder`` wrote.
///
/// A record's members are looked for in the order they were written (a type decodes its members
/// in the order it encoded them, usually), and searched for by key otherwise, so a type may read
/// its members in any order or skip some.
struct MemoDecoder: Decoder {
    let input: MemoInput
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The value of `type` encoded in `range` of `bytes`; throws when the bytes are not one.
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8], in range: Range<Int>) throws -> Value {
        var input = MemoInput(bytes: bytes, position: range.lowerBound, end: range.upperBound)
        if let scalar = type as? any MemoScalar.Type { return try scalar.read(from: &input) as! Value }
        return try Value(from: MemoDecoder(input: input))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try RecordDecoder<Key>(input))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try ListDecoder(input)
    }

    func singleValueContainer() -> any SingleValueDecodingContainer {
        ValueDecoder(input: input)
    }
}

extension MemoInput {
    /// Reads the next value as `type`: the value's bytes are first skipped, so that this input
    /// moves past them however much of them `type` reads.
    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        // Elements of arrays and dictionaries come here, through the standard library's generic
        // code: a scalar is read directly, not through a decoder and a container of its own.
        if let scalar = type as? any MemoScalar.Type { return try scalar.read(from: &self) as! Value }
        let start = position
        try skipValue()
        return try Value(from: MemoDecoder(input: MemoInput(bytes: bytes, position: start, end: position)))
    }
}

private struct ValueDecoder: SingleValueDecodingContainer {
    let input: MemoInput
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { (try? input.peekTag()) == .null }

    func read<Value: MemoScalar>(_ type: Value.Type = Value.self) throws -> Value {
        var input = input
        return try Value.read(from: &input)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try read() }
    func decode(_ type: String.Type) throws -> String { try read() }
    func decode(_ type: Double.Type) throws -> Double { try read() }
    func decode(_ type: Float.Type) throws -> Float { try read() }
    func decode(_ type: Int.Type) throws -> Int { try read() }
    func decode(_ type: Int8.Type) throws -> Int8 { try read() }
    func decode(_ type: Int16.Type) throws -> Int16 { try read() }
    func decode(_ type: Int32.Type) throws -> Int32 { try read() }
    func decode(_ type: Int64.Type) throws -> Int64 { try read() }
    func decode(_ type: UInt.Type) throws -> UInt { try read() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try read() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try read() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try read() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try read() }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        var input = input
        return try input.decode(type)
    }
}

/// A record's members. A class: keyed containers decode without `mutating`, and this one keeps
/// where the next member in written order is.
private final class RecordDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let members: MemoInput
    private let count: Int
    /// The next member in written order, and its number.
    private var next: MemoInput
    private var nextNumber = 0
    var codingPath: [any CodingKey] { [] }

    init(_ input: MemoInput) throws {
        var input = input
        try input.expect(.record)
        count = try input.count()
        members = input
        next = input
    }

    /// Where the value of `key` is: the next member's, or found by a search.
    private func find(_ key: Key) throws -> (value: MemoInput, isNext: Bool)? {
        if nextNumber < count {
            var value = next
            if try matches(value.textRange(), key) { return (value, true) }
        }
        var value = members
        for _ in 0..<count {
            let found = try matches(value.textRange(), key)
            if found { return (value, false) }
            try value.skipValue()
        }
        return nil
    }

    private func matches(_ range: Range<Int>, _ key: Key) -> Bool {
        let name = key.stringValue.utf8.span
        guard name.count == range.count else { return false }
        for index in name.indices where members.bytes[range.lowerBound + index] != name[index] { return false }
        return true
    }

    /// Reads the value of `key` with `read`, which leaves its input past the value.
    private func value<Value>(_ key: Key, _ read: (inout MemoInput) throws -> Value) throws -> Value {
        guard case (var input, let isNext)? = try find(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no member \(key.stringValue)"))
        }
        let value = try read(&input)
        if isNext {
            next = input
            nextNumber += 1
        }
        return value
    }

    var allKeys: [Key] {
        var input = members
        var keys: [Key] = []
        for _ in 0..<count {
            guard let range = try? input.textRange(), (try? input.skipValue()) != nil else { break }
            if let key = Key(stringValue: String(decoding: members.bytes[range], as: UTF8.self)) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { (try? find(key)) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let (input, _) = try find(key) else { return true }
        return try input.peekTag() == .null
    }

    private func read<Value: MemoScalar>(_ key: Key) throws -> Value { try value(key) { try Value.read(from: &$0) } }

    /// A scalar member that may be missing or null, found once (the standard library's default
    /// looks for the key three times).
    private func readIfPresent<Value: MemoScalar>(_ key: Key) throws -> Value? {
        guard let (input, _) = try find(key), try input.peekTag() != .null else { return nil }
        return try read(key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try readIfPresent(key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try readIfPresent(key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try readIfPresent(key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try readIfPresent(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try readIfPresent(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try readIfPresent(key) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(key) }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try value(key) { try $0.decode(type) }
    }

    /// A decoder for the value of `key`.
    private func decoder(for key: Key) throws -> MemoDecoder {
        try value(key) { input in
            let start = input.position
            try input.skipValue()
            return MemoDecoder(input: MemoInput(bytes: input.bytes, position: start, end: input.position))
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { try decoder(for: Key(stringValue: "super")!) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(for: key) }
}

private struct ListDecoder: UnkeyedDecodingContainer {
    private var input: MemoInput
    let count: Int?
    private(set) var currentIndex = 0
    var codingPath: [any CodingKey] { [] }
    var isAtEnd: Bool { currentIndex >= count! }

    init(_ input: MemoInput) throws {
        var input = input
        try input.expect(.list)
        count = try input.count()
        self.input = input
    }

    /// Reads the next element with `read`, which leaves its input past the element.
    private mutating func element<Value>(_ read: (inout MemoInput) throws -> Value) throws -> Value {
        guard !isAtEnd else { throw MemoInput.damaged }
        let value = try read(&input)
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, try input.peekTag() == .null else { return false }
        try element { try $0.expect(.null) }
        return true
    }

    private mutating func read<Value: MemoScalar>() throws -> Value { try element { try Value.read(from: &$0) } }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try read() }
    mutating func decode(_ type: String.Type) throws -> String { try read() }
    mutating func decode(_ type: Double.Type) throws -> Double { try read() }
    mutating func decode(_ type: Float.Type) throws -> Float { try read() }
    mutating func decode(_ type: Int.Type) throws -> Int { try read() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try read() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try read() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try read() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try read() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try read() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try read() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try read() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try read() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try read() }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try element { try $0.decode(type) }
    }

    /// A decoder for the next element.
    private mutating func decoder() throws -> MemoDecoder {
        try element { input in
            let start = input.position
            try input.skipValue()
            return MemoDecoder(input: MemoInput(bytes: input.bytes, position: start, end: input.position))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try decoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try decoder() }
}
