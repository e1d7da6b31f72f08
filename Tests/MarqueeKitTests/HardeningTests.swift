import Foundation
import Testing
@testable import MarqueeKit

@Suite("A build never loses a site", .serialized, .timeLimit(.minutes(2)), .removesTemporaryFolders)
struct HardeningTests {
    /// A site big enough that a build takes a while: 3,000 movies.
    func bigSite() throws -> URL {
        let movies = (0..<3000).map { index in
            #"{"Title": "Movie \#(index)", "Description": "A description of movie \#(index) that is long enough to wrap over a few lines in every cell of the gallery, with **bold** and *italic* words."}"#
        }
        return try TestSupport.makeSite(
            config: "title: Big\nsources:\n  - type: movies\n    path: m.json\n",
            texts: ["m.json": "{\"movies\": [\(movies.joined(separator: ",\n"))]}"])
    }

    @Test func killingABuildAtAnyMomentLeavesThePreviousSite() async throws {
        let root = try bigSite()
        _ = try await TestSupport.build(root)
        let before = TestSupport.snapshot(root.appending(path: "Site"))
        // Change the input so that the next build really writes, then kill it at several moments.
        let list = root.appending(path: "Content/m.json")
        try (try String(contentsOf: list, encoding: .utf8)).replacingOccurrences(of: "Movie 1\"", with: "Movie One\"").write(to: list, atomically: true, encoding: .utf8)
        // The site the changed input makes, built elsewhere (pages link relatively, so it is the same).
        let reference = try TestSupport.temporaryFolder().appending(path: "Site")
        _ = try await TestSupport.build(root, output: reference)
        let after = TestSupport.snapshot(reference)
        #expect(after != before)
        for delay in [50, 200, 400, 700] {
            let process = Process()
            process.executableURL = TestSupport.repository.appending(path: ".build/debug/marquee")
            process.arguments = ["build", "--root", root.path, "--quiet"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await Task.sleep(for: .milliseconds(delay))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .exit { continue }  // finished before the kill: nothing to check
            // Killed after recording a small change in its journal: the files may be half moved;
            // the next build finishes the moves (checked below).
            if FileManager.default.fileExists(atPath: root.appending(path: ".Site.journal").path) { break }
            // Otherwise the site is the previous one, or the whole new one if the kill came after the switch.
            let now = TestSupport.snapshot(root.appending(path: "Site"))
            let differing = Set(now.keys).union(before.keys).filter { now[$0] != before[$0] }
            #expect(now == before || now == after, "killed after \(delay) ms: \(differing.count) files differ from the previous site, e.g. \(differing.sorted().prefix(3))")
        }
        // The next build finishes or cleans what the killed ones left and makes the new site.
        _ = try await TestSupport.build(root)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".Site.") }
        #expect(leftovers.isEmpty)
        let final = TestSupport.snapshot(root.appending(path: "Site"))
        let wrong = Set(final.keys).union(after.keys).filter { final[$0] != after[$0] }.sorted()
        #expect(wrong.isEmpty, "\(wrong.count) files differ from a build from nothing: \(wrong.prefix(3).map { "\($0) (\(final[$0]?.count ?? -1) bytes, expected \(after[$0]?.count ?? -1))" })")
    }

    @Test func twoBuildsAtOnceDoNotCorruptTheSite() async throws {
        let root = try TestSupport.makeFixtureSite()
        let site = try Site.fromConfig(root: root)
        do {
            let held = try BuildLock(output: site.output)
            await #expect {
                try await SiteBuilder(site: site).build()
            } throws: { error in
                (error as! BuildError).message.contains("another build is writing into this folder")
            }
            withExtendedLifetime(held) {}
        }
        // Started together, one of two concurrent builds may be refused; the site ends complete.
        async let first = try? TestSupport.build(root)
        async let second = try? TestSupport.build(root)
        let results = await [first, second]
        #expect(results.contains { $0 != nil })
        #expect(try TestSupport.read(root, "index.html").contains("</html>"))
    }

    /// Cuts a file to half its size while the build transforms its items, as an editor saving
    /// in place does.
    struct CuttingPlugin: Plugin {
        let name = "cutting"
        let file: URL
        func transformItems(_ items: inout [Item], in context: BuildContext) throws {
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: try handle.seekToEnd() / 2)
            try handle.close()
        }
    }

    /// A movie list large enough to be mapped, cut short while the build runs: the build fails
    /// naming it (not on the zeros it then reads), the site stays as it was, and the next build
    /// with the list whole again succeeds.
    @Test func anInputCutShortDuringABuildFailsItAndWritesNothing() async throws {
        func list(_ first: String) -> String {
            let description = String(repeating: "A scene described at length. ", count: 700)
            let movies = (0..<60).map { #"{"Title": "\#($0 == 0 ? first : "Movie \($0)")", "Description": "\#(description)"}"# }
            return "{\"movies\": [\(movies.joined(separator: ",\n"))]}"
        }
        let root = try TestSupport.makeSite(config: "title: T\nsources:\n  - type: movies\n    path: m.json\n", texts: ["m.json": list("First")])
        let file = root.appending(path: "Content/m.json")
        #expect(try Data(contentsOf: file).count > InputFile.mappedSize)
        _ = try await TestSupport.build(root)
        let before = TestSupport.snapshot(root.appending(path: "Site"))

        try list("Renamed").write(to: file, atomically: true, encoding: .utf8)
        var site = try Site.fromConfig(root: root)
        site.plugins.insert(CuttingPlugin(file: file), at: 0)
        await #expect { try await SiteBuilder(site: site).build() } throws: { error in
            let message = (error as! BuildError).description
            return message.contains("Content/m.json") && message.contains("changed while the build was reading it")
        }
        #expect(TestSupport.snapshot(root.appending(path: "Site")) == before)

        try list("Renamed").write(to: file, atomically: true, encoding: .utf8)
        _ = try await TestSupport.build(root)
        #expect(try TestSupport.read(root, "index.html").contains("Renamed"))
    }

    /// A theme font written to after the theme mapped it and before the build wrote it into the
    /// site (here rewritten in place with the same bytes; cut short, it would read as zeros):
    /// the build fails naming the font, as for a mapped input, and writes nothing. With the
    /// theme loaded again, it succeeds.
    @Test func aFontWrittenToDuringABuildFailsItAndWritesNothing() async throws {
        let root = try TestSupport.makeSite(
            config: "title: T\nsources:\n  - type: movies\n    path: m.json\n", texts: ["m.json": #"{"movies": [{"Title": "A", "Description": "Text."}]}"#])
        let font = root.appending(path: "regular.ttf")
        let bytes = try Data(contentsOf: ThemeMetrics().regularFont)
        try bytes.write(to: font)
        var metrics = ThemeMetrics()
        metrics.regularFont = font
        func site() throws -> Site {
            var site = try Site.fromConfig(root: root)
            site.theme = try Theme.load(siteRoot: root, metrics: metrics)
            return site
        }
        let loaded = try site()
        let handle = try FileHandle(forWritingTo: font)  // the same file, not a new one in its place
        try handle.write(contentsOf: bytes)
        try handle.close()
        await #expect { try await SiteBuilder(site: loaded).build() } throws: { error in
            let message = (error as! BuildError).description
            return message.contains(font.path) && message.contains("changed while the build was reading it")
        }
        let output = root.appending(path: "Site")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        _ = try await SiteBuilder(site: try site()).build()
        #expect(FileIO.regularFiles(under: output.path).contains { $0.hasPrefix("assets/fonts/marquee-sans.") })
    }

    @Test func oversizedDescriptionsAreRefusedWithTheirPath() async throws {
        let long = String(repeating: "word ", count: 60_000)
        let root = try TestSupport.makeSite(
            config: "title: T\nsources:\n  - type: movies\n    path: m.json\n",
            texts: ["m.json": "{\"movies\": [{\"Title\": \"A\", \"Description\": \"\(long)\"}]}"])
        await #expect { try await TestSupport.build(root) } throws: { error in
            (error as! BuildError).place == .path("movies[0].Description")
        }
    }
}
