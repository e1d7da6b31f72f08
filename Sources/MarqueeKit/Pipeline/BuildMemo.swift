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
    private let previous = Locked<[UInt64: String]?>(nil)
    private let current = Locked<[UInt64: String]>([:])

    /// A memo that starts empty and is never saved.
    public convenience init() { self.init(file: nil) }

    /// A memo read from and saved to `file` (read on the first lookup).
    init(file: URL?) {
        self.file = file
    }

    /// The value the previous build stored under `key`, if any.
    public func value(for key: UInt64) -> String? {
        let found = previous.withLock { table -> String? in
            if table == nil { table = file.map(Self.read) ?? [:] }
            return table![key]
        }
        if let found { current.withLock { $0[key] = found } }
        return found
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

    /// Writes the entries of this build (after a successful build), a megabyte at a time so
    /// that a large site's memo is never held twice in memory, to a temporary file renamed over
    /// the old one.
    func save() {
        guard let file else { return }
        let entries = current.withLock { $0 }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = file.path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return }
        var buffer: [UInt8] = Array(Self.magic.utf8)
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
        flush()
        close(descriptor)
        if complete { rename(temporary, file.path) } else { unlink(temporary) }
    }

    private static let magic = "marquee-memo-1\n"

    /// The entries of a memo file; an empty table when it is missing, of another version or damaged.
    static func read(_ file: URL) -> [UInt64: String] {
        guard let data = try? Data(contentsOf: file), data.starts(with: Array(magic.utf8)) else { return [:] }
        var table: [UInt64: String] = [:]
        let complete = data.withUnsafeBytes { bytes -> Bool in
            var offset = magic.utf8.count
            while offset < bytes.count {
                guard offset + 12 <= bytes.count else { return false }
                let key = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self).littleEndian)
                offset += 12
                guard length <= bytes.count - offset else { return false }
                table[key] = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
                offset += length
            }
            return true
        }
        return complete ? table : [:]
    }
}
