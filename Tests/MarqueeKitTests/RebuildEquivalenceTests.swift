import Foundation
import Testing
@testable import MarqueeKit

/// Pages are kept when their inputs' digests match; every kind of edit must still reach every
/// page that shows it (listing pages, author pages, neighbours on other pages).
@Suite("Rebuilds match builds from nothing", .removesTemporaryFolders)
struct RebuildEquivalenceTests {
    struct Entry {
        var guid: String, title: String, author: String, date: String, category: String, link: String
        var thumbnail: String, description: String
        var xml: String {
            """
            <item><guid>\(guid)</guid><title>\(title)</title><link>\(link)</link><dc:creator>\(author)</dc:creator>
            <pubDate>\(date)</pubDate><category>\(category)</category>
            <media:thumbnail url="\(thumbnail)" width="150" height="150"/>
            <description>\(description)</description></item>
            """
        }
    }

    static func entries() -> [Entry] {
        (0..<7).map { index in
            Entry(
                guid: "g\(index)", title: "Entry \(index)", author: index % 2 == 0 ? "Ada" : "Bea",
                date: "Sat, 0\(index + 1) Nov 2014 14:30:02 GMT", category: "c\(index % 3)", link: "https://example.org/\(index)",
                thumbnail: "https://example.org/t\(index).jpg", description: "Words about entry \(index).")
        }
    }

    func write(_ entries: [Entry], to root: URL, feedTitle: String = "Feed") throws {
        let feed = """
            <?xml version="1.0"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
            <channel><title>\(feedTitle)</title><link>https://example.org/</link>
            \(entries.map(\.xml).joined(separator: "\n"))
            </channel></rss>
            """
        try feed.write(to: root.appending(path: "Content/feed.xml"), atomically: true, encoding: .utf8)
    }

    @Test func everyEditReachesEveryPageThatShowsIt() async throws {
        let config = "title: Edits\npage_size: 2\nsources:\n  - type: movies\n    path: m.json\n  - type: feed\n    path: feed.xml\n"
        let root = try TestSupport.makeSite(config: config, texts: ["m.json": #"{"movies": [{"Title": "A movie", "Description": "Text."}]}"#])
        var entries = Self.entries()
        try write(entries, to: root)
        _ = try await TestSupport.build(root)

        let edits: [(String, (inout [Entry]) -> Void)] = [
            ("title (and so the slug)", { $0[1].title = "Renamed entry" }),
            ("title, keeping the slug", { $0[1].title = "Renamed Entry!" }),
            ("author, adding an author page", { $0[2].author = "Cy" }),
            ("date", { $0[3].date = "Mon, 01 Dec 2014 10:00:00 GMT" }),
            ("category", { $0[4].category = "new" }),
            ("link", { $0[5].link = "https://example.org/moved" }),
            ("thumbnail", { $0[6].thumbnail = "https://example.org/other.jpg" }),
            ("description", { $0[0].description = "Many more words about entry zero, long enough to need more lines in its cell than before." }),
            ("order, moving items between gallery pages", { $0.swapAt(0, 6) }),
            ("removal", { $0.remove(at: 3) }),
        ]
        var removalsAppended = false
        func rebuildMatchesAFreshBuild(after name: String) async throws {
            _ = try await TestSupport.build(root)
            let fresh = try TestSupport.temporaryFolder().appending(path: "Site")
            _ = try await TestSupport.build(root, output: fresh)
            let rebuilt = TestSupport.snapshot(root.appending(path: "Site"))
            let expected = TestSupport.snapshot(fresh)
            let differing = Set(rebuilt.keys).union(expected.keys).filter { rebuilt[$0] != expected[$0] }
            #expect(differing.isEmpty, "after editing the \(name): \(differing.sorted())")
            try stateMatchesTheOutput(after: name)
        }
        /// The state the rebuild saved (appended to, or written anew) is what a fresh look at the
        /// output finds: its files with their stamps, and the folders holding them with theirs.
        func stateMatchesTheOutput(after name: String) throws {
            let site = try Site.fromConfig(root: root)
            let output = root.appending(path: "Site")
            let state = try #require(BuildState.load(for: site))
            let folder = try #require(OpenFolder(output.path))
            #expect(Set(state.files.paths) == Set(FileIO.regularFiles(under: output.path)), "after editing the \(name)")
            for (path, stamp) in state.files {
                #expect(folder.status(of: path).map(FileStamp.init) == stamp, "after editing the \(name): \(path)")
            }
            #expect(state.folders == BuildState.folderStamps(BuildState.folders(holding: state.files.paths), in: output), "after editing the \(name)")
            let text = try String(contentsOf: BuildState.file(for: site), encoding: .utf8)
            if text.contains("\nr ") { removalsAppended = true }
        }
        for (name, edit) in edits {
            edit(&entries)
            try write(entries, to: root)
            try await rebuildMatchesAFreshBuild(after: name)
        }
        // The feed's title names the source of every one of its items.
        try write(entries, to: root, feedTitle: "Renamed feed")
        try await rebuildMatchesAFreshBuild(after: "feed's title")
        // Some edit's pages moved or went, and the state recorded that by appending.
        #expect(removalsAppended)
    }
}
