import Foundation
import Testing
@testable import MarqueeKit

/// Records the order hooks run in.
final class HookLog: Sendable {
    let entries = Locked<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

struct RecordingPlugin: Plugin {
    let name: String
    let log: HookLog

    func loadItems(in context: BuildContext) async throws -> [Item] {
        log.add("\(name).load")
        return [Item(id: name, source: name, title: "From \(name)", body: .text("Text from \(name)."))]
    }
    func transformItems(_ items: inout [Item], in context: BuildContext) throws {
        log.add("\(name).transform")
        items = items.map { var item = $0; item.badges.append(name); return item }
    }
    func layOutItems(_ items: inout [Item], in context: BuildContext) throws { log.add("\(name).layout") }
    func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws {
        log.add("\(name).write")
        try output.add("\(name).txt", text: items.map(\.title).joined(separator: "\n"))
    }
    func postProcess(_ file: inout OutputFile, in context: BuildContext) throws {
        if file.path == "index.html" { log.add("\(name).post") }
    }
}

struct ThrowingPlugin: Plugin {
    let name = "broken-plugin"
    struct Failure: Error, CustomStringConvertible { var description: String { "the CSV column 'year' is missing" } }
    func transformItems(_ items: inout [Item], in context: BuildContext) throws { throw Failure() }
}

/// Writes one file per item, made again only when the item changed (`OutputSet.reuse`), and
/// counts the files it made.
struct CountingWriter: Plugin {
    let name = "counting-writer"
    let made = Locked(0)
    func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws {
        for item in items {
            var digest = StableHasher("counting-writer-1")
            item.combine(into: &digest)
            let path = "counted/\(item.slug).txt"
            if output.reuse(path, digest: digest.value) { continue }
            made.withLock { $0 += 1 }
            try output.add(path, text: item.title, digest: digest.value)
        }
    }
}

@Suite("Plugins", .removesTemporaryFolders)
struct PluginTests {
    func site(_ plugins: [any Plugin], config: String = "title: P\nsources: []\n") throws -> Site {
        let root = try TestSupport.makeSite(config: "title: P\nsources:\n  - type: movies\n    path: m.json\n",
                                            texts: ["m.json": #"{"movies": [{"Title": "M", "Description": "d"}]}"#])
        var site = try Site.fromConfig(root: root)
        site.plugins = plugins + site.plugins
        return site
    }

    @Test func stagesRunInOrderThenPluginsInRegistrationOrder() async throws {
        let log = HookLog()
        var site = try site([RecordingPlugin(name: "a", log: log)])
        site.plugins.append(RecordingPlugin(name: "b", log: log))
        let report = try await SiteBuilder(site: site).build()
        let hooks = log.all.filter { !$0.hasSuffix(".load") }
        // Post-processing runs on each file as soon as a writer adds it: index.html comes from the
        // built-in pages writer, registered between a and b.
        #expect(hooks == ["a.transform", "b.transform", "a.layout", "b.layout", "a.write", "a.post", "b.post", "b.write"])
        #expect(Set(log.all.filter { $0.hasSuffix(".load") }) == ["a.load", "b.load"])
        // Items keep the sources' registration order: a, the movie list, b.
        let written = try String(contentsOf: site.output.appending(path: "a.txt"), encoding: .utf8)
        #expect(written == "From a\nM\nFrom b")
        #expect(report.items == 3)
        let gallery = try String(contentsOf: site.output.appending(path: "index.html"), encoding: .utf8)
        #expect(gallery.contains(">From a</a> <span class=\"badge\">a</span> <span class=\"badge\">b</span>"))
    }

    @Test func aThrowingPluginStopsTheBuildWithItsNameAndLeavesTheOutput() async throws {
        let good = try site([])
        _ = try await SiteBuilder(site: good).build()
        let before = TestSupport.snapshot(good.output)
        var bad = good
        bad.plugins.append(ThrowingPlugin())
        await #expect {
            try await SiteBuilder(site: bad).build()
        } throws: { error in
            let error = error as! BuildError
            return error.plugin == "broken-plugin" && error.description == "error: plugin \"broken-plugin\": the CSV column 'year' is missing"
        }
        #expect(TestSupport.snapshot(good.output) == before)
    }

    /// A writer's files are kept without being made again while the values they were made from,
    /// the settings and the file in the output stay the same.
    @Test func filesOfUnchangedValuesAreKeptWithoutBeingMade() async throws {
        let root = try TestSupport.makeSite(
            config: "title: P\nsources:\n  - type: movies\n    path: m.json\n",
            texts: ["m.json": #"{"movies": [{"Title": "One", "Description": "d"}, {"Title": "Two", "Description": "d"}, {"Title": "Three", "Description": "d"}]}"#])
        func build() async throws -> Int {
            let writer = CountingWriter()
            var site = try Site.fromConfig(root: root)
            site.plugins.append(writer)
            _ = try await SiteBuilder(site: site).build()
            return writer.made.withLock { $0 }
        }
        #expect(try await build() == 3)
        let list = root.appending(path: "Content/m.json")
        try Data(try String(contentsOf: list, encoding: .utf8).replacingOccurrences(of: "Two", with: "Deux").utf8).write(to: list)
        #expect(try await build() == 1)
        // A file changed in the output is made again; so is every file once the settings change.
        let counted = root.appending(path: "Site/counted")
        let one = try #require(try FileManager.default.contentsOfDirectory(atPath: counted.path).first {
            (try? String(contentsOf: counted.appending(path: $0), encoding: .utf8)) == "One"
        })
        try Data("edited by hand".utf8).write(to: counted.appending(path: one))
        try Data(try String(contentsOf: list, encoding: .utf8).replacingOccurrences(of: "Deux", with: "Two").utf8).write(to: list)
        #expect(try await build() == 2)
        let config = root.appending(path: "Content/site.yml")
        try Data("title: Q\nsources:\n  - type: movies\n    path: m.json\n".utf8).write(to: config)
        #expect(try await build() == 3)
    }

    @Test func configTurnsBuiltinsOffAndPassesOptions() async throws {
        let root = try TestSupport.makeSite(
            config: """
                title: P
                base_url: https://example.org/
                sources:
                  - type: movies
                    path: m.json
                plugins:
                  atom-feed: false
                  layout: { image_lines: 1, basic_lines: 2 }
                """,
            texts: ["m.json": #"{"movies": [{"Title": "M", "Description": "d"}]}"#])
        _ = try await TestSupport.build(root)
        #expect(!FileManager.default.fileExists(atPath: root.appending(path: "Site/feed.xml").path))
        #expect(FileManager.default.fileExists(atPath: root.appending(path: "Site/sitemap.xml").path))
        #expect(try TestSupport.read(root, "index.html").contains("--lines-w320:2"))
    }

    @Test func unknownPluginsAndOptionsListWhatExists() {
        #expect {
            try SiteConfig.parse("title: T\nsources: []\nplugins:\n  sitemap: false\n", file: "s.yml")
        } throws: { error in
            let error = error as! BuildError
            return error.place == .lineColumn(line: 4, column: 3)
                && error.message.contains("unknown key \"sitemap\"; allowed here: markup, normalize, images, layout, pages, site-files, atom-feed, assets")
        }
        #expect {
            try SiteConfig.parse("title: T\nsources: []\nplugins:\n  atom-feed: { limt: 3 }\n", file: "s.yml")
        } throws: { error in
            (error as! BuildError).message.contains("unknown key \"limt\"; allowed here: limit")
        }
        #expect {
            try SiteConfig.parse("title: T\nsources: []\nplugins:\n  pages: false\n", file: "s.yml")
        } throws: { error in
            (error as! BuildError).message.contains("cannot be turned off")
        }
        #expect {
            try SiteConfig.parse("title: T\nsources: []\nplugins:\n  layout: { image_lines: 99 }\n", file: "s.yml")
        } throws: { error in
            (error as! BuildError).message.contains("out of range")
        }
    }
}
