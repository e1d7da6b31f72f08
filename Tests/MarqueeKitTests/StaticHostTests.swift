import Foundation
import Testing
@testable import MarqueeKit

@Suite("Output any static host accepts", .removesTemporaryFolders)
struct StaticHostTests {
    func buildSubPathSite(pageSize: Int = 4) async throws -> URL {
        let root = try TestSupport.makeFixtureSite(config: """
            title: Gallery
            base_url: https://user.github.io/gallery
            page_size: \(pageSize)
            sources:
              - type: movies
                path: movies.json
              - type: feed
                path: feeds/popular.xml
            """)
        _ = try await TestSupport.build(root)
        return root
    }

    /// Every href/src in every page resolves to a file of the site when the site is served under
    /// `/gallery/` (the link checker).
    @Test func everyInternalLinkResolvesUnderASubPath() async throws {
        let root = try await buildSubPathSite()
        let site = root.appending(path: "Site")
        let files = TestSupport.snapshot(site)
        var checked = 0
        for (path, data) in files where path.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            for match in html.matches(of: /(?:href|src)="([^"]*)"/) {
                var link = String(match.output.1).replacingOccurrences(of: "&amp;", with: "&")
                if link.hasPrefix("http://") || link.hasPrefix("https://") || link.hasPrefix("mailto:") || link.hasPrefix("#") { continue }
                link = String(link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                // Resolve like a browser: relative to the page's URL under /gallery/.
                let pageURL = URL(string: "https://user.github.io/gallery/" + path)!
                let url = try #require(URL(string: link, relativeTo: pageURL), "\(path): \(link) is not a valid URL")
                let resolved = try #require(URLComponents(url: url.absoluteURL, resolvingAgainstBaseURL: false)?.path)
                #expect(resolved.hasPrefix("/gallery/"), "\(path): \(link) leaves the sub-path")
                var target = String(resolved.dropFirst("/gallery/".count))
                if target.isEmpty || target.hasSuffix("/") { target += "index.html" }
                #expect(files[target.removingPercentEncoding ?? target] != nil, "\(path): \(link) → \(target) is missing")
                checked += 1
            }
        }
        #expect(checked > 300)
    }

    /// A rebuild after a description changed keeps the sitemap as it was (same bytes, same time);
    /// one after a movie was added lists the new page.
    @Test func sitemapIsKeptUntilThePagesChange() async throws {
        let root = try await buildSubPathSite()
        let sitemapFile = root.appending(path: "Site/sitemap.xml").path
        func modified() throws -> Date? { try FileManager.default.attributesOfItem(atPath: sitemapFile)[.modificationDate] as? Date }
        let before = try TestSupport.read(root, "sitemap.xml"), time = try modified()
        let moviesFile = root.appending(path: "Content/movies.json")
        var movies = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: moviesFile)) as? [String: Any])
        var list = try #require(movies["movies"] as? [[String: Any]])
        list[0]["Description"] = "A description edited for the test."
        movies["movies"] = list
        try JSONSerialization.data(withJSONObject: movies).write(to: moviesFile)
        _ = try await TestSupport.build(root)
        #expect(try TestSupport.read(root, "items/arrival/index.html").contains("edited for the test"))
        #expect(try TestSupport.read(root, "sitemap.xml") == before && (try modified()) == time)

        list.append(["Title": "A Sitemap Newcomer", "Intro": "New.", "Description": "Added for the test."])
        movies["movies"] = list
        try JSONSerialization.data(withJSONObject: movies).write(to: moviesFile)
        _ = try await TestSupport.build(root)
        #expect(try TestSupport.read(root, "sitemap.xml").contains("<loc>https://user.github.io/gallery/items/a-sitemap-newcomer/</loc>"))
    }

    @Test func hostFilesFeedAndMeta() async throws {
        let root = try await buildSubPathSite()
        for file in ["404.html", "robots.txt", ".nojekyll", "sitemap.xml", "feed.xml", "search.json"] {
            #expect(FileManager.default.fileExists(atPath: root.appending(path: "Site/\(file)").path), "\(file)")
        }
        let sitemap = try TestSupport.read(root, "sitemap.xml")
        #expect(sitemap.contains("<loc>https://user.github.io/gallery/</loc>"))
        #expect(sitemap.contains("<loc>https://user.github.io/gallery/items/arrival/</loc>"))
        #expect(!sitemap.contains("404"))
        #expect(try TestSupport.read(root, "robots.txt").contains("Sitemap: https://user.github.io/gallery/sitemap.xml"))
        // 404.html links from the absolute sub-path, since it is served at any depth.
        let notFound = try TestSupport.read(root, "404.html")
        #expect(notFound.contains("href=\"/gallery/assets/marquee."))
        // The feed is well-formed Atom with absolute links.
        let feedData = try Data(contentsOf: root.appending(path: "Site/feed.xml"))
        let feed = try FeedParser.parse(feedData, display: "feed.xml")
        #expect(feed.items.count == 15)
        #expect(feed.items.allSatisfy { $0.link?.hasPrefix("https://user.github.io/gallery/items/") == true })
        // Detail pages: canonical, OpenGraph and Twitter meta.
        let arrival = try TestSupport.read(root, "items/arrival/index.html")
        #expect(arrival.contains("<link rel=\"canonical\" href=\"https://user.github.io/gallery/items/arrival/\">"))
        // The link preview shows the poster's largest rendition.
        #expect(arrival.contains(#/<meta property="og:image" content="https://user.github.io/gallery/media/arrival-[0-9a-f]{8}-\d+x\d+\.jpg">/#))
        #expect(arrival.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"))
        #expect(arrival.contains("<meta property=\"og:type\" content=\"article\">"))
    }

    @Test func paginationSourcesAuthorsAndIndex() async throws {
        let root = try await buildSubPathSite(pageSize: 4)
        // 15 items, 4 a page: index + page/2..4.
        let first = try TestSupport.read(root, "index.html")
        #expect(first.occurrences(of: "<article class=\"cell ") == 4)
        #expect(first.contains("<a rel=\"next\" href=\"page/2/\">"))
        let last = try TestSupport.read(root, "page/4/index.html")
        #expect(last.occurrences(of: "<article class=\"cell ") == 3)
        #expect(last.contains("<a rel=\"prev\" href=\"../../page/3/\">"))
        #expect(last.contains("<span aria-current=\"page\">4</span>"))
        // A detail page links back to the gallery page that shows it.
        let enclosure = try TestSupport.read(root, "items/enclosure-only/index.html")
        #expect(enclosure.contains("href=\"../../page/4/#cell-enclosure-only\""))
        // One listing per source and per author.
        let author = try TestSupport.read(root, "by/cheshirecatart/index.html")
        #expect(author.contains("<h1 class=\"page-title\">By CheshireCatArt</h1>"))
        #expect(author.occurrences(of: "<article class=\"cell ") == 2)
        #expect(try TestSupport.read(root, "sources/deviantart-popular/index.html").contains("Cheshire Grin"))
        // The filter box's index.
        let index = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appending(path: "Site/search.json"))) as! [[String: String]]
        #expect(index.count == 15)
        #expect(index.contains { $0["t"] == "Cheshire Grin" && $0["a"] == "CheshireCatArt" && $0["u"] == "items/cheshire-grin/" })
    }

    @Test func assetsAreFingerprinted() async throws {
        let root = try await buildSubPathSite()
        let assets = try FileManager.default.contentsOfDirectory(atPath: root.appending(path: "Site/assets").path)
        #expect(assets.contains { $0.range(of: #"^marquee\.[0-9a-f]{8}\.css$"#, options: .regularExpression) != nil })
        #expect(assets.contains { $0.range(of: #"^marquee\.[0-9a-f]{8}\.js$"#, options: .regularExpression) != nil })
        let fonts = try FileManager.default.contentsOfDirectory(atPath: root.appending(path: "Site/assets/fonts").path)
        #expect(fonts.contains { $0.range(of: #"^marquee-sans\.[0-9a-f]{8}\.ttf$"#, options: .regularExpression) != nil })
        #expect(fonts.contains("LICENSE.txt"))
        let css = try String(contentsOf: root.appending(path: "Site/assets/" + assets.first { $0.hasSuffix(".css") }!), encoding: .utf8)
        #expect(css.contains(#"src: url("fonts/marquee-sans."#))
    }
}
