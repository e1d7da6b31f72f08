import CustomSitePlugins
import Foundation
import MarqueeKit
import Testing

@Suite("The example site built from Swift")
struct CustomSiteTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func buildsTheCSVFilmsAndTheMovieListWithReadingTimeBadges() async throws {
        let output = FileManager.default.temporaryDirectory.appending(path: "custom-site-\(UUID().uuidString)")
        // The build's state for this output goes into the example's .marquee-cache: removed too.
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: root.appending(path: ".marquee-cache"))
        }
        let report = try await SiteBuilder(site: try CustomSite.make(root: root, output: output)).build()
        // 4 films from the CSV and 2 movies from the config's own source.
        #expect(report.items == 6)
        let gallery = try String(contentsOf: output.appending(path: "index.html"), encoding: .utf8)
        #expect(gallery.contains(">Stalker</a> <span class=\"badge\">1 min read</span>"))
        #expect(gallery.contains("The Long Take"))
        let stalker = try String(contentsOf: output.appending(path: "items/stalker/index.html"), encoding: .utf8)
        #expect(stalker.contains("<em>Zone</em>"))
        #expect(stalker.contains("By <a href=\"../../by/andrei-tarkovsky/\">Andrei Tarkovsky</a>"))
        #expect(FileManager.default.fileExists(atPath: output.appending(path: "sources/films-csv/index.html").path))
        // A longer summary takes longer to read.
        #expect(gallery.contains("2 min read"))
    }

    @Test func typedMetadataReachesTemplates() async throws {
        var item = Item(id: "x", source: "s", title: "T", body: .text("one two three"))
        item.metadata[ReadingMinutes.self] = 3
        #expect(item.metadata[ReadingMinutes.self] == 3)
        #expect(item.metadata.templateValues["readingMinutes"] == "3")
    }
}
