import Foundation
import Testing
@testable import MarqueeKit

@Suite("A build never loses a site", .serialized, .timeLimit(.minutes(5)), .removesTemporaryFolders)
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

    /// A movie list cut short while the build runs (after it was read): the build publishes what
    /// it read, whole; the next build sees the file changed and fails on the half file naming
    /// it, leaving the site as it was; once the file is whole again, it builds.
    @Test func anInputCutShortDuringABuildIsSeenByTheNextBuild() async throws {
        func list(_ first: String) -> String {
            let description = String(repeating: "A scene described at length. ", count: 700)
            let movies = (0..<60).map { #"{"Title": "\#($0 == 0 ? first : "Movie \($0)")", "Description": "\#(description)"}"# }
            return "{\"movies\": [\(movies.joined(separator: ",\n"))]}"
        }
        let root = try TestSupport.makeSite(config: "title: T\nsources:\n  - type: movies\n    path: m.json\n", texts: ["m.json": list("First")])
        let file = root.appending(path: "Content/m.json")
        _ = try await TestSupport.build(root)

        try list("Renamed").write(to: file, atomically: true, encoding: .utf8)
        var site = try Site.fromConfig(root: root)
        site.plugins.insert(CuttingPlugin(file: file), at: 0)
        _ = try await SiteBuilder(site: site).build()
        #expect(try TestSupport.read(root, "index.html").contains("Renamed"))
        let before = TestSupport.snapshot(root.appending(path: "Site"))

        await #expect { try await TestSupport.build(root) } throws: { error in
            (error as! BuildError).file == "Content/m.json"
        }
        #expect(TestSupport.snapshot(root.appending(path: "Site")) == before)
        try list("Again").write(to: file, atomically: true, encoding: .utf8)
        _ = try await TestSupport.build(root)
        #expect(try TestSupport.read(root, "index.html").contains("Again"))
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
