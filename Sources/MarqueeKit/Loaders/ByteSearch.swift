import Foundation

extension UInt8 {
    /// Space, tab, line feed or carriage return: white space in XML and JSON alike.
    var isBlank: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }

    /// A byte that markup and text are mostly made of: a letter, a digit, white space, or one of
    /// `<>/="'`.
    var isCommonInMarkup: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        default: isBlank
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Where `pattern` next occurs at or after `start`: one of its bytes found with `memchr`
    /// (``probe(of:)``), the whole compared there. Nil when it does not occur.
    func position(of pattern: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty else { return nil }
        let probe = Self.probe(of: pattern)
        var candidate = start + probe
        while let found = position(of: pattern[probe], from: candidate), found - probe + pattern.count <= count {
            if hasPrefix(pattern, at: found - probe) { return found - probe }
            candidate = found + 1
        }
        return nil
    }

    /// Which byte of `pattern` to look for first: its first one that is not common in markup
    /// (``UInt8/isCommonInMarkup``), else its first. In a feed, `<` starts every tag but `!` and
    /// `?` start few: looking for the `<` of `<!--` stopped at every tag of a 10,000-item feed,
    /// several times per scan.
    static func probe(of pattern: [UInt8]) -> Int {
        pattern.firstIndex { !$0.isCommonInMarkup } ?? 0
    }

    /// Where `byte` next occurs at or after `start`, found with `memchr`; nil when it does not.
    func position(of byte: UInt8, from start: Int) -> Int? {
        guard let base = baseAddress, start >= 0, start < count else { return nil }
        return memchr(base + start, Int32(byte), count - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
    }

    /// Whether the bytes at `position` are `prefix`.
    func hasPrefix(_ prefix: [UInt8], at position: Int) -> Bool {
        guard !prefix.isEmpty else { return true }
        guard position >= 0, position + prefix.count <= count else { return false }
        return prefix.withUnsafeBufferPointer { memcmp(baseAddress! + position, $0.baseAddress!, prefix.count) == 0 }
    }
}
