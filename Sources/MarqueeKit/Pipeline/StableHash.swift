import Foundation

/// A 64-bit FNV-1a hash: stable across runs and machines (unlike `Hasher`), used for item ids
/// and fallback slugs. Not for security.
public enum StableHash {
    /// The hash of some strings, as 16 hex digits.
    public static func hex(_ parts: String...) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            hash ^= 0xFF
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hexDigits(hash)
    }

    /// The hash of raw bytes (file contents).
    public static func hex(bytes data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { buffer in
            for byte in buffer {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        return hexDigits(hash)
    }

    private static func hexDigits(_ hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
