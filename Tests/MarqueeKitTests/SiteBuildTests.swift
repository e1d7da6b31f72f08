import Foundation
import Testing
@testable import MarqueeKit

@Suite("Building the fixture site end to end", .removesTemporaryFolders)
struct SiteBuildTests {
    @Test func galleryHasBothCellTemplatesAndLinksEveryDetailPage() async throws {
        let root = try TestSupport.makeFixtureSite()
        let report = try await TestSupport.build(root)
        let gallery = try TestSupport.read(root, "index.html")

        // 10 movies + 5 feed items; pages: gallery, 15 details, 2 sources, 2 authors, 404.
        #expect(report.items == 15)
        #expect(report.pages == 21)
        #expect(gallery.contains("class=\"cell cell-image"))
        #expect(gallery.contains("class=\"cell cell-basic"))
        #expect(gallery.occurrences(of: "<article class=\"cell ") == 15)

        let links = gallery.matches(of: /href="items\/([a-z0-9-]+)\/"/).map { String($0.output.1) }
        #expect(Set(links).count == 15)
        for slug in Set(links) {
            let page = try TestSupport.read(root, "items/\(slug)/index.html")
            #expect(page.contains("class=\"detail-title\""))
            #expect(page.contains("<link rel=\"stylesheet\" href=\"../../assets/marquee."))
        }
    }

    /// A long build reports its stages as they end; by default, and for stages that end before
    /// the threshold, nothing is reported.
    @Test func longBuildsReportTheirStages() async throws {
        let root = try TestSupport.makeFixtureSite()
        let site = try Site.fromConfig(root: root)
        let lines = Locked<[String]>([])
        var builder = SiteBuilder(site: site) { line in lines.withLock { $0.append(line) } }
        builder.reportsStagesAfter = 0
        _ = try await builder.build()
        // Stages of a millisecond or less are left out, so which ones show depends on the machine;
        // the build takes longer than that, so some do, in order.
        let reported = lines.withLock { $0 }.compactMap { $0.wholeMatch(of: /(.+): done at (\d+\.\d) s/) }
        #expect(!reported.isEmpty && reported.count == lines.withLock { $0 }.count, "\(lines.withLock { $0 })")
        let times = reported.map { Double($0.output.2)! }
        #expect(times == times.sorted())
        let stages = ["prepare", "load", "fingerprint", "lay out", "check output", "commit", "save state and memo"]
            + site.plugins.flatMap { ["transform \($0.name)", "write \($0.name)"] }
        #expect(Set(reported.map { String($0.output.1) }).isSubset(of: stages))

        try FileManager.default.removeItem(at: root.appending(path: "Site"))
        lines.withLock { $0.removeAll() }
        builder.reportsStagesAfter = 3_600
        _ = try await builder.build()
        _ = try await SiteBuilder(site: site) { line in lines.withLock { $0.append(line) } }.build()
        #expect(lines.withLock { $0 }.allSatisfy { !$0.contains(": done at ") })
    }

    @Test func markdownIsRenderedByCmark() async throws {
        let root = try TestSupport.makeFixtureSite()
        _ = try await TestSupport.build(root)
        let page = try TestSupport.read(root, "items/arrival/index.html")
        #expect(page.contains("<strong>Louise Banks</strong>"))
        #expect(page.contains("<em>Ian Donnelly</em>"))
        let laLaLand = try TestSupport.read(root, "items/la-la-land/index.html")
        #expect(laLaLand.contains("<ul>"))
        #expect(laLaLand.occurrences(of: "<li>") == 3)
        // The Markdown image beside the JSON is copied into the site and linked relatively.
        let zootopia = try TestSupport.read(root, "items/zootopia/index.html")
        #expect(zootopia.contains("src=\"../../media/zootopia.svg\""))
        #expect(FileManager.default.fileExists(atPath: root.appending(path: "Site/media/zootopia.svg").path))
    }

    @Test func hostileMarkupIsInert() async throws {
        let root = try TestSupport.makeFixtureSite()
        _ = try await TestSupport.build(root)
        let site = TestSupport.snapshot(root.appending(path: "Site"))
        for (path, data) in site where path.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            // The only scripts are the theme's: the one-line class switch and its two files.
            #expect(html.occurrences(of: "<script") == 3, "\(path)")
            #expect(html.contains("<script>document.documentElement.classList.add(\"js\")</script>"), "\(path)")
            #expect(html.contains("<script src=\""), "\(path)")
            #expect(!html.lowercased().contains("javascript:"), "\(path)")
            #expect(!html.lowercased().contains("onerror="), "\(path)")
            #expect(!html.lowercased().contains("onclick="), "\(path)")
            #expect(!html.contains("evil.example"), "\(path)")
        }
    }

    @Test func titlesAreTextNotMarkup() async throws {
        let root = try TestSupport.makeFixtureSite()
        _ = try await TestSupport.build(root)
        let gallery = try TestSupport.read(root, "index.html")
        #expect(gallery.contains("Sing Street &lt;em&gt;(not markup)&lt;/em&gt; &amp; friends"))
        #expect(!gallery.contains("<em>(not markup)</em>"))
        #expect(gallery.contains("<title>Fixture &lt;Gallery&gt; &amp; Co</title>"))
    }

    @Test func feedItemsUseMediumThumbnailFallbackTitleAndSanitizedHTML() async throws {
        let root = try TestSupport.makeFixtureSite()
        _ = try await TestSupport.build(root)
        let gallery = try TestSupport.read(root, "index.html")
        // The medium (300×450) of three thumbnails is the src; all sizes are offered in srcset.
        #expect(gallery.contains("src=\"http://127.0.0.1:8765/th/300W/cheshire.jpg\""))
        #expect(gallery.contains("http://127.0.0.1:8765/th/150/cheshire.jpg 100w"))
        #expect(gallery.contains(">[No Title]</a>"))
        // Relative links are made absolute and marked as user content.
        #expect(gallery.contains("href=\"http://127.0.0.1:8765/prints/101\" rel=\"noopener nofollow ugc\""))
        // The text-only journal item is a basic cell.
        let journal = try #require(gallery.firstRange(of: "id=\"cell-why-i-switched-brushes-journal\""))
        let articleStart = try #require(gallery[..<journal.lowerBound].range(of: "<article", options: .backwards))
        #expect(gallery[articleStart.lowerBound..<journal.lowerBound].contains("cell-basic"))
        // A plain-text media:description shows its angle brackets literally.
        #expect(gallery.contains("&lt;b&gt;this is not bold&lt;/b&gt;"))
        let cheshire = try TestSupport.read(root, "items/cheshire-grin/index.html")
        #expect(cheshire.contains("By <a href=\"../../by/cheshirecatart/\">CheshireCatArt</a>"))
        #expect(cheshire.contains("datetime=\"2014-11-08T20:05:00Z\""))
        #expect(cheshire.contains("src=\"http://127.0.0.1:8765/full/cheshire.jpg\""))
    }

    @Test func toggleIsAnAccessibleButtonOnlyWherePredictedTruncated() async throws {
        let root = try TestSupport.makeFixtureSite()
        _ = try await TestSupport.build(root)
        let gallery = try TestSupport.read(root, "index.html")
        #expect(gallery.contains("<button class=\"toggle\" type=\"button\" aria-expanded=\"false\" aria-controls=\"desc-arrival\">"))
        #expect(gallery.contains("id=\"desc-arrival\""))
        // "Short." fits in every breakpoint: no trunc- class; Arrival's long text is cut everywhere.
        let hiddenFigures = try #require(gallery.firstMatch(of: /<article class="([^"]*)" id="cell-hidden-figures"/))
        #expect(!hiddenFigures.output.1.contains("trunc-"))
        let arrival = try #require(gallery.firstMatch(of: /<article class="([^"]*)" id="cell-arrival"/))
        #expect(arrival.output.1.hasSuffix(ThemeMetrics().breakpoints.map { " trunc-\($0.name)" }.joined()))
        // The collapsed line counts and estimated heights are written for CSS.
        #expect(gallery.contains("--lines-w320:"))
        #expect(gallery.contains("--h-w320:"))
        // Cells clamp only once the page's script has marked the document (JavaScript off: full text).
        #expect(gallery.contains("<script>document.documentElement.classList.add(\"js\")</script>"))
    }

    @Test func summaryLineCountsItemsAndPages() async throws {
        let root = try TestSupport.makeFixtureSite()
        let report = try await TestSupport.build(root)
        let summary = report.summary(relativeTo: root)
        #expect(summary.hasPrefix("Built 15 items into 21 pages ("))
        #expect(summary.contains(" s → Site/"))
    }

    @Test func unchangedRebuildKeepsEveryFile() async throws {
        let root = try TestSupport.makeFixtureSite()
        _ = try await TestSupport.build(root)
        let index = root.appending(path: "Site/index.html").path
        let before = try FileManager.default.attributesOfItem(atPath: index)[.modificationDate] as? Date
        let inode = try FileManager.default.attributesOfItem(atPath: index)[.systemFileNumber] as? Int
        let report = try await TestSupport.build(root)
        #expect(report.filesWritten == 0)
        #expect(report.filesUnchanged == report.files)
        let after = try FileManager.default.attributesOfItem(atPath: index)[.modificationDate] as? Date
        #expect(before == after)
        #expect(inode == (try FileManager.default.attributesOfItem(atPath: index)[.systemFileNumber] as? Int))
    }

    @Test func aChangedImageIsProcessedEvenWhenTheListIsTheSame() async throws {
        let root = try TestSupport.makeFixtureSite()
        _ = try await TestSupport.build(root)
        let poster = root.appending(path: "Content/images/arrival.svg")
        try ##"<svg xmlns="http://www.w3.org/2000/svg" width="150" height="90"><rect width="150" height="90" fill="#345"/></svg>"##
            .write(to: poster, atomically: true, encoding: .utf8)
        let report = try await TestSupport.build(root)
        #expect(report.filesWritten >= 1)
        #expect(try TestSupport.read(root, "items/arrival/index.html").contains(#/media/arrival-[0-9a-f]{8}-150x90\.jpg/#))
        // And a rebuild with nothing changed stops early and writes nothing.
        let again = try await TestSupport.build(root)
        #expect(again.filesWritten == 0 && again.files == report.files)
    }

    @Test func sampleSiteInTheRepositoryBuilds() async throws {
        let output = try TestSupport.temporaryFolder().appending(path: "Site")
        let report = try await TestSupport.build(TestSupport.repository, output: output)
        #expect(report.items >= 12)
        #expect(report.warnings.isEmpty)
        let gallery = try String(contentsOf: output.appending(path: "index.html"), encoding: .utf8)
        #expect(gallery.contains("cell-image"))
        #expect(gallery.contains("cell-basic"))
    }
}
