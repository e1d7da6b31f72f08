import Foundation

/// Results of expensive per-item work remembered from the previous build, keyed by a hash of
/// everything the work depends on (a ``StableHasher`` value), so that a rebuild after a small
/// edit redoes the work only for what changed. The built-in Markdown and layout plugins use it;
/// any plugin may.
///
/// Only pure results belong here: a value must be exactly what the work would produce again
/// from the same inputs, with no side effect skipped by reusing it. Entries not looked up or
/// stored during a build are dropped when it is saved, so the file does not grow.
public final class BuildMemo: Sendable {
    private let file: URL?
    /// The previous build's file, read on the first lookup.
    private let previous = Locked<StoredEntries?>(nil)
    /// Keys of ``previous`` looked up during this build, kept by ``save()``.
    private let used = Locked<Set<UInt64>>([])
    /// Values stored during this build.
    private let current = Locked<[UInt64: String]>([:])

    /// A memo that starts empty and is never saved.
    public convenience init() { self.init(file: nil) }

    /// A memo read from and saved to `file` (read on the first lookup).
    init(file: URL?) {
        self.file = file
    }

    /// The value the previous build stored under `key`, if any.
    public func value(for key: UInt64) -> String? {
        // Only finding the entry holds the lock; its text is decoded on the calling thread.
        guard let stored = storedEntries(), let value = stored.value(for: key) else { return nil }
        used.withLock { _ = $0.insert(key) }
        return value
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
            if stored == nil { stored = StoredEntries(file: file) }
            return stored
        }
    }

    /// Writes the entries of this build (after a successful build), a megabyte at a time so
    /// that a large site's memo is never held twice in memory, to a temporary file renamed over
    /// the old one. Entries reused from the previous file are copied as they were stored.
    func save() {
        guard let file else { return }
        let entries = current.withLock { $0 }
        let reused = used.withLock { $0 }
        let stored = previous.withLock { $0 }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = file.path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return }
        var buffer: [UInt8] = Array(StoredEntries.magic.utf8)
        var complete = true
        func flush() {
            complete = complete && buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written <= 0 { return false }
                    offset += written
                }
                return true
            }
            buffer.removeAll(keepingCapacity: true)
        }
        for (key, value) in entries {
            withUnsafeBytes(of: key.littleEndian) { buffer += $0 }
            withUnsafeBytes(of: UInt32(value.utf8.count).littleEndian) { buffer += $0 }
            var value = value
            value.withUTF8 { buffer += $0 }
            if buffer.count >= 1 << 20 { flush() }
        }
        if let stored {
            for key in reused where entries[key] == nil {
                stored.appendEntry(for: key, to: &buffer)
                if buffer.count >= 1 << 20 { flush() }
            }
        }
        flush()
        close(descriptor)
        if complete { rename(temporary, file.path) } else { unlink(temporary) }
    }
}

/// A memo file as read: its bytes and where each entry starts. Immutable once read, so that
/// lookups on any thread decode their values without a lock.
///
/// The format: `marquee-memo-1\n`, then per entry the key (8 bytes), the value's length
/// (4 bytes, both little-endian) and the value's UTF-8.
private final class StoredEntries: Sendable {
    static let magic = "marquee-memo-1\n"
    private let bytes: Data
    /// Key → offset of the entry's value; its length is the four bytes before it.
    private let offsets: [UInt64: Int]

    /// The entries of `file`; none when it is missing, of another version or damaged.
    init(file: URL) {
        let data = (try? Data(contentsOf: file)) ?? Data()
        var offsets: [UInt64: Int] = [:]
        let complete = data.starts(with: Self.magic.utf8) && data.withUnsafeBytes { bytes -> Bool in
            offsets.reserveCapacity(bytes.count / 512)
            var offset = Self.magic.utf8.count
            while offset < bytes.count {
                guard offset + 12 <= bytes.count else { return false }
                let key = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self).littleEndian)
                offset += 12
                guard length <= bytes.count - offset else { return false }
                offsets[key] = offset
                offset += length
            }
            return true
        }
        self.bytes = complete ? data : Data()
        self.offsets = complete ? offsets : [:]
    }

    private func length(at offset: Int) -> Int {
        bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset - 4, as: UInt32.self).littleEndian) }
    }

    func value(for key: UInt64) -> String? {
        guard let offset = offsets[key] else { return nil }
        let length = length(at: offset)
        return bytes.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + length]), as: UTF8.self) }
    }

    /// Appends the entry stored under `key` (key, length and value) as the file held it.
    func appendEntry(for key: UInt64, to buffer: inout [UInt8]) {
        guard let offset = offsets[key] else { return }
        let end = offset + length(at: offset)
        bytes.withUnsafeBytes { buffer += UnsafeRawBufferPointer(rebasing: $0[(offset - 12)..<end]) }
    }
}
