import Foundation

/// Paths of the output with a value each: the files and folders a ``BuildState`` records.
///
/// A large site's state holds 20,000 paths. As `[String: Value]`, reading it made a string and
/// a dictionary entry of every path (most of reading the state), and every lookup hashed and
/// retained a string. Here the paths' bytes sit one after another in one buffer, found through
/// an open-addressing table of their hashes (Swift's `Hasher`, seeded per process, so that paths
/// made from a hostile feed cannot be chosen to collide); a path becomes a `String` only when
/// asked for.
///
/// Every entry keeps its place (a number from 0, see ``places``) for as long as the table lives,
/// removed entries too, so that work per entry can be kept in an array beside the table.
struct PathTable<Value: Equatable & Sendable>: Sendable {
    /// Every entry's path, one after another.
    private var bytes: [UInt8] = []
    /// Where each entry's path ends in `bytes` (it starts where the previous one's ends).
    private var ends: [Int] = []
    /// Each entry's value; nil once removed.
    private var values: [Value?] = []
    /// Entries by hash: a place, or -1. A power of two in size, at most half full.
    private var slots: [Int32] = []
    /// Entries not removed.
    private(set) var count = 0

    /// An empty table with room for `minimumCapacity` entries.
    init(minimumCapacity: Int = 0) {
        reserveCapacity(minimumCapacity)
    }

    /// The length in bytes of the paths of the entries not removed.
    var pathBytes: Int {
        places.reduce(0) { total, place in
            values[place] == nil ? total : total + ends[place] - (place == 0 ? 0 : ends[place - 1])
        }
    }

    /// The places of every entry ever added, removed ones included (their ``value(at:)`` is nil).
    var places: Range<Int> { 0..<ends.count }

    /// The value at `place`; nil when its entry was removed.
    func value(at place: Int) -> Value? { values[place] }

    /// The path at `place`.
    func path(at place: Int) -> String {
        withPath(at: place) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the bytes of the path at `place`.
    func withPath<Result>(at place: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let start = place == 0 ? 0 : ends[place - 1]
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<ends[place]])) }
    }

    /// The place of `path`'s entry, removed or not; nil when it was never added.
    func place(of path: String) -> Int? {
        var path = path
        return path.withUTF8 { place(ofBytes: $0) }
    }

    /// The place of the entry whose path is `path`'s UTF-8 bytes.
    func place(ofBytes path: UnsafeBufferPointer<UInt8>) -> Int? {
        place(ofBytes: path, hash: Self.hash(path))
    }

    /// ``place(ofBytes:)`` with the path's hash already worked out.
    private func place(ofBytes path: UnsafeBufferPointer<UInt8>, hash: Int) -> Int? {
        guard !slots.isEmpty else { return nil }
        return bytes.withUnsafeBufferPointer { stored in
            slots.withUnsafeBufferPointer { slots in
                let mask = slots.count - 1
                var slot = hash & mask
                while true {
                    let place = Int(slots[slot])
                    if place < 0 { return nil }
                    let start = place == 0 ? 0 : ends[place - 1]
                    if ends[place] - start == path.count,
                       path.count == 0 || memcmp(stored.baseAddress! + start, path.baseAddress!, path.count) == 0
                    {
                        return place
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    /// The value of `path`; setting nil removes the entry.
    subscript(path: String) -> Value? {
        get { place(of: path).flatMap { values[$0] } }
        set {
            var path = path
            path.withUTF8 { set(newValue, forPath: $0) }
        }
    }

    /// Sets the value of the entry whose path is the UTF-8 bytes `path` (nil removes it).
    mutating func set(_ value: Value?, forPath path: UnsafeBufferPointer<UInt8>) {
        // Hashed once, for the lookup and for the new entry's slot (a large state's 20,000 paths
        // are all new to the table that reads it).
        let hash = Self.hash(path)
        if let place = place(ofBytes: path, hash: hash) {
            set(value, at: place)
            return
        }
        guard value != nil else { return }
        if 2 * (ends.count + 1) > slots.count { reserveCapacity(ends.count + 1) }
        bytes.append(contentsOf: path)
        ends.append(bytes.count)
        values.append(value)
        count += 1
        insertSlot(for: ends.count - 1, hash: hash)
    }

    /// Sets the value of the entry at `place` (nil removes it).
    mutating func set(_ value: Value?, at place: Int) {
        count += (value == nil ? 0 : 1) - (values[place] == nil ? 0 : 1)
        values[place] = value
    }

    /// Makes room for `capacity` entries (and their paths, at about 40 bytes each).
    mutating func reserveCapacity(_ capacity: Int) {
        var size = 16
        while size < 2 * capacity { size *= 2 }
        guard size > slots.count else { return }
        bytes.reserveCapacity(capacity * 40)
        ends.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
        slots = [Int32](repeating: -1, count: size)
        for place in places { insertSlot(for: place, hash: withPath(at: place) { Self.hash($0) }) }
    }

    private mutating func insertSlot(for place: Int, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(place)
    }

    private static func hash(_ path: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(path))
        return hasher.finalize()
    }
}

extension PathTable: Sequence {
    /// The entries not removed, in the order they were added.
    func makeIterator() -> AnyIterator<(path: String, value: Value)> {
        var place = 0
        return AnyIterator {
            while place < ends.count {
                defer { place += 1 }
                if let value = values[place] { return (path(at: place), value) }
            }
            return nil
        }
    }

    /// The paths of the entries not removed.
    var paths: [String] { map(\.path) }
}

extension PathTable: Equatable {
    /// The same paths with the same values, whatever their places.
    static func == (lhs: PathTable, rhs: PathTable) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for place in lhs.places {
            guard let value = lhs.values[place] else { continue }
            guard let other = lhs.withPath(at: place, { rhs.place(ofBytes: $0) }), rhs.values[other] == value else { return false }
        }
        return true
    }
}

extension PathTable: ExpressibleByDictionaryLiteral {
    init(dictionaryLiteral elements: (String, Value)...) {
        self.init(minimumCapacity: elements.count)
        for (path, value) in elements { self[path] = value }
    }
}

extension PathTable: CustomStringConvertible {
    /// The entries as `path: value` pairs sorted by path (a failed test's message stays readable).
    var description: String {
        "[" + sorted { $0.path < $1.path }.map { "\($0.path): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
