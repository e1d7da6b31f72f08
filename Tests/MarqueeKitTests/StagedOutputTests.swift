import Foundation
import Testing
@testable import MarqueeKit

@Suite("Staged output", .removesTemporaryFolders)
struct StagedOutputTests {
    /// Files kept by their place in the previous build's table and files added resolve to what
    /// was done last with each path: a file written then kept is kept (its staging copy removed),
    /// one kept then written is the new one; a file neither kept nor added is removed.
    @Test func keptAndAddedFilesResolveToTheLastOfEach() throws {
        let folder = try TestSupport.temporaryFolder()
        let output = folder.appending(path: "Site"), memoFile = folder.appending(path: "site.memo")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        // The makers as a build remembers them: read from the last build's memo, saved for the next.
        func makers() -> (FileMakers, BuildMemo) {
            let memo = BuildMemo(file: memoFile)
            return (FileMakers(memo: memo, environment: "e"), memo)
        }
        var previous = OutputPaths<FileStamp>()
        let (made, madeMemo) = makers()
        for name in ["a.html", "b.html", "c.html"] {
            try Data("old \(name)".utf8).write(to: output.appending(path: name))
            previous[name] = FileStamp(OpenFolder(output.path)!.status(of: name)!)
            made.record(1, madeFileAt: name, stamped: previous[name]!)
        }
        madeMemo.save()
        // Which files are untouched, as a build's check of the output finds them.
        func untouched(_ files: OutputPaths<FileStamp>) throws -> [Bool] {
            try #require(BuildState(fingerprint: "", environment: "", items: 0, pages: 0, files: files).check(output)).untouchedFiles
        }
        // Remembered for another environment (other settings, theme or program): not kept.
        let otherMakers = FileMakers(memo: BuildMemo(file: memoFile), environment: "other")
        let elsewhere = try StagedOutput(
            output: output, previous: previous, untouchedFiles: untouched(previous), madeFrom: otherMakers.digests(of: previous),
            makers: otherMakers)
        #expect(!elsewhere.keepPrevious("a.html", ifDigest: 1))
        elsewhere.discard()

        let (first, firstMemo) = makers()
        let staged = try StagedOutput(
            output: output, previous: previous, untouchedFiles: untouched(previous), madeFrom: first.digests(of: previous), makers: first)
        #expect(staged.keepPrevious("a.html", ifDigest: 1))
        try staged.put("b.html", Data("new b".utf8))
        #expect(staged.keepPrevious("b.html", ifDigest: 1))
        #expect(!staged.keepPrevious("c.html", ifDigest: 2) && !staged.keepPrevious("new.html", ifDigest: 1))
        #expect(staged.keepPrevious("c.html", ifDigest: 1))
        try staged.put("c.html", Data("new c".utf8))
        try staged.put("e/e.html", Data("new e".utf8))
        #expect(Set(staged.paths) == ["a.html", "b.html", "c.html", "e/e.html"])
        let result = try staged.commit(outputHoldsPrevious: true)
        #expect(result.written == 2 && result.unchanged == 2)
        #expect(Set(staged.recordedAnew()) == ["c.html", "e/e.html"])
        let recorded = staged.recorded()
        #expect(recorded.count == 4 && recorded["a.html"] == previous["a.html"] && recorded["b.html"] == previous["b.html"])
        #expect(recorded["c.html"]?.size == 5 && recorded["e/e.html"] != nil)
        for (name, text) in [("a.html", "old a.html"), ("b.html", "old b.html"), ("c.html", "new c"), ("e/e.html", "new e")] {
            #expect(try String(contentsOf: output.appending(path: name), encoding: .utf8) == text)
        }
        #expect(!FileManager.default.fileExists(atPath: staged.staging.path))

        // Only a.html kept: the others are removed from the output and from the record.
        firstMemo.save()
        let nextMakers = makers().0
        let next = try StagedOutput(
            output: output, previous: recorded, untouchedFiles: untouched(recorded), madeFrom: nextMakers.digests(of: recorded), makers: nextMakers)
        #expect(next.keepPrevious("a.html", ifDigest: 1))
        let removal = try next.commit(outputHoldsPrevious: true)
        #expect(removal.written == 0 && removal.unchanged == 1)
        #expect(next.recorded() == ["a.html": previous["a.html"]!] && next.recordedAnew().isEmpty)
        #expect(Set(next.removedPrevious()) == ["b.html", "c.html", "e/e.html"])
        #expect(FileIO.regularFiles(under: output.path) == ["a.html"])
    }

    /// Files are written and compared by their paths inside the folders the staging holds open:
    /// a file with the output's bytes is only noted, a new one lands in the staging folder with
    /// its folders, and one that cannot be written is named by its whole path.
    @Test func filesGoInsideTheHeldFoldersAndAFailureNamesItsPath() throws {
        let output = try TestSupport.temporaryFolder().appending(path: "Site")
        try FileManager.default.createDirectory(at: output.appending(path: "items/a"), withIntermediateDirectories: true)
        try Data("same".utf8).write(to: output.appending(path: "items/a/index.html"))
        let staged = try StagedOutput(output: output)
        try staged.put("items/a/index.html", Data("same".utf8))
        try staged.put("items/b/deep/index.html", Data("new".utf8))
        try staged.put("blocked", Data("a file where a folder is wanted".utf8))
        #expect(FileIO.regularFiles(under: staged.staging.path) == ["blocked", "items/b/deep/index.html"])
        let failure = #expect(throws: BuildError.self) { try staged.put("blocked/index.html", Data("x".utf8)) }
        #expect(failure?.file == staged.staging.path + "/blocked/index.html")
        #expect(failure?.message.hasPrefix("cannot write this file: Not a directory") == true)
        let result = try staged.commit(outputHoldsPrevious: false)
        #expect(result.written == 2 && result.unchanged == 1)
        #expect(try String(contentsOf: output.appending(path: "items/b/deep/index.html"), encoding: .utf8) == "new")
        #expect(try String(contentsOf: output.appending(path: "items/a/index.html"), encoding: .utf8) == "same")
    }

    /// The caches' whole-file writes: the new bytes in place of the old, no temporary file left,
    /// and a write that cannot happen leaves the old file and nothing else.
    @Test func replacingAFileLeavesTheOldOrTheNewWhole() throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder.appending(path: "cache")
        try Data("old contents".utf8).write(to: file)
        let new = Array("new".utf8)
        #expect(FileIO.replace(file.path, with: new))
        #expect(try String(contentsOf: file, encoding: .utf8) == "new")
        #expect(FileIO.regularFiles(under: folder.path) == ["cache"])
        // The temporary file cannot be made in a missing folder: false, and nothing written.
        let missing = folder.appending(path: "missing/cache")
        #expect(!FileIO.replace(missing.path, with: new))
        #expect(!FileManager.default.fileExists(atPath: missing.deletingLastPathComponent().path))
        // A folder in the way of the rename: false, the folder as it was, no temporary file left.
        let blocked = folder.appending(path: "blocked")
        try FileManager.default.createDirectory(at: blocked.appending(path: "inside"), withIntermediateDirectories: true)
        #expect(!FileIO.replace(blocked.path, with: new))
        #expect(FileIO.regularFiles(under: folder.path) == ["cache"])
    }
}
