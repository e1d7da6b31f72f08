import Foundation

/// A 64-bit FNV-1a hash: stable across runs and machines (unlike `Hasher`), used for item ids,
/// fallback slugs and the keys of ``BuildMemo``. Not for security.
public struct StableHasher: Sendable {
    /// The hash of everything combined so far.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Creates a hasher; `namespace` keeps keys of different uses apart.
    public init(_ namespace: String = "") {
        if !namespace.isEmpty { combine(namespace) }
    }

    /// Adds a string (with a terminator, so `"ab" + "c"` and `"a" + "bc"` differ).
    public mutating func combine(_ text: String) {
        var hash = value
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        value = (hash ^ 0xFF) &* 0x0000_0100_0000_01B3
    }

    /// Adds raw bytes.
    public mutating func combine(bytes data: Data) {
        var hash = value
        data.withUnsafeBytes { buffer in
            for byte in buffer {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        value = hash
    }

    /// Adds a number.
    public mutating func combine(_ number: Int) {
        var hash = value
        withUnsafeBytes(of: number.littleEndian) { buffer in
            for byte in buffer {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        value = hash
    }

    /// The hash as 16 hex digits.
    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// Shorthands for one-off hashes.
public enum StableHash {
    /// The hash of some strings, as 16 hex digits.
    public static func hex(_ parts: String...) -> String {
        var hasher = StableHasher()
        for part in parts { hasher.combine(part) }
        return hasher.hex
    }

    /// The hash of raw bytes (file contents).
    public static func hex(bytes data: Data) -> String {
        var hasher = StableHasher()
        hasher.combine(bytes: data)
        return hasher.hex
    }
}
