/// A value with a fixed encoding: the types every `Encoder` and `Decoder` must handle themselves.
protocol MemoScalar: Sendable {
    func write(to output: MemoOutput)
    static func read(from input: inout MemoInput) throws -> Self
}

extension Bool: MemoScalar {
    func write(to output: MemoOutput) { output.tag(self ? .yes : .no) }

    static func read(from input: inout MemoInput) throws -> Bool {
        switch try input.tag() {
        case .yes: true
        case .no: false
        default: throw MemoInput.damaged
        }
    }
}

extension String: MemoScalar {
    func write(to output: MemoOutput) {
        output.text(self, tag: .string)
    }

    static func read(from input: inout MemoInput) throws -> String {
        try input.expect(.string)
        return String(decoding: input.bytes[try input.textRange()], as: UTF8.self)
    }
}

extension Double: MemoScalar {
    func write(to output: MemoOutput) {
        output.tagged(.double, fixed: bitPattern)
    }

    static func read(from input: inout MemoInput) throws -> Double {
        try input.expect(.double)
        return Double(bitPattern: input.bytes.littleEndian(at: try input.take(8).lowerBound, bytes: 8))
    }
}

extension Float: MemoScalar {
    func write(to output: MemoOutput) { Double(self).write(to: output) }
    static func read(from input: inout MemoInput) throws -> Float { Float(try Double.read(from: &input)) }
}

/// Signed integers, zigzag-encoded so that small negative numbers stay short.
extension MemoScalar where Self: FixedWidthInteger & SignedInteger {
    func write(to output: MemoOutput) {
        let value = Int64(self)
        output.tagged(.signed, varint: UInt64(bitPattern: value << 1 ^ value >> 63))
    }

    static func read(from input: inout MemoInput) throws -> Self {
        try input.expect(.signed)
        let zigzag = try input.varint()
        let value = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
        guard let exact = Self(exactly: value) else { throw MemoInput.damaged }
        return exact
    }
}

extension MemoScalar where Self: FixedWidthInteger & UnsignedInteger {
    func write(to output: MemoOutput) {
        output.tagged(.unsigned, varint: UInt64(self))
    }

    static func read(from input: inout MemoInput) throws -> Self {
        try input.expect(.unsigned)
        guard let exact = Self(exactly: try input.varint()) else { throw MemoInput.damaged }
        return exact
    }
}

extension Int: MemoScalar {}
extension Int8: MemoScalar {}
extension Int16: MemoScalar {}
extension Int32: MemoScalar {}
extension Int64: MemoScalar {}
extension UInt: MemoScalar {}
extension UInt8: MemoScalar {}
extension UInt16: MemoScalar {}
extension UInt32: MemoScalar {}
extension UInt64: MemoScalar {}

/// Arrays of scalars (line counts, suffixes) are read and written element by element here,
/// without the standard library's generic path through a container per array and a cast per
/// element; the bytes are the same as a list written through a container.
extension Array: MemoScalar where Element: MemoScalar {
    func write(to output: MemoOutput) {
        output.openList(count: count)
        for element in self { element.write(to: output) }
    }

    static func read(from input: inout MemoInput) throws -> [Element] {
        try input.expect(.list)
        let count = try input.count()
        // Each element takes at least a byte: a count larger than the bytes left is damage.
        guard count <= input.end - input.position else { throw MemoInput.damaged }
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try Element.read(from: &input)) }
        return elements
    }
}
