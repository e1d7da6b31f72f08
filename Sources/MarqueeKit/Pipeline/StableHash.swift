import Foundation

/// A hash for change detection, stable across runs and machines (unlike `Hasher`): the keys of
/// ``BuildMemo``, page digests (``OutputSet/reuse(_:digest:)``), build fingerprints; a plugin
/// makes its own keys and digests with it. ``value`` is the XXH64 hash of the parts combined,
/// each after its length (so that `"ab" + "c"` and `"a" + "bc"` differ). Not for security: a
/// crafted collision could at worst keep a stale page.
public struct StableHasher: Sendable {
    /// Changes whenever the hash of any input does. What outlives one program's builds keeps it
    /// beside the digests it holds (the memo and the build state are another program's after
    /// any upgrade anyway).
    package static let version = 3

    private var hash = XXH64()

    /// Creates a hasher; `namespace` keeps keys of different uses apart.
    public init(_ namespace: String = "") {
        if !namespace.isEmpty { combine(namespace) }
    }

    /// The hash of everything combined so far.
    public var value: UInt64 { hash.value }

    /// The hash as 16 hex digits.
    public var hex: String { StableHash.hexDigits(value) }

    /// Adds a string.
    public mutating func combine(_ text: String) {
        combine(text.utf8.count)
        hash.append(text.utf8.span)
    }

    /// Adds raw bytes.
    public mutating func combine(bytes data: Data) {
        combine(data.count)
        hash.append(data.span)
    }

    /// Adds raw bytes.
    mutating func combine(_ part: Span<UInt8>) {
        combine(part.count)
        hash.append(part)
    }

    /// Adds a number.
    public mutating func combine(_ number: Int) {
        hash.append(word: UInt64(bitPattern: Int64(number)))
    }

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
            var part = part
            part.withUTF8 { bytes in
                for byte in bytes {
                    hash ^= UInt64(byte)
                    hash = hash &* 0x0000_0100_0000_01B3
                }
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

        /// The same as making one `Parts` per list and adding its parts in order, made for many
        /// lists with long parts (items' descriptions).
        ///
        /// FNV-1a is one chain of dependent multiplies per hash, each waiting for the last; here
        /// four hashes advance side by side, so the processor overlaps their multiplies. Every
        /// part is followed by the byte 0xFF, which is exactly what ``add(_:)`` mixes in after a
        /// part (and which UTF-8 never holds), so a list is hashed as one run of bytes.
        package static func of(_ lists: some Collection<[String]>) -> [Parts] {
            var bytes: [UInt8] = []
            var ends: [Int] = []
            ends.reserveCapacity(lists.count)
            // Sized once, rather than copied into each larger buffer as it grows.
            bytes.reserveCapacity(lists.reduce(0) { total, list in list.reduce(total) { $0 + $1.utf8.count + 1 } })
            for list in lists {
                for part in list {
                    bytes += part.utf8
                    bytes.append(0xFF)
                }
                ends.append(bytes.count)
            }
            var results = [Parts](repeating: Parts(), count: ends.count)
            hashSideBySide(bytes.span, ends: ends, into: &results)
            return results
        }

        /// Hashes the runs of `bytes` that end at `ends` (each starting where the last ended),
        /// four at a time: each lane takes the next run as soon as its own is done.
        private static func hashSideBySide(_ bytes: Span<UInt8>, ends: [Int], into results: inout [Parts]) {
            let prime: UInt64 = 0x0000_0100_0000_01B3
            /// One lane: which run it hashes, where it is and where the run ends.
            struct Lane {
                var run = -1, position = 0, end = 0
                var hash: UInt64 = 0
            }
            var nextRun = 0
            func start(_ lane: inout Lane) {
                if lane.run >= 0 { results[lane.run].hash = lane.hash }
                guard nextRun < ends.count else {
                    lane = Lane()
                    return
                }
                lane = Lane(run: nextRun, position: nextRun == 0 ? 0 : ends[nextRun - 1], end: ends[nextRun], hash: Parts().hash)
                nextRun += 1
            }
            var a = Lane(), b = Lane(), c = Lane(), d = Lane()
            start(&a); start(&b); start(&c); start(&d)
            // While all four lanes have bytes left, every lane takes as many bytes as the shortest.
            while a.run >= 0 && b.run >= 0 && c.run >= 0 && d.run >= 0 {
                let steps = Swift.min(a.end - a.position, b.end - b.position, c.end - c.position, d.end - d.position)
                var ha = a.hash, hb = b.hash, hc = c.hash, hd = d.hash
                for step in 0..<steps {
                    ha = (ha ^ UInt64(bytes[a.position + step])) &* prime
                    hb = (hb ^ UInt64(bytes[b.position + step])) &* prime
                    hc = (hc ^ UInt64(bytes[c.position + step])) &* prime
                    hd = (hd ^ UInt64(bytes[d.position + step])) &* prime
                }
                a.hash = ha; b.hash = hb; c.hash = hc; d.hash = hd
                a.position += steps; b.position += steps; c.position += steps; d.position += steps
                if a.position == a.end { start(&a) }
                if b.position == b.end { start(&b) }
                if c.position == c.end { start(&c) }
                if d.position == d.end { start(&d) }
            }
            // Fewer than four runs left: each of the lanes still busy finishes alone.
            for var lane in [a, b, c, d] where lane.run >= 0 {
                while lane.position < lane.end {
                    lane.hash = (lane.hash ^ UInt64(bytes[lane.position])) &* prime
                    lane.position += 1
                }
                results[lane.run].hash = lane.hash
            }
        }
    }

    /// `hash` as 16 lowercase hex digits after `prefix` (ASCII), made in place in one allocation
    /// (every item's id is one).
    static func hexDigits(_ hash: UInt64, prefixedBy prefix: StaticString = "") -> String {
        let prefixLength = prefix.utf8CodeUnitCount
        return String(unsafeUninitializedCapacity: prefixLength + 16) { buffer in
            for position in 0..<prefixLength { buffer[position] = prefix.utf8Start[position] }
            let digits: StaticString = "0123456789abcdef"
            for position in 0..<16 {
                buffer[prefixLength + position] = digits.utf8Start[Int(truncatingIfNeeded: hash >> UInt64(60 - 4 * position)) & 0xF]
            }
            return prefixLength + 16
        }
    }
}
