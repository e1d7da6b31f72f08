import Foundation

/// Hashes for the tables in memory whose keys can come from a hostile feed (output paths, item
/// ids and slugs, the memo's keys), seeded at random per process, so that keys cannot be chosen
/// beforehand to fall on one slot and make the table's lookups take quadratic time. Nothing
/// hashed here is stored: for hashes stable across builds, see ``StableHasher``.
///
/// Eight bytes at a time, each word mixed into the state by a bijection (two multiplies).
/// (``StableHasher`` is not used: its MurmurHash3 steps mix each word before it meets the state,
/// the shape that seed-independent collisions are built on. Swift's `Hasher`, SipHash, was a third
/// of reading a large site's state.)
enum SeededHash {
    private static let seed = UInt64.random(in: .min ... .max)

    /// The hash of `bytes`.
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var state = seed ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            state = mix(state ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        return mix(state ^ bytes.tailWord(from: offset) ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// The hash of `text`'s UTF-8 bytes.
    static func of(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { of(UnsafeRawBufferPointer($0)) }
    }

    /// `key` (already a hash, but one anybody can work out) mixed with the seed.
    static func of(_ key: UInt64) -> UInt64 {
        mix(mix(key ^ seed))
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &* 0xBF58_476D_1CE4_E5B9
        z ^= z >> 31
        z &*= 0x94D0_49BB_1331_11EB
        return z ^ (z >> 29)
    }
}
