import Foundation

extension UInt8 {
    /// Space, tab, line feed or carriage return: white space in XML and JSON alike.
    var isBlank: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}

extension UnsafeBufferPointer<UInt8> {
    /// Where `pattern` next occurs at or after `start`: its first byte found with `memchr`, the
    /// rest compared there. Nil when it does not occur.
    func position(of pattern: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first else { return nil }
        var candidate = start
        while let found = position(of: first, from: candidate), found + pattern.count <= count {
            if hasPrefix(pattern, at: found) { return found }
            candidate = found + 1
        }
        return nil
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
