import Foundation

/// Results of expensive per-item work remembered from the previous build, keyed by a hash of
/// everything the work depends on (a ``StableHasher`` value), so that a rebuild after a small
/// edit redoes the work only for what changed. The built-in Markdown and layout plugins use it;
/// any plugin may.
///
/// Only pure results belong here: a value must be exactly what the work would produce again
/// from the same inputs, with no side effect skipped by reusing it. Entries neither looked up
/// nor stored by recent builds are dropped once they make up half the file (see ``save()``).
///
/// The file belongs to the program that wrote it: another build of Marquee (an upgrade that
/// sanitizes, renders or measures differently, or a site's own plugins recompiled) starts from
/// an empty memo, so no result of older code is ever reused.
public final class BuildMemo: Sendable {
    private let file: URL?
    /// The first line of the file: the format and the program (``BuildState/executableStamp``).
    private let firstLine: String
    /// The previous build's file, mapped into memory on the first lookup.
    private let previous = Locked<StoredEntries?>(nil)
    /// Keys of ``previous`` looked up during this build, kept by ``save()``, and the bytes their
    /// entries take in its file.
    private let used = Locked<(keys: Set<UInt64>, bytes: Int)>(([], 0))
    /// Values stored during this build.
    private let current = Locked<[UInt64: String]>([:])

    /// A memo that starts empty and is never saved.
    public convenience init() { self.init(file: nil) }

    /// A memo read from and saved to `file` (mapped on the first lookup); entries written by
    /// another `program` are not read.
    init(file: URL?, program: String = BuildState.executableStamp) {
        self.file = file
        firstLine = "marquee-memo-2 \(program)\n"
    }

    /// Where the builds of `site` keep their memo, beside their build state.
    static func file(for site: Site) -> URL {
        BuildState.file(for: site).deletingPathExtension().appendingPathExtension("memo")
    }

    /// The value the previous build stored under `key`, if any.
    public func value(for key: UInt64) -> String? {
        rememberedText(for: key)?.text
    }

    /// Where the previous build's value under `key` is, if it stored one: its text is read only
    /// when asked for (a rebuild looks up every item's HTML, and shows few of them).
    func rememberedText(for key: UInt64) -> MemoText? {
        // Only finding the entry holds the lock.
        guard let stored = storedEntries(), let offset = stored.offset(for: key) else { return nil }
        used.withLock { used in
            if used.keys.insert(key).inserted { used.bytes += StoredEntries.headerSize + stored.length(at: offset) }
        }
        return MemoText(entries: stored, offset: offset)
    }

    /// Stores `value` under `key` for the next build.
    public func store(_ value: String, for key: UInt64) {
        current.withLock { $0[key] = value }
    }

    /// The value stored under `key` by the previous build, or `compute()`'s result, stored for the
    /// next build.
    public func value(for key: UInt64, orCompute compute: () throws -> String) rethrows -> String {
        if let known = value(for: key) { return known }
        let value = try compute()
        store(value, for: key)
        return value
    }

    private func storedEntries() -> StoredEntries? {
        guard let file else { return nil }
        return previous.withLock { stored in
            if stored == nil {
                let entries = StoredEntries(file: file, firstLine: firstLine)
                // Room for every key to be looked up, so the set never grows (rehashing all of
                // it) while the other lookups wait for its lock.
                used.withLock { $0.keys.reserveCapacity(entries.count) }
                stored = entries
            }
            return stored
        }
    }

    /// Writes the entries of this build (after a successful build).
    ///
    /// Usually only the entries computed by this build are appended to the previous file (a
    /// one-item edit adds a few hundred bytes to a memo of megabytes). When entries no longer
    /// looked up would make more than half of the file, it is written anew instead, with only
    /// the entries this build stored or reused, so the file does not grow without bound.
    func save() {
        guard let file else { return }
        let entries = current.withLock { $0 }
        let reused = used.withLock { $0 }
        let stored = previous.withLock { $0 }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        if let stored, stored.isAppendable(liveBytes: Self.liveBytes(entries, reused, in: stored), adding: Self.bytes(of: entries)),
            append(entries, to: file, holding: stored)
        {
            return
        }
        rewrite(file, with: entries, reused: reused.keys, from: stored)
    }

    /// Bytes that `entries` take in the file.
    private static func bytes(of entries: [UInt64: String]) -> Int {
        entries.values.reduce(0) { $0 + StoredEntries.headerSize + $1.utf8.count }
    }

    /// Bytes of the entries this build stored or looked up: what a rewritten file would hold.
    /// (The reused entries' bytes were added up as they were looked up: looking every key up
    /// again here was a large part of saving.)
    private static func liveBytes(_ entries: [UInt64: String], _ reused: (keys: Set<UInt64>, bytes: Int), in stored: StoredEntries) -> Int {
        // An entry both reused and stored again is written once, with its new value.
        let replaced = entries.keys.reduce(0) { total, key in reused.keys.contains(key) ? total + (stored.entrySize(for: key) ?? 0) : total }
        return bytes(of: entries) + reused.bytes - replaced
    }

    /// Appends `entries` to the file `stored` was read from, if it still holds exactly that;
    /// false (the file as it was) when it does not or the write fails.
    private func append(_ entries: [UInt64: String], to file: URL, holding stored: StoredEntries) -> Bool {
        let descriptor = open(file.path, O_WRONLY | O_APPEND)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, Int(info.st_size) == stored.size else { return false }
        var writer = EntryWriter(descriptor: descriptor)
        for (key, value) in entries { writer.add(key, value) }
        guard writer.finish() else {
            // A half-written entry would make the next build ignore the whole memo.
            _ = ftruncate(descriptor, off_t(stored.size))
            return false
        }
        return true
    }

    /// Writes the entries stored by this build and those it reused from `stored` to a temporary
    /// file renamed over the old one, a megabyte at a time so that a large site's memo is never
    /// held twice in memory. Reused entries are copied as they were stored.
    private func rewrite(_ file: URL, with entries: [UInt64: String], reused: Set<UInt64>, from stored: StoredEntries?) {
        let temporary = file.path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return }
        var writer = EntryWriter(descriptor: descriptor)
        writer.buffer += firstLine.utf8
        for (key, value) in entries { writer.add(key, value) }
        if let stored {
            for key in reused where entries[key] == nil { writer.copy(key, from: stored) }
        }
        let complete = writer.finish()
        close(descriptor)
        if complete { rename(temporary, file.path) } else { unlink(temporary) }
    }
}

/// Writes memo entries to a file descriptor through a buffer of about a megabyte.
private struct EntryWriter {
    let descriptor: Int32
    var buffer: [UInt8] = []
    /// False once a write failed.
    private(set) var complete = true

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    mutating func add(_ key: UInt64, _ value: String) {
        withUnsafeBytes(of: key.littleEndian) { buffer += $0 }
        withUnsafeBytes(of: UInt32(value.utf8.count).littleEndian) { buffer += $0 }
        var value = value
        value.withUTF8 { buffer += $0 }
        flushIfFull()
    }

    mutating func copy(_ key: UInt64, from stored: StoredEntries) {
        stored.appendEntry(for: key, to: &buffer)
        flushIfFull()
    }

    /// Writes what is buffered; true when every write succeeded.
    mutating func finish() -> Bool {
        flush()
        return complete
    }

    private mutating func flushIfFull() {
        if buffer.count >= 1 << 20 { flush() }
    }

    private mutating func flush() {
        let descriptor = descriptor
        complete = complete && buffer.withUnsafeBytes { FileIO.writeAll($0, to: descriptor) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A value of the previous build's memo, read from the memo's file when its text is needed.
struct MemoText: Sendable {
    fileprivate let entries: StoredEntries
    fileprivate let offset: Int

    /// The value.
    var text: String { entries.value(at: offset) }
}

/// A memo file as read: its bytes (mapped) and where each entry starts. Immutable once read, so
/// that lookups on any thread decode their values without a lock.
///
/// The format: `marquee-memo-2 PROGRAM\n`, then per entry the key (8 bytes), the value's length
/// (4 bytes, both little-endian) and the value's UTF-8. A key stored twice (appended by a later
/// build) has the later value.
private final class StoredEntries: Sendable {
    /// The key and length before each value.
    static let headerSize = 12
    private let bytes: Data
    /// Key → offset of the entry's value; its length is the four bytes before it.
    private let offsets: [UInt64: Int]

    /// The entries of `file`; none when it is missing, damaged, or does not start with `firstLine`
    /// (another format or program).
    init(file: URL, firstLine: String) {
        let data = Self.map(file) ?? (try? Data(contentsOf: file)) ?? Data()
        var offsets: [UInt64: Int] = [:]
        let complete = data.starts(with: firstLine.utf8) && data.withUnsafeBytes { bytes -> Bool in
            offsets.reserveCapacity(bytes.count / 512)
            var offset = firstLine.utf8.count
            while offset < bytes.count {
                guard offset + Self.headerSize <= bytes.count else { return false }
                let key = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self).littleEndian)
                offset += Self.headerSize
                guard length <= bytes.count - offset else { return false }
                offsets[key] = offset
                offset += length
            }
            return true
        }
        self.bytes = complete ? data : Data()
        self.offsets = complete ? offsets : [:]
    }

    /// The file mapped into memory, read-only, for as long as the entries live: a large site's
    /// memo is read at every rebuild and mostly left unread, and copying it into fresh memory
    /// was most of the markup stage of a one-item rebuild, while the other core waited. (A file
    /// shortened under its mapping would crash the reader: builds, which hold the site's lock,
    /// only ever append to a memo or rename a new one over it.)
    private static func map(_ file: URL) -> Data? {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        // Populated at once: the entries' headers are all read next.
        guard let start = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0), start != MAP_FAILED else { return nil }
        return Data(bytesNoCopy: start, count: size, deallocator: .custom { start, count in munmap(start, count) })
    }

    /// The file's size as read; 0 when it was missing or damaged.
    var size: Int { bytes.count }

    /// How many keys the file holds.
    var count: Int { offsets.count }

    /// Bytes the entry under `key` takes in the file, with its key and length.
    func entrySize(for key: UInt64) -> Int? {
        offsets[key].map { Self.headerSize + length(at: $0) }
    }

    /// True when the file can take `added` bytes more and still hold at least half live entries
    /// (`liveBytes` of them, counting the added ones).
    func isAppendable(liveBytes: Int, adding added: Int) -> Bool {
        size > 0 && size + added <= 2 * liveBytes
    }

    /// The length of the value at `offset`.
    fileprivate func length(at offset: Int) -> Int {
        bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset - 4, as: UInt32.self).littleEndian) }
    }

    /// Where the value stored under `key` starts.
    func offset(for key: UInt64) -> Int? {
        offsets[key]
    }

    /// The value that starts at `offset`.
    fileprivate func value(at offset: Int) -> String {
        let length = length(at: offset)
        return bytes.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + length]), as: UTF8.self) }
    }

    /// Appends the entry stored under `key` (key, length and value) as the file held it.
    func appendEntry(for key: UInt64, to buffer: inout [UInt8]) {
        guard let offset = offsets[key] else { return }
        let end = offset + length(at: offset)
        bytes.withUnsafeBytes { buffer += UnsafeRawBufferPointer(rebasing: $0[(offset - Self.headerSize)..<end]) }
    }
}
