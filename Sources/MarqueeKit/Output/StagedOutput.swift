import Foundation
import OrderedCollections

/// Writes a build into the output folder so that a build that fails or is killed leaves the
/// previous site as it was.
///
/// Files stream into a staging folder beside the output as writers produce them (so a build
/// never holds every page in memory); a file whose bytes match the one already in the output is
/// only noted. ``commit(outputHoldsPrevious:)`` then brings the output up to date in one of
/// three ways:
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
    /// The staging folder and the output, held open: files are written and compared by their
    /// paths inside them, so the kernel does not walk the folders above for each of them (a
    /// tenth of the file system's time in a C loop writing 10,000 pages on tmpfs). The output is
    /// nil when it did not exist as the build began: there is nothing to compare new files with
    /// (a first build, or one into an emptied folder).
    private let stagingFolder: OpenFolder, outputFolder: OpenFolder?
    private let token: String
    /// What is known of each file added with a record of its own: written to the staging folder,
    /// or found in the output with the same bytes, and its stamp, which the build state records.
    private struct Entry {
        var written: Bool
        var stamp: FileStamp
    }
    /// In the order the files were first added: the build state lists them so, and the next
    /// build's check of the output `stat`s them in that order, the order the file system made
    /// them in, which the kernel answers quicker than a scattered order.
    private let entries = Locked<OrderedDictionary<String, Entry>>([:])
    private let folders = Locked<Set<String>>([])
    /// The files of the output as the previous build recorded them: a rebuild keeps most of them
    /// by their place (``keepPrevious(_:ifDigest:)``), which takes no lock.
    let previous: OutputPaths<FileStamp>
    /// Which values made each file, as this build and the last remember them.
    private let makers: FileMakers
    /// Per place of `previous`: the digest of the values that made the file, when remembered
    /// (see ``FileMakers/digests(of:)``).
    private let madeFrom: [UInt64?]
    /// Per place of `previous`: whether the output's file is as recorded, as the caller found
    /// when it compared the output with the previous build's state (``BuildState/check(_:)``).
    private let untouchedFiles: [Bool]
    /// Per place of `previous`: what this build did with that path last, one of `Mark`.
    private let marks: PlaceMarks
    private enum Mark {
        static let notAdded: UInt8 = 0, keptAsRecorded: UInt8 = 1, entry: UInt8 = 2
    }
    /// The files added, worked out once all are (see ``resolved()``).
    private let resolution = Locked<Resolution?>(nil)
    private struct Resolution {
        var records: OutputPaths<FileStamp>
        /// Paths written to the staging folder.
        var written: [String]
        /// Paths whose records are not the previous build's.
        var recordedAnew: [String]
        /// Paths of the previous build's files that this build neither kept nor added.
        var removedPrevious: [String]
    }

    /// Changes of at most this many files, or of this share of the site, are applied in place.
    static let inPlaceLimit = (files: 32, share: 0.02)

    /// `previous` is what the last build recorded of the output's files (see
    /// ``keepPrevious(_:ifDigest:)``), `untouchedFiles` which of them the output still holds as
    /// recorded (by place in `previous`; nil when the output was not compared: none is kept),
    /// `madeFrom` the digests of the values that made them (by place, see
    /// ``FileMakers/digests(of:)``; nil: none is known, none is kept), and `makers` where this
    /// build's are remembered. Room for as many entries is made at once, instead of the table of
    /// files growing, and rehashing every path, while the writers wait for its lock.
    init(
        output: URL, previous: OutputPaths<FileStamp> = [:], untouchedFiles: [Bool]? = nil, madeFrom: [UInt64?]? = nil,
        makers: FileMakers = FileMakers()
    ) throws(BuildError) {
        entries.withLock { $0.reserveCapacity(previous.count) }
        self.previous = previous
        self.makers = makers
        // Values by place of another table than `previous` would be read at the wrong places:
        // not used.
        func byPlace<Value>(_ values: [Value]?, else fallback: Value) -> [Value] {
            values.flatMap { $0.count == previous.places.count ? $0 : nil } ?? Array(repeating: fallback, count: previous.places.count)
        }
        self.madeFrom = byPlace(madeFrom, else: nil)
        self.untouchedFiles = byPlace(untouchedFiles, else: false)
        marks = PlaceMarks(count: previous.places.count)
        self.output = output.standardizedFileURL
        token = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        staging = self.output.deletingLastPathComponent().appending(path: ".\(self.output.lastPathComponent).staging-\(token)")
        outputPrefix = self.output.path + "/"
        stagingPrefix = staging.path + "/"
        outputFolder = OpenFolder(self.output.path)
        try FileIO.makeFolders(staging.path)
        guard let stagingFolder = OpenFolder(staging.path) else { throw FileIO.failure(staging.path) }
        self.stagingFolder = stagingFolder
    }

    /// Every path added so far.
    var paths: [String] {
        var paths = Set(entries.withLock { $0.keys })
        for place in previous.places where marks[place] == Mark.keptAsRecorded {
            paths.insert(previous.path(at: place))
        }
        return Array(paths)
    }

    /// Adds a file; safe to call from several threads. A later file with the same path replaces
    /// an earlier one. `digest` is its maker's, remembered for ``OutputSet/reuse(_:digest:)``.
    func put(_ path: String, _ contents: Data, digest: UInt64? = nil) throws(BuildError) {
        let entry: Entry
        if let outputFolder, let info = FileIO.matching(path, contents, in: outputFolder) {
            entry = Entry(written: false, stamp: FileStamp(info))
        } else {
            try makeStagingFolder(holding: path)
            // Moves into the output (a rename, or the staging folder's) keep the stamp.
            entry = Entry(written: true, stamp: try FileIO.write(contents, to: path, in: stagingFolder))
        }
        add(path, entry)
        if let digest { makers.record(digest, madeFileAt: path, stamped: entry.stamp) }
    }

    /// Makes the folder that will hold `path` in the staging folder, once per folder.
    private func makeStagingFolder(holding path: String) throws(BuildError) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let folder = String(path[..<slash])
        if folders.withLock({ !$0.contains(folder) }) {
            try FileIO.makeFolders(folder, in: stagingFolder)
            _ = folders.withLock { $0.insert(folder) }
        }
    }

    private func add(_ path: String, _ entry: Entry) {
        let earlier = entries.withLock { $0.updateValue(entry, forKey: path) }
        if earlier?.written == true && !entry.written { unlink(stagingPrefix + path) }
        if let place = previous.place(of: path) { marks[place] = Mark.entry }
    }

    /// Keeps the output's file at `path` as it is, with the stamp the previous build recorded,
    /// when the file is untouched (see `untouchedFiles`) and values of `digest` made it (its
    /// maker knows it would come out the same); false otherwise. Safe to call from several
    /// threads, for different paths. (Here rather than in ``OutputSet``: reading ``previous``
    /// from another object retained its buffers on every call, from both cores.)
    func keepPrevious(_ path: String, ifDigest digest: UInt64) -> Bool {
        guard let place = previous.place(of: path), untouchedFiles[place], madeFrom[place] == digest else { return false }
        marks[place] = Mark.keptAsRecorded
        return true
    }

    /// After ``commit(outputHoldsPrevious:)``: every file's size and modification time (from when
    /// it was written or compared).
    func recorded() -> OutputPaths<FileStamp> {
        resolved().records
    }

    /// The paths whose records were not taken from the previous build's state (see
    /// ``keepPrevious(_:ifDigest:)``): the only ones whose records can differ from it.
    func recordedAnew() -> [String] {
        resolved().recordedAnew
    }

    /// The paths of ``previous``'s files that this build neither kept nor added: with
    /// ``recordedAnew()``, every path whose record differs from the previous build's.
    func removedPrevious() -> [String] {
        resolved().removedPrevious
    }

    /// The files added, once every writer is done: each path as it was added last (a file kept
    /// as recorded after being written is kept, and its staging copy removed).
    private func resolved() -> Resolution {
        resolution.withLock { known in
            if let known { return known }
            var entries = entries.withLock { $0 }
            var keptAfterAll: Set<String> = []
            var new = 0
            for (path, entry) in entries {
                guard let place = previous.place(of: path), previous.value(at: place) != nil else {
                    new += 1
                    continue
                }
                guard marks[place] == Mark.keptAsRecorded else { continue }
                keptAfterAll.insert(path)
                if entry.written { unlink(stagingPrefix + path) }
            }
            // Taken out at once (one by one, each removal would move the entries after it).
            if !keptAfterAll.isEmpty { entries.removeAll { keptAfterAll.contains($0.key) } }
            // The previous build's table, without the files neither kept nor added again, and with
            // the new records: no lookup per kept file, and the kept ones stay in their order.
            var records = previous
            records.reserveCapacity(previous.places.count + new)
            var removedPrevious: [String] = []
            for place in previous.places
            where previous.value(at: place) != nil && marks[place] == Mark.notAdded {
                removedPrevious.append(previous.path(at: place))
                records.set(nil, at: place)
            }
            for (path, entry) in entries { records[path] = entry.stamp }
            let resolution = Resolution(
                records: records, written: entries.filter(\.value.written).map(\.key), recordedAnew: Array(entries.keys),
                removedPrevious: removedPrevious)
            known = resolution
            return resolution
        }
    }

    /// Makes the output hold exactly the files added, then removes the staging folder. When
    /// `outputHoldsPrevious`, the output holds exactly ``previous``'s files (the caller's
    /// ``BuildState/check(_:)`` found no folder changed) and only those not added again are
    /// removed; otherwise the output is read for everything else it holds.
    func commit(outputHoldsPrevious: Bool) throws(BuildError) -> Result {
        let resolution = resolved()
        let files = resolution.records, written = resolution.written
        var result = Result()
        result.written = written.count
        result.unchanged = files.count - result.written
        let removed = outputHoldsPrevious ? resolution.removedPrevious : Self.strays(in: output.path, keeping: files)
        let outputExists = FileManager.default.fileExists(atPath: output.path)
        if outputExists && result.written == 0 && removed.isEmpty {
            discard()
            return result
        }
        let changes = result.written + removed.count
        let isSmall = changes <= Self.inPlaceLimit.files || Double(changes) <= Double(files.count) * Self.inPlaceLimit.share
        if outputExists && isSmall && !ChangeJournal.passesThroughLinks(written + removed, in: output) {
            let journal = ChangeJournal(output: output, staging: staging, moves: written.sorted(), removals: removed.sorted())
            try journal.apply()
            result.changes = (journal.moves, journal.removals)
            return result
        }
        do throws(BuildError) {
            let writtenPaths = Set(written)
            for (path, _) in files where !writtenPaths.contains(path) {
                try makeStagingFolder(holding: path)
                guard linkat(AT_FDCWD, outputPrefix + path, stagingFolder.descriptor, path, 0) == 0 else {
                    throw FileIO.failure(path, in: stagingFolder)
                }
            }
            try swap()
            result.changes = nil
        } catch {
            discard()
            throw error
        }
        return result
    }

    /// What the output at `path` holds besides `files`: any other entry (a file, a link), and
    /// every folder that holds none of `files` (made by hand, empty or not) with what is in it.
    static func strays(in path: String, keeping files: OutputPaths<FileStamp>) -> [String] {
        // Worked out at the first folder met: a first build finds no output at all.
        var folders: Set<String>?
        var strays: [String] = []
        FileIO.walk(path) { entry, type in
            let isStray: Bool
            if type == Int32(DT_DIR) {
                if folders == nil { folders = Set(BuildState.folders(holding: files.paths)) }
                isStray = !folders!.contains(entry)
            } else {
                isStray = files[entry] == nil
            }
            if isStray { strays.append(entry) }
        }
        return strays
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

/// A small number per place (0 at first), set and read from many threads. The places are spread
/// over many shards, each behind a lock of its own: with one lock for the whole table, taken
/// ten thousand times a rebuild, the cores kept waiting for each other.
private final class PlaceMarks: Sendable {
    private static let shardCount = 64
    private let shards: [Locked<[UInt8]>]

    init(count: Int) {
        shards = (0..<Self.shardCount).map { shard in
            Locked([UInt8](repeating: 0, count: (count + Self.shardCount - 1 - shard) / Self.shardCount))
        }
    }

    subscript(place: Int) -> UInt8 {
        get { shards[place % Self.shardCount].withLock { $0[place / Self.shardCount] } }
        set { shards[place % Self.shardCount].withLock { $0[place / Self.shardCount] = newValue } }
    }
}
