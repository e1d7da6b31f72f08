import Foundation

/// What a build remembers between runs: `Codable` results of expensive per-item work, keyed by
/// a hash of everything the work depends on (a ``StableHasher`` value), so that a rebuild after
/// a small edit redoes the work only for what changed. The built-in stages keep rendered markup,
/// intros, line counts, slug suffixes and movie records here; any plugin may keep its own.
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
        var previous: MemoFile?
        /// The entries the next file keeps.
        var kept: [UInt64: Entry] = [:]
    }

    private enum Entry {
        /// Found in the previous build's file, at this range of its bytes.
        case found(Range<Int>)
        case stored([UInt8])
    }

    /// A memo that starts empty and is never saved.
    public convenience init() { self.init(file: nil) }

    /// A memo read from and saved to `file`; entries written by another `program` are not read.
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
        let (bytes, ranges) = state.withLock { state in
            let previous = Self.read(&state.previous, file: file, firstLine: firstLine)
            let ranges = keys.map { key -> Range<Int>? in
                guard let range = previous.entries[key] else { return nil }
                if state.kept[key] == nil { state.kept[key] = .found(range) }
                return range
            }
            return (previous.bytes, ranges)
        }
        return ranges.concurrentMap { range in
            guard let range else { return nil }
            // Copied out: decoding retains and releases the array it reads many times, and the
            // file's array, shared by every thread, would have each of those counts bounce
            // between the cores.
            let entry = Array(bytes[range])
            return try? MemoDecoder.decode(type, from: entry, in: entry.indices)
        }
    }

    /// Stores `value` under `key` for the next build.
    public func store(_ value: some Encodable, for key: UInt64) {
        guard let bytes = try? MemoEncoder.encode(value) else { return }
        state.withLock { $0.kept[key] = .stored(bytes) }
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
        state.withLock { _ = Self.read(&$0.previous, file: file, firstLine: firstLine) }
    }

    private static func read(_ previous: inout MemoFile?, file: URL?, firstLine: String) -> MemoFile {
        if let previous { return previous }
        let read = file.map { MemoFile(reading: $0, firstLine: firstLine) } ?? MemoFile()
        previous = read
        return read
    }

    /// Writes the entries of this build (after a successful build).
    ///
    /// Usually only the entries computed by this build are appended to the previous file (a
    /// one-item edit adds a few hundred bytes to a memo of megabytes). When entries no longer
    /// looked up would make more than half of the file, it is written anew instead, with only
    /// the entries this build stored or found, so the file does not grow without bound.
    func save() {
        guard let file else { return }
        let (previous, kept) = state.withLock { ($0.previous, $0.kept) }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var added: [UInt8] = [], liveBytes = 0
        for (key, entry) in kept {
            switch entry {
            case .found(let range): liveBytes += MemoFile.headerSize + range.count
            case .stored(let value): MemoFile.append(key, value, to: &added)
            }
        }
        liveBytes += added.count
        if let previous, previous.size > 0, previous.size + added.count <= 2 * liveBytes,
            previous.append(added, to: file)
        {
            return
        }
        var bytes = Array(firstLine.utf8)
        for (key, entry) in kept {
            switch entry {
            case .found(let range): MemoFile.append(key, previous!.bytes[range], to: &bytes)
            case .stored(let value): MemoFile.append(key, value, to: &bytes)
            }
        }
        FileIO.replace(file.path, with: bytes)
    }
}
