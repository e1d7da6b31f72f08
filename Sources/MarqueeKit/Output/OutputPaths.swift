import OrderedCollections

/// Paths of the output with a value each: the files and folders a ``BuildState`` records, in
/// the order they were added.
///
/// Every entry keeps its place (a number from 0, see ``places``) for as long as the value lives,
/// removed entries too, so that work per entry can be kept in an array beside it (the output
/// check's answers, ``StagedOutput``'s marks of the files a build wrote again).
struct OutputPaths<Value: Equatable & Sendable>: Sendable {
    /// Each path's value; nil once removed (the entry keeps its place).
    private var entries: OrderedDictionary<String, Value?> = [:]
    /// Entries not removed.
    private(set) var count = 0

    /// An empty set of paths with room for `minimumCapacity` entries.
    init(minimumCapacity: Int = 0) {
        entries.reserveCapacity(minimumCapacity)
    }

    /// The places of every entry ever added, removed ones included (their ``value(at:)`` is nil).
    var places: Range<Int> { 0..<entries.count }

    /// The value at `place`; nil when its entry was removed.
    func value(at place: Int) -> Value? { entries.values[place] }

    /// The path at `place`.
    func path(at place: Int) -> String { entries.keys[place] }

    /// The place of `path`'s entry, removed or not; nil when it was never added.
    func place(of path: String) -> Int? { entries.index(forKey: path) }

    /// The value of `path`; setting nil removes the entry.
    subscript(path: String) -> Value? {
        get { entries[path] ?? nil }
        set {
            guard let newValue else {
                if let place = place(of: path) { set(nil, at: place) }
                return
            }
            // One lookup, whether the path is new or not: reading a state sets every path.
            if case .some(.some) = entries.updateValue(newValue, forKey: path) { return }
            count += 1
        }
    }

    /// Sets the value of the entry at `place` (nil removes it).
    mutating func set(_ value: Value?, at place: Int) {
        count += (value == nil ? 0 : 1) - (entries.values[place] == nil ? 0 : 1)
        entries.values[place] = value
    }

    /// Makes room for `capacity` entries.
    mutating func reserveCapacity(_ capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    /// The length in bytes of the paths of the entries not removed.
    var pathBytes: Int {
        entries.reduce(0) { total, entry in entry.value == nil ? total : total + entry.key.utf8.count }
    }
}

extension OutputPaths: Sequence {
    /// The entries not removed, in the order they were added.
    func makeIterator() -> some IteratorProtocol<(path: String, value: Value)> {
        entries.lazy.compactMap { entry in entry.value.map { (path: entry.key, value: $0) } }.makeIterator()
    }

    /// The paths of the entries not removed.
    var paths: [String] { map(\.path) }
}

extension OutputPaths: Equatable {
    /// The same paths with the same values, whatever their places.
    static func == (lhs: OutputPaths, rhs: OutputPaths) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.path] == $0.value }
    }
}

extension OutputPaths: ExpressibleByDictionaryLiteral {
    init(dictionaryLiteral elements: (String, Value)...) {
        self.init(minimumCapacity: elements.count)
        for (path, value) in elements { self[path] = value }
    }
}

extension OutputPaths: CustomStringConvertible {
    /// The entries as `path: value` pairs sorted by path (a failed test's message stays readable).
    var description: String {
        "[" + sorted { $0.path < $1.path }.map { "\($0.path): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
