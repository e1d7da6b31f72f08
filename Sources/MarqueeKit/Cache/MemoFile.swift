import Foundation

/// A memo file as read: its bytes and where each key's value is in them.
///
/// The format: `marquee-memo-4 PROGRAM\n`, then the entries, each its key (8 bytes), its value's
/// length (4 bytes) and the value as ``MemoEncoder`` wrote it. Numbers are little-endian. Builds
/// only ever append entries or replace the file whole; a key stored twice has the later value.
struct MemoFile {
    static let headerSize = 12
    let bytes: [UInt8]
    /// Per entry: its key and where its value is in ``bytes``.
    let keys: [UInt64], ranges: [Range<Int>]
    /// The entry of each key.
    let index: [UInt64: Int]
    /// The file's size as read; 0 when it was missing or damaged.
    var size: Int { bytes.count }

    /// No entries.
    init() {
        self.init(bytes: [], keys: [], ranges: [], index: [:])
    }

    private init(bytes: [UInt8], keys: [UInt64], ranges: [Range<Int>], index: [UInt64: Int]) {
        self.bytes = bytes
        self.keys = keys
        self.ranges = ranges
        self.index = index
    }

    /// The entries of `file`; none when it is missing, damaged, or does not start with `firstLine`
    /// (another format or program).
    init(reading file: URL, firstLine: String) {
        guard let bytes = FileIO.bytes(of: file.path), bytes.starts(with: firstLine.utf8),
            let read = Self.entries(in: bytes, from: firstLine.utf8.count)
        else {
            self.init()
            return
        }
        self.init(bytes: bytes, keys: read.keys, ranges: read.ranges, index: read.index)
    }

    /// The entries of `bytes` from `start`; nil when an entry does not fit in them (a damaged file).
    private static func entries(in bytes: [UInt8], from start: Int) -> (keys: [UInt64], ranges: [Range<Int>], index: [UInt64: Int])? {
        var keys: [UInt64] = [], ranges: [Range<Int>] = [], index: [UInt64: Int] = [:]
        // A site's memo holds small values (40,000 entries in 1.5 MB for 10,000 items): room for
        // one entry per 32 bytes is made at once, so that the table is not rehashed as it grows.
        index.reserveCapacity((bytes.count - start) / 32)
        var offset = start
        while offset < bytes.count {
            guard bytes.count - offset >= headerSize else { return nil }
            let key = bytes.littleEndian(at: offset, bytes: 8)
            let length = Int(bytes.littleEndian(at: offset + 8, bytes: 4))
            offset += headerSize
            guard length <= bytes.count - offset else { return nil }
            // A key stored again by a later build: its later value.
            if let entry = index[key] {
                ranges[entry] = offset..<offset + length
            } else {
                index[key] = keys.count
                keys.append(key)
                ranges.append(offset..<offset + length)
            }
            offset += length
        }
        return (keys, ranges, index)
    }

    /// Appends an entry to `bytes`.
    static func append(_ key: UInt64, _ value: ArraySlice<UInt8>, to bytes: inout [UInt8]) {
        bytes.appendLittleEndian(key, bytes: 8)
        bytes.appendLittleEndian(value.count, bytes: 4)
        bytes.append(contentsOf: value)
    }

    /// Appends `added` (entries) to `file` if it still holds exactly what was read; false (the
    /// file as it was) when it does not or the write fails.
    func append(_ added: [UInt8], to file: URL) -> Bool {
        let descriptor = open(file.path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, Int(info.st_size) == size else { return false }
        guard FileIO.writeAll(added, to: descriptor) else {
            // A half-written entry would make the next build ignore the whole memo.
            _ = ftruncate(descriptor, off_t(size))
            return false
        }
        return true
    }
}
