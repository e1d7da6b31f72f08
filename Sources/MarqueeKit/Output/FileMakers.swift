import Foundation

/// What the builds of a site remember, in the memo, of how each output file was made: under the
/// file's path and stamp (its size and modification time as made), its maker's digest (a
/// ``StableHasher`` value over everything the file was made from, see
/// ``OutputSet/reuse(_:digest:)``). A rebuild keeps a file without making it again when the
/// output still holds it as made and its maker gives the same digest.
///
/// The keys hold the build's environment too (settings, plugins, theme and program, see
/// ``BuildState/environment(of:)``): no file made in another is kept on its digest.
struct FileMakers: Sendable {
    private let memo: BuildMemo
    private let namespace: StableHasher

    /// Makers remembered in `memo`, for builds in `environment`.
    init(memo: BuildMemo, environment: String) {
        self.memo = memo
        var namespace = StableHasher("file-maker-1")
        namespace.combine(environment)
        self.namespace = namespace
    }

    /// None remembered, none kept: every file is made (a build without a previous one).
    init() {
        self.init(memo: BuildMemo(), environment: "")
    }

    /// The makers' digests of `files` (the last build's, with their stamps), by place; nil where
    /// none is remembered for the file with that stamp. Looked up all at once, before any file
    /// is made: one by one, from every core, the lookups would take turns at the memo's lock.
    func digests(of files: OutputPaths<FileStamp>) -> [UInt64?] {
        memo.values(UInt64.self, for: files.places.map { place in
            files.value(at: place).map { key(files.path(at: place), $0) } ?? 0
        })
    }

    /// Remembers that values of `digest` made the file at `path`, which now has `stamp`.
    func record(_ digest: UInt64, madeFileAt path: String, stamped stamp: FileStamp) {
        memo.store(digest, for: key(path, stamp))
    }

    /// The key of the file at `path` with `stamp`: a file rewritten since has another.
    private func key(_ path: String, _ stamp: FileStamp) -> UInt64 {
        var hasher = namespace
        hasher.combine(path)
        hasher.combine(Int(truncatingIfNeeded: stamp.size))
        hasher.combine(Int(truncatingIfNeeded: stamp.modified))
        return hasher.value
    }
}
