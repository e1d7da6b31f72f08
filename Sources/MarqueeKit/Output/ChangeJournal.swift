import Foundation

/// Applies a small change set to the output folder in place, so that an edit to one item costs
/// a few renames instead of a new copy of the whole site.
///
/// The moves (staged file → output) and removals are first written to a journal beside the
/// output (`.Site.journal`, complete or absent thanks to a rename). If the build is killed
/// while applying them, the next build (or `marquee serve`) finishes them before anything
/// else: every file in the output is always a complete file of either the previous or the new
/// site, and after recovery the site is the new one.
struct ChangeJournal: Codable {
    /// The output folder.
    var output: URL
    /// The staging folder holding the new files.
    var staging: URL
    /// Paths to move from the staging folder into the output.
    var moves: [String]
    /// Paths to delete from the output.
    var removals: [String]

    static func location(for output: URL) -> URL {
        output.deletingLastPathComponent().appending(path: ".\(output.lastPathComponent).journal")
    }

    /// Writes the journal, performs it, and removes it and the staging folder.
    func apply() throws(BuildError) {
        try record()
        try perform()
    }

    /// Writes the journal beside the output (after this, the change will happen even if the
    /// process dies). Written without `fsync` (which `Data.write(to:)` does): a killed process
    /// leaves its writes to the kernel, and waiting for the disk would be the larger part of a
    /// one-item rebuild. (Power loss is not guarded against: the staged
    /// pages are not synced either.)
    func record() throws(BuildError) {
        let location = Self.location(for: output)
        let draft = location.deletingLastPathComponent().appending(path: location.lastPathComponent + ".draft")
        do {
            try FileIO.write(JSONEncoder().encode(self), to: draft.path)
            guard rename(draft.path, location.path) == 0 else { throw FileIO.failure(location.path) }
        } catch {
            unlink(draft.path)
            try? FileManager.default.removeItem(at: staging)
            throw BuildError(file: location.path, "cannot write the change journal: \(error). The previous site was left as it was.")
        }
    }

    /// Moves and removes what is still to do; safe to run again after an interruption.
    func perform() throws(BuildError) {
        // On every core: a move that replaces a file frees the old one, which takes the file
        // system far longer than the rename itself, and the moves are independent.
        let stagingPath = staging.path, outputPath = output.path
        _ = try moves.concurrentMap { (path: String) throws(BuildError) in
            let source = stagingPath + "/" + path
            let target = outputPath + "/" + path
            if access(source, F_OK) != 0 { return }  // moved before an interruption
            try FileIO.makeFolders(String(target[..<target.lastIndex(of: "/")!]))
            guard rename(source, target) == 0 else { throw FileIO.failure(target) }
        }
        for path in removals {
            // A folder (one made by hand in the output) goes once it is empty: its own contents
            // are removed after it (removals are sorted), and then the folders they leave empty.
            if unlink(output.path + "/" + path) != 0 { rmdir(output.path + "/" + path) }
            // Remove folders the removal left empty (rmdir refuses non-empty ones).
            var folder = path
            while let slash = folder.lastIndex(of: "/") {
                folder = String(folder[..<slash])
                if rmdir(output.path + "/" + folder) != 0 { break }
            }
        }
        unlink(Self.location(for: output).path)
        removeStaging()
    }

    /// Removes the staging folder. Once its files are moved it holds only their folders: each is
    /// removed on its own, deepest first (Foundation's removal opened and listed every one of
    /// them), and Foundation's only when something else is left.
    private func removeStaging() {
        let folders = BuildState.folders(holding: moves).filter { !$0.isEmpty }.sorted { $0.utf8.count > $1.utf8.count }
        for folder in folders { rmdir(staging.path + "/" + folder) }
        if rmdir(staging.path) != 0 && errno != ENOENT { try? FileManager.default.removeItem(at: staging) }
    }

    /// True when the output holds a symbolic link (or anything but a folder) where one of the
    /// folders above `paths` should be: a move or removal there would act through the link on
    /// files that are not the site's, so the change is made by replacing the output whole.
    static func passesThroughLinks(_ paths: [String], in output: URL) -> Bool {
        var checked: Set<Substring> = []
        for path in paths {
            var end = path.endIndex
            while let slash = path[..<end].lastIndex(of: "/") {
                let folder = path[..<slash]
                guard checked.insert(folder).inserted else { break }
                var info = stat()
                if lstat(output.path + "/" + folder, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR { return true }
                end = slash
            }
        }
        return false
    }

    /// Finishes a journal left by a killed build, if there is one. A journal that names another
    /// output, a path that leaves it, or a path through a link is not followed: it was not
    /// written by a build of this output (a later build brings the output up to date anyway).
    static func recover(output: URL) {
        let location = location(for: output)
        guard let data = try? Data(contentsOf: location) else { return }
        guard let journal = try? JSONDecoder().decode(ChangeJournal.self, from: data),
              journal.output.standardizedFileURL.path == output.standardizedFileURL.path,
              journal.staging.deletingLastPathComponent().standardizedFileURL.path == output.deletingLastPathComponent().standardizedFileURL.path,
              journal.staging.lastPathComponent.hasPrefix(".\(output.lastPathComponent).staging-"),
              (journal.moves + journal.removals).allSatisfy(OutputSet.isSafe),
              !passesThroughLinks(journal.moves + journal.removals, in: output)
        else {
            unlink(location.path)
            return
        }
        try? journal.perform()
    }
}
