import Foundation
import Testing
@testable import MarqueeKit

/// A build only replaces a folder that is its own, however the folder is named or linked.
@Suite("A build never destroys what is not its own", .serialized, .timeLimit(.minutes(5)), .removesTemporaryFolders)
struct OwnershipTests {
    let fileManager = FileManager.default

    func site() throws -> URL {
        try TestSupport.makeSite(
            config: "title: Own\nsources:\n  - type: movies\n    path: m.json\n",
            texts: ["m.json": #"{"movies": [{"Title": "Arrival", "Description": "Linguists."}, {"Title": "Kubo", "Description": "Strings."}]}"#])
    }

    func build(_ root: URL, output: URL? = nil, takeOver: Bool = false) async throws -> BuildReport {
        var builder = SiteBuilder(site: try Site.fromConfig(root: root, output: output))
        builder.takesOverOutput = takeOver
        return try await builder.build()
    }

    /// Expects the build to fail with a message holding every one of `words`.
    func expectRefused(_ root: URL, output: URL? = nil, _ words: String...) async {
        await #expect {
            try await build(root, output: output)
        } throws: { error in
            let message = "\(error)"
            let hasWords = words.allSatisfy { message.contains($0) }
            if !hasWords { Issue.record("unexpected message: \(message)") }
            return hasWords
        }
    }

    @Test func aFolderThatIsNotMarqueesIsRefusedUntilTakenOver() async throws {
        let root = try site()
        let folder = try TestSupport.temporaryFolder().appending(path: "D")
        try fileManager.createDirectory(at: folder.appending(path: "x"), withIntermediateDirectories: true)
        try "a".write(to: folder.appending(path: "x/f"), atomically: true, encoding: .utf8)
        await expectRefused(root, output: folder, folder.path, "not empty", "--force")
        #expect(try String(contentsOf: folder.appending(path: "x/f"), encoding: .utf8) == "a")
        #expect(!fileManager.fileExists(atPath: folder.appending(path: OutputFolder.markerName).path))

        // Taken over, the folder is the site's and marked; later builds need no --force.
        _ = try await build(root, output: folder, takeOver: true)
        #expect(!fileManager.fileExists(atPath: folder.appending(path: "x/f").path))
        #expect(fileManager.fileExists(atPath: folder.appending(path: OutputFolder.markerName).path))
        try #"{"movies": [{"Title": "Arrival 2", "Description": "Linguists."}]}"#.write(
            to: root.appending(path: "Content/m.json"), atomically: true, encoding: .utf8)
        let report = try await build(root, output: folder)
        #expect(report.items == 1)
    }

    @Test func anEmptyOrAbsentFolderIsTakenAndMarked() async throws {
        let root = try site()
        let empty = try TestSupport.temporaryFolder()
        _ = try await build(root, output: empty)
        #expect(fileManager.fileExists(atPath: empty.appending(path: "index.html").path))
        _ = try await build(root)
        #expect(try TestSupport.read(root, OutputFolder.markerName).contains("Marquee"))
    }

    @Test func foldersHoldingTheSitesInputsAreRefused() async throws {
        let root = try site()
        for name in [".git", "Templates", ".marquee-cache"] {
            try fileManager.createDirectory(at: root.appending(path: name), withIntermediateDirectories: true)
        }
        try "keep".write(to: root.appending(path: ".git/HEAD"), atomically: true, encoding: .utf8)
        // Everything but Marquee's own caches, which reading the site's theme writes.
        func inputs() -> [String: Data] { TestSupport.snapshot(root).filter { !$0.key.hasPrefix(".marquee-cache/") } }
        let before = inputs()
        let refused = [
            root, root.deletingLastPathComponent(), URL(fileURLWithPath: "/"), root.appending(path: "Content"),
            root.appending(path: "Content/sub"), root.appending(path: "Templates"), root.appending(path: ".git"),
            root.appending(path: ".marquee-cache"), root.appending(path: ".marquee-cache/feeds"),
        ]
        for output in refused {
            await expectRefused(root, output: output, "a build replaces everything")
        }
        // Even with --force.
        await #expect(throws: BuildError.self) { try await build(root, output: root.appending(path: "Content"), takeOver: true) }
        #expect(inputs() == before)
    }

    @Test func linksAreResolvedBeforeTheChecks() async throws {
        let root = try site()
        let before = TestSupport.snapshot(root.appending(path: "Content"))
        // `Site -> Content`, as a repository could ship it, and `--output` a link to Content/.
        try fileManager.createSymbolicLink(atPath: root.appending(path: "Site").path, withDestinationPath: "Content")
        await expectRefused(root, "Content/")
        let link = try TestSupport.temporaryFolder().appending(path: "out")
        try fileManager.createSymbolicLink(at: link, withDestinationURL: root.appending(path: "Content"))
        await expectRefused(root, output: link, "Content/")
        #expect(TestSupport.snapshot(root.appending(path: "Content")) == before)

        // A link to someone's folder is refused; to an empty folder it is followed, and stays a link.
        let foreign = try TestSupport.temporaryFolder()
        try "mine".write(to: foreign.appending(path: "notes.txt"), atomically: true, encoding: .utf8)
        try fileManager.removeItem(at: root.appending(path: "Site"))
        try fileManager.createSymbolicLink(at: root.appending(path: "Site"), withDestinationURL: foreign)
        await expectRefused(root, "not empty")
        #expect(try String(contentsOf: foreign.appending(path: "notes.txt"), encoding: .utf8) == "mine")
        let empty = try TestSupport.temporaryFolder()
        try fileManager.removeItem(at: root.appending(path: "Site"))
        try fileManager.createSymbolicLink(at: root.appending(path: "Site"), withDestinationURL: empty)
        _ = try await build(root)
        _ = try await build(root)
        #expect(try fileManager.destinationOfSymbolicLink(atPath: root.appending(path: "Site").path) == empty.path)
        #expect(fileManager.fileExists(atPath: empty.appending(path: "index.html").path))
        // A link that leads nowhere cannot be checked.
        try fileManager.removeItem(at: root.appending(path: "Site"))
        try fileManager.createSymbolicLink(atPath: root.appending(path: "Site").path, withDestinationPath: "/nonexistent/marquee-output")
        await expectRefused(root, "missing folder")
    }

    @Test func aLinkedPreviewFolderIsCheckedLikeAnyOutput() async throws {
        let root = try site()
        let foreign = try TestSupport.temporaryFolder()
        try "mine".write(to: foreign.appending(path: "notes.txt"), atomically: true, encoding: .utf8)
        let preview = root.appending(path: OutputFolder.previewFolder)
        try fileManager.createDirectory(at: preview.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fileManager.createSymbolicLink(at: preview, withDestinationURL: foreign)
        await expectRefused(root, output: preview, "not empty")
        #expect(try String(contentsOf: foreign.appending(path: "notes.txt"), encoding: .utf8) == "mine")
        // The real preview folder is Marquee's own, whatever it holds (an older version's preview).
        try fileManager.removeItem(at: preview)
        try fileManager.createDirectory(at: preview, withIntermediateDirectories: true)
        try "old".write(to: preview.appending(path: "old.html"), atomically: true, encoding: .utf8)
        _ = try await build(root, output: preview)
        #expect(!fileManager.fileExists(atPath: preview.appending(path: "old.html").path))
    }

    @Test func anInPlaceUpdateNeverActsThroughALinkInsideTheOutput() async throws {
        let root = try site()
        _ = try await build(root)
        let output = root.appending(path: "Site")
        // The folder of one item's page replaced by a link to someone's folder holding a page.
        let items = try fileManager.contentsOfDirectory(atPath: output.appending(path: "items").path).sorted()
        let page = output.appending(path: "items/\(items[0])")
        let foreign = try TestSupport.temporaryFolder()
        try "theirs".write(to: foreign.appending(path: "index.html"), atomically: true, encoding: .utf8)
        try "theirs".write(to: foreign.appending(path: "other.txt"), atomically: true, encoding: .utf8)
        try fileManager.removeItem(at: page)
        try fileManager.createSymbolicLink(at: page, withDestinationURL: foreign)
        // A small change: one description.
        try #"{"movies": [{"Title": "Arrival", "Description": "Linguists, again."}, {"Title": "Kubo", "Description": "Strings, again."}]}"#.write(
            to: root.appending(path: "Content/m.json"), atomically: true, encoding: .utf8)
        _ = try await build(root)
        #expect(try String(contentsOf: foreign.appending(path: "index.html"), encoding: .utf8) == "theirs")
        #expect(try String(contentsOf: foreign.appending(path: "other.txt"), encoding: .utf8) == "theirs")
        #expect(try fileManager.attributesOfItem(atPath: page.path)[.type] as? FileAttributeType == .typeDirectory)
        #expect(try String(contentsOf: page.appending(path: "index.html"), encoding: .utf8).contains("again"))
    }

    @Test func aJournalThatLeavesTheOutputIsNotFollowed() async throws {
        let root = try site()
        _ = try await build(root)
        let victim = try TestSupport.temporaryFolder()
        try "mine".write(to: victim.appending(path: "notes.txt"), atomically: true, encoding: .utf8)
        let output = root.appending(path: "Site")
        let journal = ChangeJournal(
            output: output, staging: root.appending(path: ".Site.staging-1"), moves: [],
            removals: [String(repeating: "../", count: output.pathComponents.count - 1) + String(victim.path.dropFirst()) + "/notes.txt"])
        try JSONEncoder().encode(journal).write(to: ChangeJournal.location(for: output))
        _ = try await build(root)
        #expect(fileManager.fileExists(atPath: victim.appending(path: "notes.txt").path))
        #expect(!fileManager.fileExists(atPath: ChangeJournal.location(for: output).path))
    }

    @Test func buildsReachingOneFolderByTwoPathsTakeTurns() async throws {
        let root = try site()
        let link = try TestSupport.temporaryFolder().appending(path: "same")
        try fileManager.createSymbolicLink(at: link, withDestinationURL: root.appending(path: "Site"))
        try fileManager.createDirectory(at: root.appending(path: "Site"), withIntermediateDirectories: true)
        do {
            let held = try BuildLock(output: root.appending(path: "Site").resolvingSymlinksInPath())
            await expectRefused(root, output: link, "another build is writing into this folder")
            withExtendedLifetime(held) {}
        }
        _ = try await build(root, output: link)
    }
}
