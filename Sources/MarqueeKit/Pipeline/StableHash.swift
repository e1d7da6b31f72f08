import Crypto
import Foundation

/// A hash for change detection, stable across runs and machines (unlike `Hasher`): the keys of
/// ``BuildMemo``, page digests, build fingerprints. SHA-256 (swift-crypto), cut to its first 64
/// bits; what is combined is gathered into a buffer and hashed a few kilobytes at a time, since
/// builds combine many short strings and numbers.
package struct StableHasher: Sendable {
    /// Changes whenever the hash of any input does (3: SHA-256). What outlives one program's
    /// builds keeps it beside the digests it holds (the memo and the build state are another
    /// program's after any upgrade anyway).
    package static let version = 3

    private var digest = SHA256()
    private var pending: [UInt8] = []
    private static let flushSize = 4096

    /// Creates a hasher; `namespace` keeps keys of different uses apart.
    package init(_ namespace: String = "") {
        if !namespace.isEmpty { combine(namespace) }
    }

    /// The hash of everything combined so far.
    package var value: UInt64 {
        var digest = digest
        digest.update(data: pending)
        var value: UInt64 = 0
        for (index, byte) in digest.finalize().prefix(8).enumerated() { value |= UInt64(byte) << (8 * UInt64(index)) }
        return value
    }

    /// Adds a string (its length too, so `"ab" + "c"` and `"a" + "bc"` differ).
    package mutating func combine(_ text: String) {
        pending.append(contentsOf: text.utf8)
        combine(text.utf8.count)
    }

    /// Adds raw bytes (their length too).
    package mutating func combine(bytes: some DataProtocol) {
        flush()
        digest.update(data: bytes)
        combine(bytes.count)
    }

    /// Adds a number.
    package mutating func combine(_ number: Int) {
        var bits = UInt64(bitPattern: Int64(number))
        for _ in 0..<8 {
            pending.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
        if pending.count >= Self.flushSize { flush() }
    }

    private mutating func flush() {
        guard !pending.isEmpty else { return }
        digest.update(data: pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// The hash as 16 hex digits.
    package var hex: String { StableHash.hexDigits(value) }

    /// The hash of some bytes (a file's contents), as 16 hex digits.
    package static func hex(of data: Data) -> String {
        StableHash.hexDigits(value(of: data))
    }

    /// The hash of some bytes (a file's contents).
    package static func value(of data: Data) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(bytes: data)
        return hasher.value
    }
}

/// A 64-bit FNV-1a hash of short strings, for item ids and fallback slugs: these appear in the
/// site's URLs, so the algorithm must never change. Not for security.
package enum StableHash {
    /// The hash of some strings, as 16 hex digits.
    package static func hex(_ parts: String...) -> String {
        var hash = Parts()
        for part in parts { hash.add(part) }
        return hash.hex
    }

    /// ``hex(_:)`` fed one part at a time, for when the parts are known at different times.
    package struct Parts: Sendable {
        private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

        /// Starts with no parts.
        package init() {}

        /// Adds the next part.
        package mutating func add(_ part: String) {
            for byte in part.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            hash ^= 0xFF
            hash = hash &* 0x0000_0100_0000_01B3
        }

        /// The hash of the parts so far, as 16 hex digits.
        package var hex: String { StableHash.hexDigits(hash) }

        /// ``hex`` after `prefix`, made as one string.
        func hex(prefixedBy prefix: StaticString) -> String { StableHash.hexDigits(hash, prefixedBy: prefix) }

        /// The hash so far, to be carried on with ``init(state:)``.
        var state: UInt64 { hash }

        /// Carries on from a ``state``.
        init(state: UInt64) { hash = state }

        /// One `Parts` per list, its parts added in order (lists hashed on every core).
        package static func of(_ lists: [[String]]) -> [Parts] {
            lists.concurrentMap { list in
                var parts = Parts()
                for part in list { parts.add(part) }
                return parts
            }
        }
    }

    /// `hash` as 16 lowercase hex digits after `prefix` (ASCII).
    static func hexDigits(_ hash: UInt64, prefixedBy prefix: StaticString = "") -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(prefix.utf8CodeUnitCount + 16)
        prefix.withUTF8Buffer { text.append(contentsOf: $0) }
        for position in 0..<16 { text.append(digits[Int(truncatingIfNeeded: hash >> UInt64(60 - 4 * position)) & 0xF]) }
        return String(decoding: text, as: UTF8.self)
    }
}
