import Foundation
import OrderedCollections
import Synchronization

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
    /// The previous build's file, mapped into memory on the first lookup (under this lock). Its
    /// entries note which of them this build looks up, for ``save()``.
    private let previous = Locked<StoredEntries?>(nil)
    /// Set once ``previous`` is mapped: lookups then read ``mapped`` without the lock, which
    /// thirty thousand lookups from every core otherwise take turns at.
    private let isMapped = Atomic<Bool>(false)
    /// ``previous``, once mapped; never changed after ``isMapped`` is set. Unretained: lookups
    /// that only read a value in place use it without retaining it (thirty thousand retains and
    /// releases of one object from both cores, whose count bounced between the cores' caches);
    /// ``previous`` holds it for as long as the memo lives. (A second copy on purpose: keeping
    /// only ``previous``, with a `Locked<Void>` for the mapping, made ThreadSanitizer report the
    /// empty value's accesses as races.)
    nonisolated(unsafe) private var mapped: Unmanaged<StoredEntries>?
    /// Values stored during this build, in the order they were first stored: the file lists them
    /// so, and a rebuild, which looks the items' records and plans up in the items' order, finds
    /// them one after another instead of scattered across the file's megabytes.
    private let current = Locked<OrderedDictionary<UInt64, String>>([:])

    /// A memo that starts empty and is never saved.
    public convenience init() { self.init(file: nil) }

    /// A memo read from and saved to `file` (mapped on the first lookup); entries written by
    /// another `program` are not read.
    init(file: URL?, program: String = BuildState.executableStamp) {
        self.file = file
        firstLine = "marquee-memo-3 \(program)\n"
    }

    /// Where the builds of `site` keep their memo, beside their build state.
    static func file(for site: Site) -> URL {
        BuildState.file(for: site).deletingPathExtension().appendingPathExtension("memo")
    }

    /// The value the previous build stored under `key`, if any.
    public func value(for key: UInt64) -> String? {
        withRememberedBytes(for: key) { String(decoding: $0, as: UTF8.self) }
    }

    /// Where the previous build's value under `key` is, if it stored one: its text is read only
    /// when asked for (a rebuild looks up every item's HTML, and shows few of them).
    func rememberedText(for key: UInt64) -> MemoText? {
        guard let stored = storedEntries(), let entry = stored.entry(for: key) else { return nil }
        stored.noteUsed(entry)
        return MemoText(entries: stored, offset: stored.offset(of: entry))
    }

    /// What `read` makes of the UTF-8 of the previous build's value under `key`, read in place
    /// (no string is made); nil when there is no such value.
    func withRememberedBytes<Result>(for key: UInt64, _ read: (UnsafeBufferPointer<UInt8>) -> Result?) -> Result? {
        guard let entries = mapIfNeeded() else { return nil }
        return entries._withUnsafeGuaranteedRef { stored in
            guard let entry = stored.entry(for: key) else { return nil }
            stored.noteUsed(entry)
            return stored.withValue(at: stored.offset(of: entry), read)
        }
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

    /// Maps the previous build's file now (it is otherwise mapped at the first lookup, while
    /// lookups from other cores wait for it): a build calls this beside work that looks nothing up.
    func prepare() {
        _ = storedEntries()
    }

    private func storedEntries() -> StoredEntries? {
        mapIfNeeded()?.takeUnretainedValue()
    }

    /// ``mapped``, after mapping the previous build's file if no lookup has yet; nil when the
    /// memo has no file.
    private func mapIfNeeded() -> Unmanaged<StoredEntries>? {
        if isMapped.load(ordering: .acquiring) { return mapped }
        guard let file else { return nil }
        return previous.withLock { stored in
            if stored == nil {
                let entries = StoredEntries(file: file, firstLine: firstLine)
                stored = entries
                mapped = Unmanaged.passUnretained(entries)
                isMapped.store(true, ordering: .releasing)
            }
            return mapped
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
        let stored = previous.withLock { $0 }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        if let stored, stored.isAppendable(liveBytes: Self.liveBytes(entries, in: stored), adding: Self.bytes(of: entries)),
            append(entries, to: file, holding: stored)
        {
            return
        }
        rewrite(file, with: entries, from: stored)
    }

    /// Bytes that `entries` take in the file.
    private static func bytes(of entries: OrderedDictionary<UInt64, String>) -> Int {
        entries.values.reduce(0) { $0 + StoredEntries.headerSize + $1.utf8.count }
    }

    /// Bytes of the entries this build stored or looked up: what a rewritten file would hold.
    private static func liveBytes(_ entries: OrderedDictionary<UInt64, String>, in stored: StoredEntries) -> Int {
        // An entry both reused and stored again is written once, with its new value.
        let replaced = entries.keys.reduce(0) { total, key in
            guard let entry = stored.entry(for: key), stored.wasUsed(entry) else { return total }
            return total + stored.size(of: entry)
        }
        return bytes(of: entries) + stored.usedBytes() - replaced
    }

    /// Appends `entries` to the file `stored` was read from, if it still holds exactly that;
    /// false (the file as it was) when it does not or the write fails.
    private func append(_ entries: OrderedDictionary<UInt64, String>, to file: URL, holding stored: StoredEntries) -> Bool {
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
    private func rewrite(_ file: URL, with entries: OrderedDictionary<UInt64, String>, from stored: StoredEntries?) {
        FileIO.replace(file.path) { descriptor in
            var writer = EntryWriter(descriptor: descriptor)
            writer.startFile(firstLine: firstLine)
            for (key, value) in entries { writer.add(key, value) }
            if let stored {
                for entry in stored.usedEntries() where entries[stored.key(of: entry)] == nil { writer.copy(entry, from: stored) }
            }
            return writer.finishWithIndex()
        }
    }
}

/// Writes memo entries to a file descriptor through a buffer of about a megabyte.
private struct EntryWriter {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    /// False once a write failed.
    private(set) var complete = true
    /// Where the next byte goes, counted from where the writer started.
    private var position = 0
    /// Where the index's offset goes, right after the first line; nil when the writer appends to
    /// a file (which has its index already, and keeps no other).
    private var indexOffsetField: Int?
    /// The entries written, for the index (see ``StoredEntries``).
    private var keys: [UInt64] = [], offsets: [UInt64] = [], lengths: [UInt32] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Starts a new file: its first line, then room for the index's offset.
    mutating func startFile(firstLine: String) {
        append(firstLine.utf8)
        indexOffsetField = position
        append(repeatElement(0, count: StoredEntries.indexOffsetSize))
    }

    mutating func add(_ key: UInt64, _ value: String) {
        var value = value
        value.withUTF8 { value in
            note(key, length: value.count)
            withUnsafeBytes(of: key.littleEndian) { append($0) }
            withUnsafeBytes(of: UInt32(value.count).littleEndian) { append($0) }
            append(value)
        }
        flushIfFull()
    }

    mutating func copy(_ entry: Int, from stored: StoredEntries) {
        note(stored.key(of: entry), length: stored.size(of: entry) - StoredEntries.headerSize)
        let before = buffer.count
        stored.append(entry, to: &buffer)
        position += buffer.count - before
        flushIfFull()
    }

    /// Writes what is buffered; true when every write succeeded.
    mutating func finish() -> Bool {
        flush()
        return complete
    }

    /// Writes the index of the entries written since ``startFile(firstLine:)``, and its offset
    /// after the first line; true when every write succeeded.
    mutating func finishWithIndex() -> Bool {
        guard let indexOffsetField else { return false }
        let indexOffset = UInt64(position)
        withUnsafeBytes(of: UInt64(keys.count).littleEndian) { append($0) }
        for key in keys { withUnsafeBytes(of: key.littleEndian) { append($0) } }
        for offset in offsets { withUnsafeBytes(of: offset.littleEndian) { append($0) } }
        for length in lengths { withUnsafeBytes(of: length.littleEndian) { append($0) } }
        flush()
        let written = withUnsafeBytes(of: indexOffset.littleEndian) { pwrite(descriptor, $0.baseAddress, $0.count, off_t(indexOffsetField)) }
        return complete && written == StoredEntries.indexOffsetSize
    }

    private mutating func note(_ key: UInt64, length: Int) {
        guard indexOffsetField != nil else { return }
        keys.append(key)
        offsets.append(UInt64(position + StoredEntries.headerSize))
        lengths.append(UInt32(length))
    }

    private mutating func append(_ bytes: some Sequence<UInt8>) {
        let before = buffer.count
        buffer += bytes
        position += buffer.count - before
    }

    private mutating func flushIfFull() {
        if buffer.count >= 1 << 20 { flush() }
    }

    private mutating func flush() {
        let descriptor = descriptor
        complete = complete && FileIO.writeAll(buffer, to: descriptor)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A value of the previous build's memo, or a part of one, read from the memo's file when its
/// text is needed.
struct MemoText: Sendable {
    fileprivate let entries: StoredEntries
    fileprivate let offset: Int
    /// The length of a part; nil for a whole value, whose length the file holds before it (read
    /// there, beside the text, rather than from the index: a rebuild makes one of these for
    /// every item's HTML and reads few).
    private let partLength: Int?

    fileprivate init(entries: StoredEntries, offset: Int, partLength: Int? = nil) {
        self.entries = entries
        self.offset = offset
        self.partLength = partLength
    }

    /// Its length in UTF-8 bytes.
    var count: Int { partLength ?? entries.length(at: offset) }

    /// The value.
    var text: String { withUTF8 { String(decoding: $0, as: UTF8.self) } }

    /// Calls `body` with the value's UTF-8, in place.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try entries.withBytes(at: offset, count: count, body)
    }

    /// The part of the value at `range` of its UTF-8 (in bounds: checked).
    func part(_ range: Range<Int>) -> MemoText {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        return MemoText(entries: entries, offset: offset + range.lowerBound, partLength: range.count)
    }
}

/// A memo file as read: its bytes (mapped), its entries (numbered in the order the file first
/// holds their keys) and which of them this build looked up. Immutable once read but for those
/// marks, which are atomic, so that lookups on any thread find and decode values without a lock.
///
/// The format: `marquee-memo-3 PROGRAM\n`; where the index starts (8 bytes); the entries, each
/// its key (8 bytes), its value's length (4 bytes) and the value's UTF-8; the index of those
/// entries: their count (8 bytes), then their keys (8 bytes each), where their values start (8
/// bytes each) and the values' lengths (4 bytes each); then the entries appended by later
/// builds, as before the index. Numbers are little-endian. A key stored twice (appended by a
/// later build) has the later value.
///
/// The index is written with the file (which is only ever replaced whole or appended to), so
/// that reading the file takes the index in one run and walks only the appended entries, rather
/// than every entry's header scattered across the file's megabytes of values.
private final class StoredEntries: @unchecked Sendable {
    /// The key and length before each value.
    static let headerSize = 12
    /// The index's offset after the first line.
    static let indexOffsetSize = 8
    /// Bytes of the index per entry: its key, its value's offset and its value's length.
    static let indexBytesPerEntry = 8 + 8 + 4
    /// The file's bytes: mapped, or read into memory this object owns when the file cannot be
    /// mapped; empty when the file was missing or damaged. (Read through a pointer: each
    /// `Data.withUnsafeBytes` had the runtime check the data's storage for exclusive access,
    /// four checks per lookup.)
    private let bytes: UnsafeRawBufferPointer
    private let isMapped: Bool
    /// Per entry: its key, the offset of its value and the value's length (also the four bytes
    /// before the value: kept here too, so that adding up the bytes of the entries a build used
    /// does not read the file at thirty thousand places).
    private let keys: [UInt64], offsets: [Int], lengths: [UInt32]
    private let index: KeyIndex
    /// One byte per entry, set to 1 when this build looks the entry up. (Bytes written with a
    /// plain store, not bits set with an atomic OR: both cores mark entries, and an OR on a cache
    /// line the other core holds stalled each lookup for a few hundred nanoseconds.)
    private let used: UnsafeMutablePointer<Atomic<UInt8>>

    /// The entries of `file`; none when it is missing, damaged, or does not start with `firstLine`
    /// (another format or program).
    init(file: URL, firstLine: String) {
        let mapped = Self.map(file)
        let contents = mapped ?? Self.read(file)
        isMapped = mapped != nil
        let read = contents.flatMap { $0.starts(with: firstLine.utf8) ? Self.entries(in: $0, from: firstLine.utf8.count) : nil }
        if read == nil, let contents { Self.release(contents, isMapped: isMapped) }
        bytes = read == nil ? UnsafeRawBufferPointer(start: nil, count: 0) : contents!
        keys = read?.keys ?? []
        offsets = read?.offsets ?? []
        lengths = read?.lengths ?? []
        index = read?.index ?? KeyIndex(capacity: 0)
        used = .allocate(capacity: keys.count)
        for entry in 0..<keys.count { (used + entry).initialize(to: Atomic(0)) }
    }

    /// The entries of a memo file's `bytes` from `start` (after its first line): those of the
    /// index, then those appended after it; nil when the index or an entry does not fit in the
    /// file (a damaged file).
    private static func entries(
        in bytes: UnsafeRawBufferPointer, from start: Int
    ) -> (keys: [UInt64], offsets: [Int], lengths: [UInt32], index: KeyIndex)? {
        guard start + indexOffsetSize <= bytes.count else { return nil }
        func number<Number: FixedWidthInteger>(at offset: Int, as: Number.Type) -> Number {
            Number(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Number.self))
        }
        let firstEntry = start + indexOffsetSize
        let indexStart = Int(truncatingIfNeeded: number(at: start, as: UInt64.self))
        guard indexStart >= firstEntry, indexStart <= bytes.count - 8 else { return nil }
        let count = Int(truncatingIfNeeded: number(at: indexStart, as: UInt64.self))
        let keysStart = indexStart + 8
        guard count >= 0, count <= (bytes.count - keysStart) / indexBytesPerEntry else { return nil }
        let offsetsStart = keysStart + 8 * count, lengthsStart = offsetsStart + 8 * count
        // Locals, not a closure's captured variables: each captured array passed to the index
        // was retained and released, thirty thousand times on every rebuild.
        var keys: [UInt64] = [], offsets: [Int] = [], lengths: [UInt32] = []
        keys.reserveCapacity(count)
        offsets.reserveCapacity(count)
        lengths.reserveCapacity(count)
        var index = KeyIndex(capacity: count)
        for entry in 0..<count {
            let offset = Int(truncatingIfNeeded: number(at: offsetsStart + 8 * entry, as: UInt64.self))
            let length = number(at: lengthsStart + 4 * entry, as: UInt32.self)
            // Each value inside the indexed part of the file, after a header of its own.
            guard offset >= firstEntry + headerSize, offset <= indexStart, Int(length) <= indexStart - offset else { return nil }
            keys.append(number(at: keysStart + 8 * entry, as: UInt64.self))
            offsets.append(offset)
            lengths.append(length)
            // The index lists each key once: the file's writer took them from one dictionary.
            index.add(entry, keys: keys)
        }
        var offset = lengthsStart + 4 * count
        while offset < bytes.count {
            guard offset + headerSize <= bytes.count else { return nil }
            let key = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self).littleEndian)
            offset += headerSize
            guard length <= bytes.count - offset else { return nil }
            if let entry = index.find(key, in: keys) {
                offsets[entry] = offset
                lengths[entry] = UInt32(length)
            } else {
                keys.append(key)
                offsets.append(offset)
                lengths.append(UInt32(length))
                index.add(keys.count - 1, keys: keys)
            }
            offset += length
        }
        return (keys, offsets, lengths, index)
    }

    deinit {
        used.deinitialize(count: keys.count)
        used.deallocate()
        if bytes.baseAddress != nil { Self.release(bytes, isMapped: isMapped) }
    }

    /// The file mapped into memory, read-only, for as long as the entries live: a large site's
    /// memo is read at every rebuild and mostly left unread, and copying it into fresh memory
    /// was most of the markup stage of a one-item rebuild, while the other core waited. (A file
    /// shortened under its mapping would crash the reader: builds, which hold the site's lock,
    /// only ever append to a memo or rename a new one over it.)
    private static func map(_ file: URL) -> UnsafeRawBufferPointer? {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return nil }
        let size = Int(info.st_size)
        // Populated at once: the index and the values looked up are spread over the file, and
        // leaving the pages to fault in as read was no quicker.
        guard let start = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0), start != MAP_FAILED else { return nil }
        return UnsafeRawBufferPointer(start: start, count: size)
    }

    /// The file read into memory (for a file that cannot be mapped); nil when it cannot be read
    /// or is empty.
    private static func read(_ file: URL) -> UnsafeRawBufferPointer? {
        guard let data = try? Data(contentsOf: file), !data.isEmpty else { return nil }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 8)
        data.copyBytes(to: copy)
        return UnsafeRawBufferPointer(copy)
    }

    /// Gives back what ``map(_:)`` or ``read(_:)`` returned.
    private static func release(_ bytes: UnsafeRawBufferPointer, isMapped: Bool) {
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
        } else {
            bytes.deallocate()
        }
    }

    /// The file's size as read; 0 when it was missing or damaged.
    var size: Int { bytes.count }

    /// The entry stored under `key`, if any.
    func entry(for key: UInt64) -> Int? {
        index.find(key, in: keys)
    }

    func key(of entry: Int) -> UInt64 { keys[entry] }

    /// Where the value of `entry` starts.
    func offset(of entry: Int) -> Int { offsets[entry] }

    /// Bytes `entry` takes in the file, with its key and length.
    func size(of entry: Int) -> Int { Self.headerSize + Int(lengths[entry]) }

    /// Marks `entry` as looked up by this build.
    func noteUsed(_ entry: Int) {
        // A mark already set (a key looked up by several stages) spares the cache line a write.
        if used[entry].load(ordering: .relaxed) == 0 { used[entry].store(1, ordering: .relaxed) }
    }

    /// True when this build looked `entry` up.
    func wasUsed(_ entry: Int) -> Bool {
        used[entry].load(ordering: .relaxed) != 0
    }

    /// The entries this build looked up, in file order.
    func usedEntries() -> [Int] {
        var entries: [Int] = []
        forEachUsedEntry { entries.append($0) }
        return entries
    }

    /// Bytes the entries this build looked up take in the file.
    func usedBytes() -> Int {
        var total = 0
        forEachUsedEntry { total += size(of: $0) }
        return total
    }

    private func forEachUsedEntry(_ body: (Int) -> Void) {
        for entry in 0..<keys.count where used[entry].load(ordering: .relaxed) != 0 { body(entry) }
    }

    /// True when the file can take `added` bytes more and still hold at least half live entries
    /// (`liveBytes` of them, counting the added ones).
    func isAppendable(liveBytes: Int, adding added: Int) -> Bool {
        size > 0 && size + added <= 2 * liveBytes
    }

    /// The length of the value at `offset`.
    fileprivate func length(at offset: Int) -> Int {
        Int(bytes.loadUnaligned(fromByteOffset: offset - 4, as: UInt32.self).littleEndian)
    }

    /// Calls `body` with the UTF-8 of the value that starts at `offset`.
    fileprivate func withValue<Result>(at offset: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withBytes(at: offset, count: length(at: offset), body)
    }

    /// Calls `body` with the `count` bytes at `offset`.
    fileprivate func withBytes<Result>(at offset: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]).assumingMemoryBound(to: UInt8.self))
    }

    /// Appends `entry` (key, length and value) as the file holds it.
    func append(_ entry: Int, to buffer: inout [UInt8]) {
        let offset = offsets[entry]
        buffer += UnsafeRawBufferPointer(rebasing: bytes[(offset - Self.headerSize)..<offset + Int(lengths[entry])])
    }
}

/// Finds a memo entry by its key: open addressing over the entries' numbers, placed by the key's
/// bits (mixed by one multiply, keys being hashes already). Cheaper than a dictionary, which
/// hashes every key again with SipHash.
private struct KeyIndex {
    /// Entry number + 1 per slot (0: empty); at most half the slots are taken.
    private var slots: [Int32]
    private var count = 0
    private var shift: UInt64

    init(capacity: Int) {
        var bits: UInt64 = 4
        while 1 << bits < capacity * 2 { bits += 1 }
        slots = Array(repeating: 0, count: 1 << bits)
        shift = 64 - bits
    }

    /// Seeded (Swift's `Hasher`): keys are hashes of descriptions, which a hostile feed could
    /// choose to fall on one slot if the slot were worked out from the key alone.
    private func home(of key: UInt64) -> Int {
        var hasher = Hasher()
        hasher.combine(key)
        return Int(truncatingIfNeeded: UInt64(bitPattern: Int64(hasher.finalize())) >> shift)
    }

    /// The entry holding `key` among `keys` (each entry's key), if any.
    func find(_ key: UInt64, in keys: [UInt64]) -> Int? {
        var slot = home(of: key)
        while slots[slot] != 0 {
            let entry = Int(slots[slot]) - 1
            if keys[entry] == key { return entry }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Adds entry number `entry`, whose key is `keys[entry]` (and not in the index yet).
    mutating func add(_ entry: Int, keys: [UInt64]) {
        place(entry, key: keys[entry])
        count += 1
        guard count * 2 > slots.count else { return }
        // Full: double the slots and place every entry again.
        slots = Array(repeating: 0, count: slots.count * 2)
        shift -= 1
        for (entry, key) in keys[..<count].enumerated() { place(entry, key: key) }
    }

    private mutating func place(_ entry: Int, key: UInt64) {
        var slot = home(of: key)
        while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = Int32(entry + 1)
    }
}
