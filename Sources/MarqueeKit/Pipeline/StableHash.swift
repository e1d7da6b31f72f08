import Foundation

/// A fast 64-bit hash for change detection, stable across runs and machines (unlike `Hasher`):
/// the keys of ``BuildMemo``, page digests (``OutputSet/reuse(_:digest:)``), build fingerprints;
/// a plugin makes its own keys and digests with it. It mixes eight bytes at a time
/// (MurmurHash3's steps, then its final avalanche), and long texts sixteen bytes at a time in four
/// independent lanes, so hashing every description of a large site on each rebuild stays cheap.
/// Not for security: a crafted collision could at worst keep a stale page.
public struct StableHasher: Sendable {
    /// Changes whenever the hash of any input does (2: long texts folded by 128-bit products).
    /// What outlives one program's builds keeps it beside the digests it holds (the memo and
    /// the build state are another program's after any upgrade anyway).
    package static let version = 2

    /// The hash of everything combined so far.
    public var value: UInt64 { Self.avalanche(state) }
    private var state: UInt64 = 0x243F_6A88_85A3_08D3

    /// Creates a hasher; `namespace` keeps keys of different uses apart.
    public init(_ namespace: String = "") {
        if !namespace.isEmpty { combine(namespace) }
    }

    /// One step of MurmurHash3's 64-bit mixing. (A lone multiply-and-rotate, as in FxHash, only
    /// carries differences towards the high bits: "movie 12" and "movie 99" collided.)
    @inline(__always)
    private mutating func mix(_ word: UInt64) {
        state = Self.step(state, word)
    }

    @inline(__always)
    private static func step(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        var k = word &* 0x87C3_7B91_1142_53D5
        k = k << 31 | k >> 33
        k = k &* 0x4CF5_AD43_2745_937F
        var h = lane ^ k
        h = h << 27 | h >> 37
        return h &* 5 &+ 0x52DC_E729
    }

    /// The two halves of the 128-bit product of `a` and `b`, folded together by exclusive or.
    @inline(__always)
    private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    /// Adds a string (its length too, so `"ab" + "c"` and `"a" + "bc"` differ).
    public mutating func combine(_ text: String) {
        // In place when the string's bytes are at hand (a native string), without the copy (a
        // retain and release) that `withUTF8` needs.
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ combine(UnsafeRawBufferPointer($0)) }) { return done }
        var text = text
        text.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    /// Adds raw bytes.
    public mutating func combine(bytes data: Data) {
        data.withUnsafeBytes { combine($0) }
    }

    /// Adds raw bytes.
    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        if bytes.count >= 64 {
            // Long texts go through four lanes, each fed every fourth pair of words: one lane's
            // steps depend on each other, the four lanes' do not, so the processor overlaps them.
            // A step multiplies the pair (one word offset by a constant, the other by the lane)
            // into 128 bits and folds the product's halves into the lane: half the instructions
            // per byte of MurmurHash3's steps.
            func word(_ at: Int) -> UInt64 { bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian }
            var lanes = (state ^ 0x9E37_79B9_7F4A_7C15, state ^ 0xC2B2_AE3D_27D4_EB4F, state ^ 0x1656_67B1_9E37_79F9, state ^ 0x27D4_EB2F_1656_67C5)
            while offset + 64 <= bytes.count {
                lanes.0 ^= Self.fold(word(offset) ^ 0x1319_8A2E_0370_7344, word(offset + 8) ^ lanes.0)
                lanes.1 ^= Self.fold(word(offset + 16) ^ 0xA409_3822_299F_31D0, word(offset + 24) ^ lanes.1)
                lanes.2 ^= Self.fold(word(offset + 32) ^ 0x082E_FA98_EC4E_6C89, word(offset + 40) ^ lanes.2)
                lanes.3 ^= Self.fold(word(offset + 48) ^ 0x4528_21E6_38D0_1377, word(offset + 56) ^ lanes.3)
                offset += 64
            }
            state = lanes.0
            mix(lanes.1)
            mix(lanes.2)
            mix(lanes.3)
        }
        while offset + 8 <= bytes.count {
            mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
            offset += 8
        }
        mix(bytes.tailWord(from: offset))
        mix(UInt64(bytes.count))
    }

    /// Adds a number.
    public mutating func combine(_ number: Int) {
        mix(UInt64(bitPattern: Int64(number)))
    }

    /// The hash as 16 hex digits.
    public var hex: String { StableHash.hexDigits(value) }

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

    private static func avalanche(_ value: UInt64) -> UInt64 {
        var x = value
        x = (x ^ (x >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        x = (x ^ (x >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return x ^ (x >> 33)
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

        /// The same as making one `Parts` per list and adding its parts in order, several times
        /// faster for long parts (an item's description).
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
            bytes.withUnsafeBufferPointer { bytes in
                results.withUnsafeMutableBufferPointer { results in
                    hashSideBySide(bytes, ends: ends, into: results)
                }
            }
            return results
        }

        /// Hashes the runs of `bytes` that end at `ends` (each starting where the last ended),
        /// four at a time: each lane takes the next run as soon as its own is done.
        private static func hashSideBySide(_ bytes: UnsafeBufferPointer<UInt8>, ends: [Int], into results: UnsafeMutableBufferPointer<Parts>) {
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

extension UnsafeRawBufferPointer {
    /// The bytes from `offset` to the end (fewer than eight) as one little-endian word, the
    /// first byte lowest: what eight-bytes-at-a-time hashes mix in last. Read with at most three
    /// loads, never past the end (short strings, most of what a build hashes, end in one).
    @inline(__always)
    func tailWord(from offset: Int) -> UInt64 {
        let remaining = count - offset
        if remaining <= 0 { return 0 }
        if count >= 8 {
            // The last eight bytes in one load, the bytes before the tail shifted out.
            return loadUnaligned(fromByteOffset: count - 8, as: UInt64.self).littleEndian >> UInt64(64 - 8 * remaining)
        }
        var tail: UInt64 = 0
        var position = offset
        var shift: UInt64 = 0
        if count - position >= 4 {
            tail = UInt64(loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian)
            position += 4
            shift = 32
        }
        if count - position >= 2 {
            tail |= UInt64(loadUnaligned(fromByteOffset: position, as: UInt16.self).littleEndian) << shift
            position += 2
            shift += 16
        }
        if count - position >= 1 {
            tail |= UInt64(self[position]) << shift
        }
        return tail
    }
}
