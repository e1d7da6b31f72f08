/// A set of strings whose hashes the caller works out beforehand, so that the hashing of many
/// strings can be spread over every core while the inserting, which must keep an order, runs
/// on one. (Inserting a large site's ids and slugs into `Set<String>`s, each hashed with SipHash
/// on one core, kept the other core waiting for a few milliseconds of every build.)
struct HashedStringSet {
    /// Positions in `members` (+ 1; 0 is an empty slot), found by a hash's low bits and then
    /// the next slots in turn. At most half are taken.
    private var slots: [Int32]
    private var members: [String] = []
    private var hashes: [UInt64] = []

    /// An empty set with room for `capacity` strings before it grows.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        slots = Array(repeating: 0, count: size)
        members.reserveCapacity(capacity)
        hashes.reserveCapacity(capacity)
    }

    /// The hash ``insert(_:hash:)`` expects for `text` (seeded per process: ids and slugs come
    /// from feeds, see ``SeededHash``).
    static func hash(_ text: String) -> UInt64 {
        SeededHash.of(text)
    }

    /// Adds `text`, whose ``hash(_:)`` is `hash`; false when it was already there.
    mutating func insert(_ text: String, hash: UInt64) -> Bool {
        insertOrFind(text, hash: hash).inserted
    }

    /// Adds `text`, whose ``hash(_:)`` is `hash`, unless it is there; either way returns its
    /// member number (members are numbered from 0 in the order they were added).
    mutating func insertOrFind(_ text: String, hash: UInt64) -> (inserted: Bool, member: Int) {
        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[slot] != 0 {
            let member = Int(slots[slot]) - 1
            if hashes[member] == hash && members[member] == text { return (false, member) }
            slot = (slot + 1) & (slots.count - 1)
        }
        let member = members.count
        slots[slot] = Int32(member + 1)
        members.append(text)
        hashes.append(hash)
        if members.count * 2 > slots.count { grow() }
        return (true, member)
    }

    /// Doubles the slots and places every member again by its hash.
    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        for (member, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = Int32(member + 1)
        }
    }
}
