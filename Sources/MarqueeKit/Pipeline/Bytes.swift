import Foundation

extension UInt8 {
    /// Space, tab, line feed or carriage return: white space in XML and JSON alike.
    var isBlank: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }

    /// A letter, a digit, white space, or one of `<>/="'`: what markup and text are mostly made of.
    var isCommonInMarkup: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        default: isBlank
        }
    }
}

extension Span where Element == UInt8 {
    /// Where `byte` next occurs at or after `start`; nil when it does not. Sixteen bytes are
    /// compared at a time (descriptions are long runs of plain text).
    func position(of byte: UInt8, from start: Int) -> Int? {
        var index = Swift.max(start, 0)
        let target = SIMD16<UInt8>(repeating: byte)
        while index + 16 <= count, !any(chunk(at: index) .== target) { index += 16 }
        while index < count {
            if self[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// Where `pattern` next occurs at or after `start`; nil when it does not. The pattern is
    /// looked for from its first byte that is not common in markup and text (`-` of
    /// `marquee-root:/`, `!` of `<!--`), which stops the search far less often than its first.
    func position(of pattern: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty else { return nil }
        let probe = pattern.firstIndex { !$0.isCommonInMarkup } ?? 0
        var candidate = Swift.max(start, 0) + probe
        while let found = position(of: pattern[probe], from: candidate), found - probe + pattern.count <= count {
            if hasPrefix(pattern, at: found - probe) { return found - probe }
            candidate = found + 1
        }
        return nil
    }

    /// The sixteen bytes from `offset`. (The load is bounds-checked; it is called unsafe for
    /// types some bit patterns of which are invalid, which bytes have none of.)
    @inline(__always)
    func chunk(at offset: Int) -> SIMD16<UInt8> {
        bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
    }

    /// Whether the bytes at `position` are `prefix`.
    func hasPrefix(_ prefix: [UInt8], at position: Int) -> Bool {
        guard position >= 0, position + prefix.count <= count else { return false }
        for offset in prefix.indices where self[position + offset] != prefix[offset] { return false }
        return true
    }
}

extension Array where Element == UInt8 {
    /// Appends the `count` lowest bytes of `value`, lowest first.
    mutating func appendLittleEndian(_ value: some FixedWidthInteger, bytes count: Int) {
        for byte in 0..<count { append(UInt8(truncatingIfNeeded: value >> (8 * byte))) }
    }

    /// Writes the `count` lowest bytes of `value` at `offset`, lowest first.
    mutating func setLittleEndian(_ value: some FixedWidthInteger, at offset: Int, bytes count: Int) {
        for byte in 0..<count { self[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
    }

    /// The `count` bytes at `offset` as a number, the first byte lowest.
    func littleEndian(at offset: Int, bytes count: Int) -> UInt64 {
        (0..<count).reversed().reduce(0) { $0 << 8 | UInt64(self[offset + $1]) }
    }

    /// Appends a copy of `bytes`.
    mutating func append(_ bytes: Span<UInt8>) {
        append(addingCapacity: bytes.count) { output in
            for index in bytes.indices { output.append(bytes[index]) }
        }
    }

    /// Appends `bytes` with every byte for which `replacement` gives text replaced by that text
    /// (the UTF-8 of it); runs of bytes without one are copied whole. The one mechanism behind
    /// HTML and JSON escaping.
    mutating func append(_ bytes: Span<UInt8>, replacing replacement: (UInt8) -> String?) {
        var runStart = 0
        for index in bytes.indices {
            guard let text = replacement(bytes[index]) else { continue }
            append(bytes.extracting(runStart..<index))
            append(contentsOf: text.utf8)
            runStart = index + 1
        }
        append(bytes.extracting(runStart...))
    }
}
