import Foundation

/// Digests (``StableHasher`` values) of large files that rarely change, remembered between
/// builds by the files' change stamps (``FileIO/changeStamp(of:)``: device, inode, size,
/// modification and change times; any write changes the change time, which no program can set
/// back). The theme's fonts are megabytes, and every build loads the theme, a no-op one too.
///
/// Kept through the build's cache API, in a ``BuildMemo`` of their own that outlives upgrades
/// of Marquee but not a change of the hash (``StableHasher/version``): the digests name the
/// fonts in the built site, and one of an older hash would make the site depend on what the
/// cache held.
struct FileDigestCache: Sendable {
    private let memo: BuildMemo

    /// The cache kept in `file` (nil: nothing is remembered), for digests of the hash of
    /// `hashVersion`.
    init(file: URL?, hashVersion: Int = StableHasher.version) {
        memo = BuildMemo(file: file, program: "file-digests-\(hashVersion)")
    }

    /// The digest of the file at `path` whose bytes `bytes` gives: remembered, if the file's
    /// stamp is the one remembered with it, and otherwise worked out (and remembered).
    func digest(of path: String, bytes: () throws(BuildError) -> Data) throws(BuildError) -> UInt64 {
        // Stamped before reading: a file changed while it is hashed is hashed again next time.
        guard let stamp = FileIO.changeStamp(of: path) else { return StableHasher.value(of: try bytes()) }
        var key = StableHasher("file-digest-1")
        key.combine(path)
        for number in stamp { key.combine(number) }
        if let remembered = memo.value(UInt64.self, for: key.value) { return remembered }
        let digest = StableHasher.value(of: try bytes())
        memo.store(digest, for: key.value)
        return digest
    }

    /// Writes the digests worked out since the cache was read.
    func save() {
        memo.save()
    }
}
