import Foundation
import Testing
@testable import MarqueeKit

/// A rebuild whose item files (``Plugin/itemFiles(in:)``) and settings did not change, and whose
/// output is untouched, stops before loading; any change to those files, even one that keeps
/// their size and modification time, is loaded.
@Suite("Rebuilds that stop before loading", .removesTemporaryFolders)
struct UnchangedInputTests {
    /// Counts the builds that load items; declares `files` (nil: unknown, like a network source).
    struct LoadCounter: Plugin {
        let name = "load-counter"
        let files: [URL]?
        let loads = Locked(0)

        func itemFiles(in context: BuildContext) -> [URL]? { files }

        func loadItems(in context: BuildContext) async throws -> [Item] {
            loads.withLock { $0 += 1 }
            return []
        }
    }

    func site(_ root: URL, counter: LoadCounter) throws -> Site {
        var site = try Site.fromConfig(root: root)
        site.plugins.append(counter)
        return site
    }

    @Test func aRebuildWithNothingChangedDoesNotLoadAndAnyEditIsLoaded() async throws {
        let root = try TestSupport.makeFixtureSite()
        let movies = root.appending(path: "Content/movies.json")
        let counter = LoadCounter(files: [root.appending(path: "notes.txt")])
        try "outside Content".write(to: root.appending(path: "notes.txt"), atomically: true, encoding: .utf8)
        let first = try await SiteBuilder(site: site(root, counter: counter)).build()
        #expect(counter.loads.withLock { $0 } == 1)

        let second = try await SiteBuilder(site: site(root, counter: counter)).build()
        #expect(counter.loads.withLock { $0 } == 1, "nothing changed, yet the items were loaded")
        #expect(second.filesWritten == 0 && second.items == first.items && second.pages == first.pages)

        // An edit that keeps the file's size and modification time (to the nanosecond) is still seen.
        var before = stat(), after = stat()
        stat(movies.path, &before)
        let text = try String(contentsOf: movies, encoding: .utf8)
        try text.replacingOccurrences(of: "\"Title\": \"Arrival\"", with: "\"Title\": \"Arrivel\"").write(to: movies, atomically: false, encoding: .utf8)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, movies.path, &times, 0) == 0)
        stat(movies.path, &after)
        #expect(after.st_size == before.st_size && after.st_ino == before.st_ino)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        let edited = try await SiteBuilder(site: site(root, counter: counter)).build()
        #expect(counter.loads.withLock { $0 } == 2)
        #expect(edited.filesWritten > 0)
        #expect(try TestSupport.read(root, "items/arrivel/index.html").contains("Arrivel"))

        _ = try await SiteBuilder(site: site(root, counter: counter)).build()
        #expect(counter.loads.withLock { $0 } == 2)

        // An edit that replaces pages in place (no page added or removed) leaves a state that
        // the next build trusts as well: the folders' new times are recorded.
        let described = try String(contentsOf: movies, encoding: .utf8)
        let linguist = described.replacingOccurrences(of: "linguist", with: "translator")
        #expect(linguist != described)
        try linguist.write(to: movies, atomically: true, encoding: .utf8)
        let inPlace = try await SiteBuilder(site: site(root, counter: counter)).build()
        #expect(counter.loads.withLock { $0 } == 3)
        #expect(inPlace.filesWritten > 0)
        _ = try await SiteBuilder(site: site(root, counter: counter)).build()
        #expect(counter.loads.withLock { $0 } == 3, "after an in-place edit, the next build loaded again")

        // A declared file outside Content/ counts too.
        try "changed".write(to: root.appending(path: "notes.txt"), atomically: true, encoding: .utf8)
        _ = try await SiteBuilder(site: site(root, counter: counter)).build()
        #expect(counter.loads.withLock { $0 } == 4)

        // So does a file put into the output by hand (the output is not as the last build left it).
        try "stray".write(to: root.appending(path: "Site/stray.html"), atomically: true, encoding: .utf8)
        _ = try await SiteBuilder(site: site(root, counter: counter)).build()
        #expect(counter.loads.withLock { $0 } == 5)
        #expect(!FileManager.default.fileExists(atPath: root.appending(path: "Site/stray.html").path))
    }

    /// The settings a rebuild compares are the same whichever folder `marquee` runs from and
    /// whatever order the config's `plugins:` entries take in memory (a dictionary's order
    /// changes with each process); a changed option still counts.
    @Test func settingsCompareTheSameFromAnyFolderAndInAnyOrder() async throws {
        let root = try TestSupport.makeFixtureSite(config: TestSupport.fixtureConfig + """

            plugins:
              atom-feed: { limit: 20 }
              layout: { image_lines: 2, basic_lines: 4 }
              markup: { smart_punctuation: true }
            """)
        let counter = LoadCounter(files: [])
        _ = try await SiteBuilder(site: site(root, counter: counter)).build()
        #expect(counter.loads.withLock { $0 } == 1)

        // As read by `marquee` run from another folder (error messages then name the file by its
        // full path), with the same settings held in dictionaries that list them in another order.
        var elsewhere = try site(root, counter: counter)
        elsewhere.config.file = root.appending(path: "Content/site.yml").path
        let settings = elsewhere.config.plugins
        // A dictionary's order depends only on the process's hash seed and its number of buckets:
        // capacities 8 to 512 make seven sizes, and in one run none of them listed both in
        // another order; fourteen sizes (8 to 65,536) make that unlikely.
        let reordered = try #require((0..<14).lazy.map { Self.copy(settings, capacity: 8 << $0) }.first {
            Array($0.keys) != Array(settings.keys) && Array($0["layout"]!.options.keys) != Array(settings["layout"]!.options.keys)
        }, "no capacity changed the order of the entries")
        elsewhere.config.plugins = reordered
        #expect(elsewhere.config.plugins == settings)
        let unchanged = try await SiteBuilder(site: elsewhere).build()
        #expect(counter.loads.withLock { $0 } == 1, "the same settings, in another order or read from another folder, counted as a change")
        #expect(unchanged.filesWritten == 0)

        // Another value of an option is a change: the items are loaded and the pages made again.
        var changed = try site(root, counter: counter)
        changed.config.plugins["layout"]?.options["basic_lines"] = .int(5)
        _ = try await SiteBuilder(site: changed).build()
        #expect(counter.loads.withLock { $0 } == 2)
    }

    /// `settings` in a dictionary of another capacity, entries inserted in reverse, and the same
    /// for each plugin's options: the same contents, most likely listed in another order.
    private static func copy(_ settings: [String: PluginSetting], capacity: Int) -> [String: PluginSetting] {
        TestSupport.reinserted(settings.mapValues { setting in
            PluginSetting(enabled: setting.enabled, options: TestSupport.reinserted(setting.options, capacity: capacity))
        }, capacity: capacity)
    }

    /// Every file of a site's theme counts, not only the templates every theme has and the assets
    /// named by their contents: an edited partial or a theme's own image is seen by the next build.
    @Test func anEditToAnyFileOfTheThemeIsSeen() async throws {
        let root = try TestSupport.makeFixtureSite()
        let templates = root.appending(path: "Templates")
        try FileManager.default.createDirectory(at: templates.appending(path: "assets"), withIntermediateDirectories: true)
        let layout = try String(contentsOf: TestSupport.repository.appending(path: "Templates/layout.mustache"), encoding: .utf8)
        let withFooter = layout.replacingOccurrences(of: "</body>", with: "{{> footer}}</body>")
        #expect(withFooter != layout)
        try withFooter.write(to: templates.appending(path: "layout.mustache"), atomically: true, encoding: .utf8)
        func write(footer: String, note: String) throws {
            try "<footer>\(footer)</footer>".write(to: templates.appending(path: "footer.mustache"), atomically: true, encoding: .utf8)
            try note.write(to: templates.appending(path: "assets/note.txt"), atomically: true, encoding: .utf8)
        }
        try write(footer: "first footer", note: "first note")
        _ = try await TestSupport.build(root)
        #expect(try TestSupport.read(root, "index.html").contains("<footer>first footer</footer>"))
        #expect(try TestSupport.read(root, "assets/note.txt") == "first note")

        try write(footer: "second footer", note: "first note")
        let partialEdited = try await TestSupport.build(root)
        #expect(try TestSupport.read(root, "index.html").contains("<footer>second footer</footer>"), "the edited partial was not seen")
        #expect(partialEdited.filesWritten >= partialEdited.pages)

        try write(footer: "second footer", note: "second note")
        let assetEdited = try await TestSupport.build(root)
        #expect(try TestSupport.read(root, "assets/note.txt") == "second note", "the edited asset was not seen")
        #expect(assetEdited.filesWritten == 1)
    }

    /// Results remembered by another build of Marquee are not reused: after an upgrade (say, of
    /// the sanitizer) every description goes through the new code. The test changes a remembered
    /// result, checks that the same program takes it, then marks the memo as another program's.
    @Test func theMemoOfAnotherProgramIsNotReused() async throws {
        let root = try TestSupport.makeFixtureSite()
        _ = try await TestSupport.build(root)
        let memo = BuildMemo.file(for: try Site.fromConfig(root: root))
        let page = root.appending(path: "Site/items/cheshire-grin/index.html")
        func rebuildPage(_ edit: (String) -> String) async throws -> String {
            // Latin-1 keeps every byte, so the entries' binary lengths survive the round trip.
            let text = try #require(String(data: try Data(contentsOf: memo), encoding: .isoLatin1))
            try #require(edit(text).data(using: .isoLatin1)).write(to: memo)
            try FileManager.default.removeItem(at: page)
            _ = try await TestSupport.build(root)
            return try String(contentsOf: page, encoding: .utf8)
        }
        #expect(try String(contentsOf: page, encoding: .utf8).contains("over three evenings"))
        // "evenings" is in the memo only in the feed item's intro, which its page's description
        // shows; same length, other word.
        let sameProgram = try await rebuildPage { $0.replacingOccurrences(of: "evenings", with: "mornings") }
        #expect(sameProgram.contains("over three mornings"), "the memo was not used; this test shows nothing")

        let otherProgram = try await rebuildPage { text in
            let firstLine = text.prefix { $0 != "\n" }
            #expect(firstLine.hasPrefix("marquee-memo-4 ") && text.contains("mornings"))
            return "marquee-memo-4 another-build" + text.dropFirst(firstLine.count)
        }
        #expect(otherProgram.contains("over three evenings") && !otherProgram.contains("mornings"), "another program's memo was used")
    }

    /// Counts the builds that run the stages after loading.
    struct StageCounter: Plugin {
        let name = "stage-counter"
        let runs = Locked(0)

        func itemFiles(in context: BuildContext) -> [URL]? { [] }

        func transformItems(_ items: inout [Item], in context: BuildContext) throws {
            runs.withLock { $0 += 1 }
        }
    }

    /// A movie list saved again with the same bytes (by an editor or a checkout) is loaded, as
    /// any write to it is, but its items are those of the last build: the build stops after
    /// loading, writes nothing, and records the new stamps so that the next one does not load.
    @Test func aListSavedAgainUnchangedStopsAfterLoading() async throws {
        let root = try TestSupport.makeFixtureSite()
        let movies = root.appending(path: "Content/movies.json")
        let loads = LoadCounter(files: [movies]), stages = StageCounter()
        func build() async throws -> BuildReport {
            var site = try Site.fromConfig(root: root)
            site.plugins += [loads, stages] as [any Plugin]
            return try await SiteBuilder(site: site).build()
        }
        _ = try await build()
        #expect(loads.loads.withLock { $0 } == 1 && stages.runs.withLock { $0 } == 1)

        let bytes = try Data(contentsOf: movies)
        var before = stat(), after = stat()
        stat(movies.path, &before)
        try bytes.write(to: movies, options: .atomic)
        stat(movies.path, &after)
        #expect(after.st_ino != before.st_ino || after.st_ctim.tv_nsec != before.st_ctim.tv_nsec || after.st_ctim.tv_sec != before.st_ctim.tv_sec)
        let savedAgain = try await build()
        #expect(loads.loads.withLock { $0 } == 2, "a list written again was not loaded")
        #expect(stages.runs.withLock { $0 } == 1, "a list saved with the same bytes ran the stages")
        #expect(savedAgain.filesWritten == 0)

        _ = try await build()
        #expect(loads.loads.withLock { $0 } == 2, "the new stamps were not recorded")

        // Other files under Content/ still count by their stamps: their bytes are not in the items.
        try "a note".write(to: root.appending(path: "Content/notes.txt"), atomically: true, encoding: .utf8)
        _ = try await build()
        #expect(stages.runs.withLock { $0 } == 2, "a new file under Content/ did not run the stages")

        // And a real edit of the list runs them.
        let text = try String(contentsOf: movies, encoding: .utf8)
        try text.replacingOccurrences(of: "\"Title\": \"Arrival\"", with: "\"Title\": \"Arrivel\"").write(to: movies, atomically: true, encoding: .utf8)
        let edited = try await build()
        #expect(stages.runs.withLock { $0 } == 3)
        #expect(edited.filesWritten > 0)
    }

    /// A plugin that cannot say what its items come from is loaded on every build.
    @Test func itemsFromUnknownInputsAreLoadedEveryTime() async throws {
        let root = try TestSupport.makeFixtureSite()
        let counter = LoadCounter(files: nil)
        for build in 1...3 {
            _ = try await SiteBuilder(site: site(root, counter: counter)).build()
            #expect(counter.loads.withLock { $0 } == build)
        }
    }
}
