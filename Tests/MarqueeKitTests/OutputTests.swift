import Foundation
import Testing
@testable import MarqueeKit

@Suite("Writing the output", .removesTemporaryFolders)
struct OutputTests {
    /// A site of `count` movies, big enough that one edit is a small share of its files.
    func site(movies count: Int, editing edited: Int? = nil) throws -> URL {
        let root = try TestSupport.makeSite(config: "title: Many\nsources:\n  - type: movies\n    path: m.json\n", texts: [:])
        try writeMovies(root, count: count, editing: edited)
        return root
    }

    func writeMovies(_ root: URL, count: Int, editing edited: Int? = nil) throws {
        let movies = (0..<count).map { index in
            #"{"Title": "Movie \#(index)", "Description": "About movie \#(index)\#(index == edited ? ", now edited" : "")."}"#
        }
        try "{\"movies\": [\(movies.joined(separator: ",\n"))]}".write(
            to: root.appending(path: "Content/m.json"), atomically: true, encoding: .utf8)
    }

    /// Inode and modification time of every file of the output, and of the folder itself.
    func identities(_ folder: URL) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for path in FileIO.regularFiles(under: folder.path).union([""]) {
            var info = stat()
            guard stat(folder.path + "/" + path, &info) == 0 else { continue }
            result[path] = [Int(info.st_ino), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
        }
        return result
    }

    func leftovers(_ root: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".Site.") }
    }

    @Test func aSmallEditRewritesOnlyItsPagesInPlace() async throws {
        let root = try site(movies: 300)
        let output = root.appending(path: "Site")
        let first = try await TestSupport.build(root)
        let before = identities(output)
        try writeMovies(root, count: 300, editing: 120)
        let report = try await TestSupport.build(root)
        let after = identities(output)
        let changed = Set(after.keys.filter { after[$0] != before[$0] })
        // The item's page and the gallery page that shows it; nothing else, and the output folder
        // itself was not replaced.
        #expect(changed == ["items/movie-120/index.html", "page/3/index.html"])
        #expect(after[""]?.first == before[""]?.first)
        #expect(report.filesWritten == 2 && report.files == first.files)
        #expect(try TestSupport.read(root, "items/movie-120/index.html").contains("now edited"))
        #expect(try leftovers(root).isEmpty)

        // Removing an item removes its page and its folder, still in place.
        try writeMovies(root, count: 299)
        _ = try await TestSupport.build(root)
        #expect(!FileManager.default.fileExists(atPath: output.appending(path: "items/movie-299").path))
        #expect(identities(output)[""]?.first == before[""]?.first)
        #expect(try leftovers(root).isEmpty)
    }

    /// Assets are kept by digest without being read back: a local image rewritten in place with
    /// its size and modification time kept is still noticed (by its change time) and processed
    /// again, and a theme asset edited in the output by hand is restored.
    @Test func assetsFollowTheirSourcesWithoutBeingReadBack() async throws {
        let root = try TestSupport.makeFixtureSite()
        _ = try await TestSupport.build(root)
        let source = root.appending(path: "Content/images/arrival.svg")
        func renditions() throws -> Set<String> {
            Set(try FileManager.default.contentsOfDirectory(atPath: root.appending(path: "Site/media").path).filter { $0.hasPrefix("arrival-") })
        }
        let first = try renditions()
        #expect(first.count == 9)
        let original = try Data(contentsOf: source)
        var before = stat()
        #expect(stat(source.path, &before) == 0)
        let edited = Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "Arrival", with: "ARRIVAL").utf8)
        #expect(edited != original && edited.count == original.count)
        // Rewritten in place (the same inode), as editors that keep hard links do.
        let handle = try FileHandle(forWritingTo: source)
        try handle.write(contentsOf: edited)
        try handle.close()
        // Its modification time set back to the nanosecond: only the change time tells.
        let times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, source.path, times, 0) == 0)
        var after = stat()
        #expect(stat(source.path, &after) == 0 && after.st_ino == before.st_ino && after.st_size == before.st_size)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        let report = try await TestSupport.build(root)
        // New renditions (their names hold the bytes' hash) and the pages showing them.
        let second = try renditions()
        #expect(second.count == 9 && second.isDisjoint(with: first))
        let key = try #require(second.first?.split(separator: "-")[1])
        #expect(try TestSupport.read(root, "items/arrival/index.html").contains("media/arrival-\(key)-"))
        #expect(report.filesWritten < 9 + 8, "\(report)")

        let license = root.appending(path: "Site/assets/fonts/LICENSE.txt")
        let licenseText = try Data(contentsOf: license)
        try Data("edited by hand".utf8).write(to: license)
        _ = try await TestSupport.build(root)
        #expect(try Data(contentsOf: license) == licenseText)
        // Nothing changed since: nothing is written.
        #expect(try await TestSupport.build(root).filesWritten == 0)
    }

    /// Rebuilds trust the recorded listing of the output only while none of its folders changed:
    /// a file or folder put into the site by hand is noticed and removed, with or without edits.
    @Test func filesAddedByHandAreRemovedByTheNextBuild() async throws {
        let root = try site(movies: 60)
        let output = root.appending(path: "Site")
        _ = try await TestSupport.build(root)
        // An item's own folder (only its page's check looks at it), a new folder and a new file
        // at the top, and an item's folder again, meeting an edit.
        let strays = ["items/movie-3/stray.txt", "new-folder/deep/file.txt", "extra.html", "items/movie-5/stray.txt"]
        for (round, stray) in strays.enumerated() {
            let good = TestSupport.snapshot(output)
            let file = output.appending(path: stray)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "stray".write(to: file, atomically: false, encoding: .utf8)
            // Odd rounds also edit an item, so the stray meets the in-place commit, not the no-op check.
            if round % 2 == 1 { try writeMovies(root, count: 60, editing: round) }
            _ = try await TestSupport.build(root)
            #expect(!FileManager.default.fileExists(atPath: file.path), "\(stray) was left in the site")
            if round % 2 == 0 { #expect(TestSupport.snapshot(output) == good) }
        }
        #expect(!FileManager.default.fileExists(atPath: output.appending(path: "new-folder").path))
    }

    /// Folders made by hand in the output (empty, or holding only folders) are removed too, with
    /// and without an edit to make; a folder of the build's is kept when only its stray contents go.
    @Test func foldersAddedByHandAreRemovedByTheNextBuild() async throws {
        let root = try site(movies: 60)
        let output = root.appending(path: "Site")
        _ = try await TestSupport.build(root)
        // Each folder made, and the first folder of its path that the build does not make.
        let strays = [
            ("items/made-by-hand", "items/made-by-hand"), ("nested/empty/folders", "nested"),
            ("items/movie-7/inner", "items/movie-7/inner"), ("items/by-hand/deeper", "items/by-hand"),
        ]
        for (round, (stray, madeByHand)) in strays.enumerated() {
            let good = TestSupport.snapshot(output)
            try FileManager.default.createDirectory(at: output.appending(path: stray), withIntermediateDirectories: true)
            if round % 2 == 1 { try writeMovies(root, count: 60, editing: round) }
            _ = try await TestSupport.build(root)
            #expect(!FileManager.default.fileExists(atPath: output.appending(path: madeByHand).path), "\(stray) was left in the site")
            if round % 2 == 0 { #expect(TestSupport.snapshot(output) == good) }
        }
        #expect(FileManager.default.fileExists(atPath: output.appending(path: "items/movie-7/index.html").path))
        // Nothing is left for a later build to find.
        let report = try await TestSupport.build(root)
        #expect(report.filesWritten == 0)
    }

    /// A page changed in the output by hand is made again by the next build, whether that build
    /// has an edit to make (then it keeps the other pages by their recorded stamps) or not.
    @Test func pagesEditedByHandAreRestored() async throws {
        let root = try site(movies: 60)
        let output = root.appending(path: "Site")
        _ = try await TestSupport.build(root)
        for (round, page) in ["items/movie-4/index.html", "items/movie-9/index.html"].enumerated() {
            let file = output.appending(path: page)
            let good = try Data(contentsOf: file)
            try Data("edited by hand".utf8).write(to: file)
            if round == 1 { try writeMovies(root, count: 60, editing: 20) }
            let report = try await TestSupport.build(root)
            #expect(try Data(contentsOf: file) == good, "\(page) was not restored")
            // Without an edit, nothing else is written.
            if round == 0 { #expect(report.filesWritten == 1) }
        }
    }

    @Test func aLargeChangeReplacesTheFolderWhole() async throws {
        let root = try site(movies: 100)
        let output = root.appending(path: "Site")
        _ = try await TestSupport.build(root)
        let before = identities(output)
        try "title: Renamed\nsources:\n  - type: movies\n    path: m.json\n".write(
            to: root.appending(path: "Content/site.yml"), atomically: true, encoding: .utf8)
        let report = try await TestSupport.build(root)
        #expect(report.filesWritten > 100)
        #expect(identities(output)[""]?.first != before[""]?.first)
        #expect(try TestSupport.read(root, "index.html").contains("Renamed"))
        #expect(try leftovers(root).isEmpty)
    }

    /// Applying a journal moves its files and removes the staging folder, also when that holds
    /// a file that is not among the moves (a page the build wrote and then kept after all).
    @Test func applyingAJournalRemovesItsStagingFolder() throws {
        let output = try TestSupport.temporaryFolder().appending(path: "Site")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        for withFileNotMoved in [false, true] {
            let staged = try StagedOutput(output: output)
            try staged.put("a/b/new.html", Data("new \(withFileNotMoved)".utf8))
            if withFileNotMoved { try staged.put("kept/after-all.html", Data("kept".utf8)) }
            try ChangeJournal(output: output, staging: staged.staging, moves: ["a/b/new.html"], removals: []).apply()
            #expect(!FileManager.default.fileExists(atPath: staged.staging.path), "with a file not moved: \(withFileNotMoved)")
            #expect(try String(contentsOf: output.appending(path: "a/b/new.html"), encoding: .utf8) == "new \(withFileNotMoved)")
        }
    }

    @Test func aJournalLeftByAKilledBuildIsFinishedByTheNextBuild() async throws {
        let root = try site(movies: 20)
        let output = root.appending(path: "Site")
        _ = try await TestSupport.build(root)
        let good = TestSupport.snapshot(output)
        // What a build killed right after writing its journal leaves behind.
        let staged = try StagedOutput(output: output)
        try staged.put("index.html", Data("new gallery".utf8))
        try staged.put("extra/new.txt", Data("new file".utf8))
        try ChangeJournal(output: output, staging: staged.staging, moves: ["extra/new.txt", "index.html"], removals: ["robots.txt"]).record()
        #expect(try leftovers(root).count == 2)  // the journal and the staging folder

        StagingCleanup.run(output: output)
        #expect(try TestSupport.read(root, "index.html") == "new gallery")
        #expect(try TestSupport.read(root, "extra/new.txt") == "new file")
        #expect(!FileManager.default.fileExists(atPath: output.appending(path: "robots.txt").path))
        #expect(try leftovers(root).isEmpty)

        // The next build brings the site back to what its inputs say.
        _ = try await TestSupport.build(root)
        #expect(TestSupport.snapshot(output) == good)
    }

    @Test func aRebuildRendersOnlyThePagesWhoseValuesChangedAndMatchesAFullBuild() async throws {
        let root = try site(movies: 120)
        let counter = PageCounter()
        var site = try Site.fromConfig(root: root)
        site.plugins.append(counter)
        _ = try await SiteBuilder(site: site).build()
        let all = counter.take()
        #expect(all.count > 120)

        try writeMovies(root, count: 120, editing: 7)
        site = try Site.fromConfig(root: root)
        site.plugins.append(counter)
        _ = try await SiteBuilder(site: site).build()
        // Only the edited item's page and the gallery page showing it were rendered again.
        #expect(counter.take() == ["index.html", "items/movie-7/index.html"])

        // The result is byte for byte what a build from nothing makes.
        let fresh = try TestSupport.temporaryFolder().appending(path: "Site")
        var clean = try Site.fromConfig(root: root, output: fresh)
        clean.plugins.append(PageCounter())
        _ = try await SiteBuilder(site: clean).build()
        #expect(TestSupport.snapshot(fresh) == TestSupport.snapshot(root.appending(path: "Site")))
    }
}
