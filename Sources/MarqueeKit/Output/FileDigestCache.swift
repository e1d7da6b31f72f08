import Foundation

/// Digests (``StableHasher`` values) of large files that rarely change, remembered between
/// builds by the files' change stamps (``FileIO/changeStamp(of:)``: device, inode, size,
/// modification and change times; any write changes the change time, which no program can set
/// back). The theme's fonts are megabytes, and every build loads the theme,
/// a no-op one too.
///
/// Kept in one small text file, `digest stamp… path` per line after a first line naming the
/// hash's version (``StableHasher/version``), rewritten whole (``FileIO/replace(_:with:)``)
/// when a digest was added; a missing or damaged file, or one of another version, is an
/// empty cache. (The digests name the fonts in the built site: one of an older hash kept
/// through an upgrade would make the site depend on what the cache held.)
final class FileDigestCache: Sendable {
    private let file: URL?
    private let known: [String: (stamp: [Int], digest: UInt64)]
    private let added = Locked<[String: (stamp: [Int], digest: UInt64)]>([:])

    /// The file's first line.
    private static let firstLine = "marquee-file-digests \(StableHasher.version)\n"

    /// The cache kept in `file` (nil: nothing is remembered).
    init(file: URL?) {
        self.file = file
        var known: [String: (stamp: [Int], digest: UInt64)] = [:]
        if let file, let text = try? String(contentsOf: file, encoding: .utf8), text.hasPrefix(Self.firstLine) {
            for line in text.dropFirst(Self.firstLine.count).split(separator: "\n") {
                let fields = line.split(separator: " ", maxSplits: 8, omittingEmptySubsequences: false)
                guard fields.count == 9, let digest = UInt64(fields[0], radix: 16) else { continue }
                let stamp = fields[1...7].compactMap { Int($0) }
                guard stamp.count == 7 else { continue }
                known[String(fields[8])] = (stamp, digest)
            }
        }
        self.known = known
    }

    /// The digest of the file at `path` whose bytes `bytes` gives: remembered, if the file's
    /// stamp is the one remembered with it, and otherwise worked out (and remembered).
    func digest(of path: String, bytes: () throws(BuildError) -> Data) throws(BuildError) -> UInt64 {
        // Stamped before reading: a file changed while it is hashed is hashed again next time.
        let stamp = FileIO.changeStamp(of: path)
        if let stamp, let remembered = known[path], remembered.stamp == stamp { return remembered.digest }
        let digest = StableHasher.value(of: try bytes())
        if let stamp { added.withLock { $0[path] = (stamp, digest) } }
        return digest
    }

    /// Writes the cache if a digest was added since it was read.
    func save() {
        let added = added.withLock { $0 }
        guard let file, !added.isEmpty else { return }
        var lines = Self.firstLine
        for (path, entry) in known.merging(added, uniquingKeysWith: { _, new in new }).sorted(by: { $0.key < $1.key })
        where !path.contains("\n") {
            lines += StableHash.hexDigits(entry.digest) + " " + entry.stamp.map(String.init).joined(separator: " ") + " " + path + "\n"
        }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        FileIO.replace(file.path, withText: lines)
    }
}
