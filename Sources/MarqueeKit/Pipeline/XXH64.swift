/// XXH64, the 64-bit hash of the xxHash family, as its specification describes it
/// (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md), fed a part at a time.
///
/// Written here because no package this project can use provides it, and the standard hash
/// one does (swift-crypto's SHA-256) made hashing a large part of every build, past what the
/// build's speed goals allow. Tested against the reference implementation's values.
struct XXH64: Sendable {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    private let seed: UInt64
    /// The four accumulators, each fed every fourth word of the whole 32-byte stripes.
    private var lanes: InlineArray<4, UInt64>
    /// The bytes after the last whole stripe, eight to a word, the first byte lowest.
    private var stripe = InlineArray<4, UInt64>(repeating: 0)
    private var pending = 0
    private var count = 0

    init(seed: UInt64 = 0) {
        self.seed = seed
        lanes = [seed &+ Self.prime1 &+ Self.prime2, seed &+ Self.prime2, seed, seed &- Self.prime1]
    }

    /// The hash of `bytes` alone.
    static func hash(_ bytes: Span<UInt8>, seed: UInt64 = 0) -> UInt64 {
        var hash = XXH64(seed: seed)
        hash.append(bytes)
        return hash.value
    }

    /// Adds `bytes`.
    mutating func append(_ bytes: Span<UInt8>) {
        var offset = 0
        if pending != 0 {
            // Up to the end of the stripe begun, so that the rest can go straight into the lanes.
            offset = Swift.min(32 - pending, bytes.count)
            appendPiecewise(bytes, 0..<offset)
        }
        if pending == 0 {
            var (a, b, c, d) = (lanes[0], lanes[1], lanes[2], lanes[3])
            let start = offset
            while offset + 32 <= bytes.count {
                a = Self.round(a, Self.word(bytes, offset))
                b = Self.round(b, Self.word(bytes, offset + 8))
                c = Self.round(c, Self.word(bytes, offset + 16))
                d = Self.round(d, Self.word(bytes, offset + 24))
                offset += 32
            }
            lanes = [a, b, c, d]
            count += offset - start
        }
        appendPiecewise(bytes, offset..<bytes.count)
    }

    /// Adds `range` of `bytes` a word at a time, the last few bytes as one word.
    private mutating func appendPiecewise(_ bytes: Span<UInt8>, _ range: Range<Int>) {
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            append(Self.word(bytes, offset), byteCount: 8)
            offset += 8
        }
        guard offset < range.upperBound else { return }
        var tail: UInt64 = 0
        for index in (offset..<range.upperBound).reversed() { tail = tail << 8 | UInt64(bytes[index]) }
        append(tail, byteCount: range.upperBound - offset)
    }

    /// Adds the eight bytes of `word`, lowest first.
    mutating func append(word: UInt64) {
        append(word, byteCount: 8)
    }

    /// Adds the `byteCount` (1 to 8) lowest bytes of `value`, lowest first; its other bytes are 0.
    private mutating func append(_ value: UInt64, byteCount: Int) {
        // The pending bytes end partway through a word whenever a part's length is not a
        // multiple of eight: `value` then fills that word, and what does not fit starts the next.
        let word = pending / 8, shift = UInt64(pending % 8 * 8)
        stripe[word] |= value << shift
        let spill = shift == 0 ? 0 : value >> (64 - shift)
        pending += byteCount
        count += byteCount
        if pending >= 32 {
            consumeStripe()
            pending -= 32
            stripe[0] = spill
        } else if pending > 8 * (word + 1) {
            stripe[word + 1] = spill
        }
    }

    private mutating func consumeStripe() {
        for lane in 0..<4 {
            lanes[lane] = Self.round(lanes[lane], stripe[lane])
            stripe[lane] = 0
        }
    }

    /// The hash of everything added so far.
    var value: UInt64 {
        var accumulator: UInt64
        if count >= 32 {
            accumulator = lanes[0].rotated(1) &+ lanes[1].rotated(7) &+ lanes[2].rotated(12) &+ lanes[3].rotated(18)
            for lane in 0..<4 {
                accumulator = (accumulator ^ Self.round(0, lanes[lane])) &* Self.prime1 &+ Self.prime4
            }
        } else {
            accumulator = seed &+ Self.prime5
        }
        accumulator &+= UInt64(count)
        var offset = 0
        while offset + 8 <= pending {
            accumulator = (accumulator ^ Self.round(0, stripe[offset / 8])).rotated(27) &* Self.prime1 &+ Self.prime4
            offset += 8
        }
        if offset + 4 <= pending {
            let half = stripe[offset / 8] & 0xFFFF_FFFF
            accumulator = (accumulator ^ half &* Self.prime1).rotated(23) &* Self.prime2 &+ Self.prime3
            offset += 4
        }
        while offset < pending {
            let byte = stripe[offset / 8] >> UInt64(offset % 8 * 8) & 0xFF
            accumulator = (accumulator ^ byte &* Self.prime5).rotated(11) &* Self.prime1
            offset += 1
        }
        accumulator ^= accumulator >> 33
        accumulator &*= Self.prime2
        accumulator ^= accumulator >> 29
        accumulator &*= Self.prime3
        return accumulator ^ accumulator >> 32
    }

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
        (accumulator &+ lane &* prime2).rotated(31) &* prime1
    }

    /// The eight bytes at `offset` as a little-endian word. (The load is bounds-checked; it is
    /// called unsafe for types some bit patterns of which are invalid, which no integer has.
    /// One load, where eight single bytes would each be read, checked and shifted.)
    @inline(__always)
    private static func word(_ bytes: Span<UInt8>, _ offset: Int) -> UInt64 {
        bytes.bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotated(_ count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}
