import Foundation
import NIOHTTP1
import Testing
@testable import MarqueeKit

/// An OPML subscription list expands into one feed per outline, grouped by folder. Against a
/// real HTTP server on 127.0.0.1.
@Suite("OPML sources", .serialized, .timeLimit(.minutes(5)), .removesTemporaryFolders)
struct OPMLTests {
    let server: LoopbackFeedServer

    init() throws {
        server = try LoopbackFeedServer(routes: [
            "/a.xml": { _, _ in .init(body: FetchTests.rss(["Painting one", "Painting two"])) },
            "/b.xml": { _, _ in .init(body: FetchTests.rss(["Sculpture one"])) },
            "/c.xml": { _, _ in .init(body: FetchTests.rss(["News one"])) },
            "/error.xml": { _, _ in .init(status: .internalServerError) },
        ])
    }

    func opml(_ base: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0"><head><title>Subscriptions</title></head><body>
          <outline text="Art" title="Art">
            <outline type="rss" text="Paintings" xmlUrl="\(base)/a.xml"/>
            <outline type="rss" text="Sculpture" xmlUrl="\(base)/b.xml"/>
          </outline>
          <outline type="rss" text="News" xmlUrl="\(base)/c.xml"/>
          <outline type="rss" text="Broken" xmlUrl="\(base)/error.xml"/>
          <outline type="rss" text="Local file" xmlUrl="file:///etc/passwd"/>
        </body></opml>
        """
    }

    @Test func outlinesBecomeFeedsAndFoldersBecomeGroups() async throws {
        defer { server.shutdown() }
        let base = server.url("")
        let root = try TestSupport.makeSite(
            config: "title: Reader\nsources:\n  - type: opml\n    path: subs.opml\n    limit: 1\n", texts: ["subs.opml": opml(base)])
        let report = try await TestSupport.build(root)
        // One item per feed (the limit is each feed's), the failing feed none.
        #expect(report.items == 3)
        let warnings = report.warnings.map(\.description)
        #expect(warnings.contains { $0.hasPrefix("Content/subs.opml:9: warning: the outline \"Local file\"") && $0.contains("not an http(s) address") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("/error.xml") && $0.contains("500") })
        #expect(warnings.count == 2)
        #expect(server.requests("/error.xml") == 1)
        // Sources are named by their outlines; the Art folder has a page of its own, in the navigation.
        let gallery = try TestSupport.read(root, "index.html")
        #expect(gallery.contains(">Paintings</a>") && gallery.contains(">News</a>"))
        #expect(gallery.contains("href=\"groups/art/\">Art</a>"))
        let art = try TestSupport.read(root, "groups/art/index.html")
        #expect(art.contains("Painting one") && art.contains("Sculpture one") && !art.contains("News one"))
    }

    @Test func anOPMLFileByURLAndHostileOnes() async throws {
        defer { server.shutdown() }
        let list = Data(opml(server.url("")).utf8)
        let remote = try LoopbackFeedServer(routes: ["/subs.opml": { _, _ in .init(body: list) }])
        defer { remote.shutdown() }
        let root = try TestSupport.makeSite(config: "title: Reader\nsources:\n  - type: opml\n    url: \(remote.url("/subs.opml"))\n")
        let report = try await TestSupport.build(root)
        #expect(report.items == 4)
        #expect(report.sources.contains("\(remote.url("/subs.opml")): fetched, 4 items"), "\(report.sources)")

        // A list of more feeds than a site should ask for is cut, with a warning.
        let many = (0...OPMLFeed.maximumFeeds).map { "<outline text=\"F\($0)\" xmlUrl=\"http://127.0.0.1:9/\($0).xml\"/>" }.joined()
        var warned: [String] = []
        let feeds = try OPMLFeed.feeds(in: Data("<opml><body>\(many)</body></opml>".utf8), display: "many.opml", warn: { warned.append($1) })
        #expect(feeds.count == OPMLFeed.maximumFeeds && warned == ["the file lists 1001 feeds; only the first 1000 are read."])

        // A local OPML file that declares entities, or is not OPML, fails the build naming it.
        for (text, words) in [
            ("<?xml version=\"1.0\"?><!DOCTYPE opml [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><opml><body><outline text=\"&x;\" xmlUrl=\"http://a/\"/></body></opml>", "ENTITY"),
            ("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel/></rss>", "expected an OPML document"),
        ] {
            let hostile = try TestSupport.makeSite(config: "title: Reader\nsources:\n  - type: opml\n    path: subs.opml\n", texts: ["subs.opml": text])
            await #expect { try await TestSupport.build(hostile) } throws: { error in
                let error = error as! BuildError
                return error.file == "Content/subs.opml" && error.description.contains(words)
            }
        }
    }
}
