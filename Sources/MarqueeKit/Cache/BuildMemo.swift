import Foundation

/// What a build remembers between runs: `Codable` results of expensive per-item work, keyed by
/// a hash of everything the work depends on (a ``StableHasher`` value), so that a rebuild after
/// a small edit redoes the work only for what changed. The built-in stages keep which
/// descriptions render purely, intros, line counts, slug suffixes and movie records here, and
/// the build which values made each output file (``FileMakers``); any plugin may keep its own.
///
/// ```swift
/// var key = StableHasher("reading-time-1")   // a namespace of your own, with a version
/// key.combine(item.bodyText)
/// let minutes = context.memo.value(for: key.value) { readingMinutes(of: item) }
/// ```
///
/// Only pure results belong here: a value must be exactly what the work would produce again
/// from the same inputs, with no side effect skipped by reusing it. A key holds one type of
/// value. Entries neither looked up nor stored by recent builds are dropped once they make up
/// half the file (see ``save()``).
///
/// The file belongs to the program that wrote it: another build of Marquee (an upgrade that
/// sanitizes, renders or measures differently, or a site's own plugins recompiled) starts from
/// an empty memo, so no result of older code is ever reused.
public final class BuildMemo: Sendable {
    private let file: URL?
    /// The first line of the file: the format and the program (``BuildState/executableStamp``).
    private let firstLine: String
    private let state = Locked(State())

    private struct State {
        /// The previous build's file, read at the first lookup.
        var previous = MemoFile()
        var isRead = false
        /// Per entry of ``previous``: looked up by this build (the next file keeps it).
        var found: [Bool] = []
        /// The entries this build stored, as the file holds them (a key stored twice has its
        /// later value there too): one buffer rather than one per value, which a large site
        /// would allocate and free by the ten thousand.
        var stored: [UInt8] = []
        /// The keys of ``stored``.
        var storedKeys: Set<UInt64> = []
    }

    /// A memo that starts empty and is never saved.
    public convenience init() { self.init(file: nil) }

    /// A memo read from and saved to `file`; entries written by another `program` are not read.
    /// A memo whose values must outlive the program (the last good copies of fetched feeds, see
    /// ``FeedCache``) names a program of its own instead of this build of Marquee.
    init(file: URL?, program: String = BuildState.executableStamp) {
        self.file = file
        firstLine = "marquee-memo-4 \(program)\n"
    }

    /// Where the builds of `site` keep their memo, beside their build state.
    static func file(for site: Site) -> URL {
        BuildState.file(for: site).deletingPathExtension().appendingPathExtension("memo")
    }

    /// The value of `type` the previous build stored under `key`, if any.
    public func value<Value: Decodable & Sendable>(_ type: Value.Type = Value.self, for key: UInt64) -> Value? {
        values(type, for: [key])[0]
    }

    /// The values of `type` the previous build stored under `keys` (nil where it stored none),
    /// decoded on every core. A stage that looks up every item asks for all of them at once:
    /// lookups one by one from every core would take turns at the memo's lock.
    public func values<Value: Decodable & Sendable>(_ type: Value.Type = Value.self, for keys: [UInt64]) -> [Value?] {
        let (bytes, ranges) = lookUp(keys)
        let isScalar = type is any MemoScalar.Type
        return ranges.concurrentMap { range in range.flatMap { Self.decode(type, from: bytes, in: $0, isScalar: isScalar) } }
    }

    /// Whether the previous build stored a value under each of `keys`, without decoding any.
    /// The values found are kept for the next build, as those looked up are: for a stage that
    /// makes its result only when something asks for it (see ``MarkupPlugin`` and
    /// ``LayoutPlugin``).
    func contains(_ keys: [UInt64]) -> [Bool] {
        lookUp(keys).ranges.map { $0 != nil }
    }

    /// The previous build's file and where the value of each of `keys` is in it (nil where it
    /// stored none); each entry found is kept for the next build.
    private func lookUp(_ keys: [UInt64]) -> (bytes: [UInt8], ranges: [Range<Int>?]) {
        state.withLock { state in
            Self.read(&state, file: file, firstLine: firstLine)
            let previous = state.previous
            let ranges = keys.map { key -> Range<Int>? in
                guard let entry = previous.index[key] else { return nil }
                state.found[entry] = true
                return previous.ranges[entry]
            }
            return (previous.bytes, ranges)
        }
    }

    /// The value of `type` in `range` of the file's `bytes`; nil when it does not read as one.
    ///
    /// Values with containers are decoded from a copy of their bytes: decoding retains and
    /// releases the array it reads many times, and the file's array, shared by every thread,
    /// would have each of those counts bounce between the cores. A scalar, or a list of them (line
    /// counts), is read with one retain, and needs no copy.
    private static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8], in range: Range<Int>, isScalar: Bool) -> Value? {
        if isScalar { return try? MemoDecoder.decode(type, from: bytes, in: range) }
        let entry = Array(bytes[range])
        return try? MemoDecoder.decode(type, from: entry, in: entry.indices)
    }

    /// Stores `value` under `key` for the next build.
    public func store(_ value: some Encodable, for key: UInt64) {
        guard let bytes = try? MemoEncoder.encode(value) else { return }
        state.withLock { state in
            MemoFile.append(key, bytes[...], to: &state.stored)
            state.storedKeys.insert(key)
        }
    }

    /// The value stored under `key` by the previous build, or `compute()`'s result, stored for the
    /// next build.
    public func value<Value: Codable & Sendable>(for key: UInt64, orCompute compute: () throws -> Value) rethrows -> Value {
        if let known = value(Value.self, for: key) { return known }
        let value = try compute()
        store(value, for: key)
        return value
    }

    /// Reads the previous build's file now (it is otherwise read at the first lookup, while
    /// lookups from other threads wait for it): a build calls this beside work that looks nothing up.
    func prepare() {
        state.withLock { Self.read(&$0, file: file, firstLine: firstLine) }
    }

    private static func read(_ state: inout State, file: URL?, firstLine: String) {
        guard !state.isRead else { return }
        state.isRead = true
        if let file { state.previous = MemoFile(reading: file, firstLine: firstLine) }
        state.found = Array(repeating: false, count: state.previous.keys.count)
    }

    /// Writes the entries of this build (after a successful build). A build that neither looked
    /// anything up nor stored anything leaves the file as it is.
    ///
    /// Usually only the entries computed by this build are appended to the previous file (a
    /// one-item edit adds a few hundred bytes to a memo of megabytes). When entries no longer
    /// looked up would make more than half of the file, it is written anew instead, with only
    /// the entries this build stored or found, a megabyte at a time so that a large site's memo
    /// is never held twice in memory.
    func save() {
        guard let file else { return }
        let (previous, found, stored, storedKeys) = state.withLock { ($0.previous, $0.found, $0.stored, $0.storedKeys) }
        guard !stored.isEmpty || found.contains(true) else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Entries found and not stored again, which the next file keeps as they are.
        let kept = found.indices.filter { found[$0] && !storedKeys.contains(previous.keys[$0]) }
        let keptBytes = kept.reduce(0) { $0 + MemoFile.headerSize + previous.ranges[$1].count }
        // Appending is worth trying when the build kept more entries than it stored (a rebuild).
        if previous.size > 0, storedKeys.count < kept.count,
           previous.size + stored.count <= 2 * (keptBytes + stored.count), previous.append(stored, to: file) {
            return
        }
        FileIO.replace(file.path) { descriptor in
            var buffer = Array(firstLine.utf8), written = true
            func add(_ key: UInt64, _ value: ArraySlice<UInt8>) {
                MemoFile.append(key, value, to: &buffer)
                guard buffer.count >= 1 << 20 else { return }
                written = written && FileIO.writeAll(buffer, to: descriptor)
                buffer.removeAll(keepingCapacity: true)
            }
            for entry in kept { add(previous.keys[entry], previous.bytes[previous.ranges[entry]]) }
            return written && FileIO.writeAll(buffer, to: descriptor) && FileIO.writeAll(stored, to: descriptor)
        }
    }
}
