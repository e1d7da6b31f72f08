import Foundation

/// Writes a build into the output folder so that a build that fails or is killed leaves the
/// previous site as it was.
///
/// Files stream into a staging folder beside the output as writers produce them (so a build
/// never holds every page in memory); a file whose bytes match the one already in the output is
/// only noted. ``commit(existing:)`` then brings the output up to date in one of three ways:
///
/// - nothing changed: the output is left alone (modification times too);
/// - a few files changed (a typical edit): they are moved into the output, after a journal
///   listing the moves is written, so a build killed in the middle of the moves is finished by
///   the next one (see ``ChangeJournal``);
/// - otherwise: the unchanged files are hard-linked into the staging folder, which then
///   replaces the output by two renames.
final class StagedOutput: Sendable {
    /// What a commit did.
    struct Result: Sendable {
        /// Files written.
        var written = 0
        /// Files kept from the previous output.
        var unchanged = 0
        /// The paths moved into the output and removed from it in place; nil when the output
        /// folder was replaced whole.
        var changes: (moved: [String], removed: [String])? = ([], [])
    }

    /// The output folder.
    let output: URL
    /// Where new files are written until the commit.
    let staging: URL
    /// The two folders' paths with a trailing slash (read once: `URL.path` is not free).
    let outputPrefix: String, stagingPrefix: String
    private let token: String
    /// False when the output folder did not exist as the build began: there is nothing to
    /// compare new files with (a first build, or one into an emptied folder).
    private let outputExisted: Bool
    /// The output folder as it was when the build began, held open to look up the files a
    /// build keeps (before the commit, which may replace it); nil when it did not exist.
    let existingOutput: OpenFolder?
    /// What is known of each file added: written to the staging folder or kept from the output,
    /// and what the build state records of it.
    private struct Entry {
        var written: Bool
        var record: FileRecord
        /// False when the record is the previous build's, as ``keep(_:_:)`` was given it.
        var isNew = true
    }
    private let entries = Locked<[String: Entry]>([:])
    private let folders = Locked<Set<String>>([])

    /// Changes of at most this many files, or of this share of the site, are applied in place.
    static let inPlaceLimit = (files: 32, share: 0.02)

    /// `expectedFiles` is how many files the build will likely add (the last build's count):
    /// room for them is made at once, instead of the table of files growing, and rehashing
    /// every path, while the writers wait for its lock.
    init(output: URL, expectedFiles: Int = 0) throws(BuildError) {
        entries.withLock { $0.reserveCapacity(expectedFiles) }
        self.output = output.standardizedFileURL
        token = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        staging = self.output.deletingLastPathComponent().appending(path: ".\(self.output.lastPathComponent).staging-\(token)")
        outputPrefix = self.output.path + "/"
        stagingPrefix = staging.path + "/"
        outputExisted = access(self.output.path, F_OK) == 0
        existingOutput = outputExisted ? OpenFolder(self.output.path) : nil
        try FileIO.makeFolders(staging.path)
    }

    /// Every path added so far.
    var paths: [String] { entries.withLock { Array($0.keys) } }

    /// Adds a file; safe to call from several threads. A later file with the same path replaces
    /// an earlier one. `digest` is what ``BuildState`` records for ``OutputSet/reuse(_:digest:)``.
    func put(_ path: String, _ contents: Data, digest: UInt64? = nil) throws(BuildError) {
        if outputExisted, let info = FileIO.matching(outputPrefix + path, contents) {
            keep(path, FileRecord(stamp: FileStamp(info), digest: digest), isNew: true)
            return
        }
        let target = stagingPrefix + path
        let folder = String(target[..<target.lastIndex(of: "/")!])
        if folders.withLock({ !$0.contains(folder) }) {
            try FileIO.makeFolders(folder)
            _ = folders.withLock { $0.insert(folder) }
        }
        // Moves into the output (a rename, or the staging folder's) keep the stamp.
        let stamp = try FileIO.write(contents, to: target)
        entries.withLock { $0[path] = Entry(written: true, record: FileRecord(stamp: stamp, digest: digest)) }
    }

    /// Keeps the output's file at `path` as it is (its maker knows it would come out the same).
    /// `record` holds the output file's ``FileStamp``, as the caller just read it; `isNew` is
    /// false when it is the record the previous build's state holds.
    func keep(_ path: String, _ record: FileRecord, isNew: Bool = false) {
        let earlier = entries.withLock { $0.updateValue(Entry(written: false, record: record, isNew: isNew), forKey: path) }
        if earlier?.written == true { unlink(stagingPrefix + path) }
    }

    /// After ``commit(existing:)``: every file's size and modification time (from when it was written
    /// or compared) and the digests their makers gave.
    func recorded() -> [String: FileRecord] {
        entries.withLock { $0 }.mapValues(\.record)
    }

    /// The paths whose records were not taken from the previous build's state (see
    /// ``keep(_:_:isNew:)``): the only ones whose records can differ from it.
    func recordedAnew() -> [String] {
        entries.withLock { $0.filter(\.value.isNew).map(\.key) }
    }

    /// Makes the output hold exactly the files added, then removes the staging folder. `existing`
    /// is what the output holds when the caller knows it (any collection that can tell whether it
    /// holds a path quickly, such as a set or a dictionary's keys); otherwise the output is read.
    func commit(existing known: (some Collection<String>)?) throws(BuildError) -> Result {
        let files = entries.withLock { $0 }
        let written = files.filter(\.value.written).map(\.key)
        var result = Result()
        result.written = written.count
        result.unchanged = files.count - result.written
        let isRemoved = { (path: String) in files[path] == nil }
        let removed: [String]
        if let known {
            // Every file kept is in the output, so in `known`: when the kept files and the written
            // ones `known` holds are all of it, nothing is removed (no lookup per known file).
            let replaced = written.count(where: known.contains)
            removed = result.unchanged + replaced == known.count ? [] : known.filter(isRemoved)
        } else {
            removed = FileIO.regularFiles(under: output.path).filter(isRemoved)
        }
        let outputExists = FileManager.default.fileExists(atPath: output.path)
        if outputExists && result.written == 0 && removed.isEmpty {
            discard()
            return result
        }
        let changes = result.written + removed.count
        if outputExists && (changes <= Self.inPlaceLimit.files || Double(changes) <= Double(files.count) * Self.inPlaceLimit.share) {
            let journal = ChangeJournal(output: output, staging: staging, moves: written.sorted(), removals: removed.sorted())
            try journal.apply()
            result.changes = (journal.moves, journal.removals)
            return result
        }
        do throws(BuildError) {
            for (path, entry) in files where !entry.written {
                let target = stagingPrefix + path
                try FileIO.makeFolders(String(target[..<target.lastIndex(of: "/")!]))
                guard link(outputPrefix + path, target) == 0 else { throw FileIO.failure(target) }
            }
            try swap()
            result.changes = nil
        } catch {
            discard()
            throw error
        }
        return result
    }

    /// Removes the staging folder (after a failed build).
    func discard() {
        try? FileManager.default.removeItem(at: staging)
    }

    /// Replaces the output folder by the staging folder: two renames, undone if the second fails.
    private func swap() throws(BuildError) {
        let fileManager = FileManager.default
        let previous = output.deletingLastPathComponent().appending(path: ".\(output.lastPathComponent).previous-\(token)")
        do {
            if fileManager.fileExists(atPath: output.path) {
                try fileManager.moveItem(at: output, to: previous)
                do {
                    try fileManager.moveItem(at: staging, to: output)
                } catch {
                    try? fileManager.moveItem(at: previous, to: output)
                    throw error
                }
                try? fileManager.removeItem(at: previous)
            } else {
                try fileManager.moveItem(at: staging, to: output)
            }
        } catch {
            throw BuildError(file: output.path, "cannot write the site: \(error.localizedDescription). The previous site was left as it was.")
        }
    }
}
