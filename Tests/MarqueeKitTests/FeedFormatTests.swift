import Foundation
import Testing
@testable import MarqueeKit

@Suite("Feed formats: detected from content, normalized to one Item shape", .removesTemporaryFolders)
struct FeedFormatTests {
    func parse(_ fixture: String) throws -> ParsedFeed {
        try FeedParser.parse(Data(contentsOf: TestSupport.fixtures.appending(path: "feeds/\(fixture)")), display: fixture)
    }

    /// Intros remembered in the memo (by a hash of their description) read exactly as made, in
    /// every format: first made and stored, then read back by the next build's memo.
    @Test func rememberedIntrosReadAsMade() throws {
        let memoFile = try TestSupport.temporaryFolder().appending(path: "feeds.memo")
        for fixture in ["atom-sample.xml", "deviantart-popular.xml", "jsonfeed-sample.json", "rss1-rdf-sample.xml"] {
            let data = try Data(contentsOf: TestSupport.fixtures.appending(path: "feeds/\(fixture)"))
            let made = try FeedParser.parse(data, display: fixture).items.map(\.intro)
            let first = BuildMemo(file: memoFile)
            #expect(try FeedParser.parse(data, display: fixture, intro: FeedIntro.remembered(in: first)).items.map(\.intro) == made)
            first.save()
            let second = BuildMemo(file: memoFile)
            #expect(try FeedParser.parse(data, display: fixture, intro: FeedIntro.remembered(in: second)).items.map(\.intro) == made)
            #expect(made.contains { !$0.isEmpty })
        }
        // What is remembered is what the next build finds: an HTML description's intro.
        let html = Markup.html("<p>Hello <b>there</b></p>", base: nil)
        #expect(FeedIntro.remembered(in: BuildMemo(file: memoFile))(html) == FeedIntro.text(of: html))
    }

    @Test func atomWithXMLBaseHTMLAndXHTML() throws {
        let feed = try parse("atom-sample.xml")
        #expect(feed.title == "Sketchbook (Atom sample)")
        #expect(feed.items.count == 2)
        let first = feed.items[0]
        #expect(first.title == "Ink & wash, day one")
        #expect(first.link == "http://127.0.0.1:8765/blog/posts/ink-and-wash-1")
        #expect(first.id == "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a")
        #expect(first.author == "Ada Sketcher")
        #expect(first.intro == "A summary in plain text.")
        #expect(first.date == FeedDate.parse("2016-12-12T08:00:00Z"))
        #expect(first.images.first?.url == "http://127.0.0.1:8765/blog/img/day1-thumb.png")
        guard case .html(let html, let base) = first.body else { Issue.record("content is not HTML"); return }
        let safe = HTMLSanitizer(base: base).sanitize(html)
        #expect(safe.contains("<strong>ink and wash</strong>"))
        #expect(safe.contains("src=\"http://127.0.0.1:8765/blog/img/day1.png\""))
        let second = feed.items[1]
        guard case .html(let xhtml, _) = second.body else { Issue.record("xhtml content is not HTML"); return }
        #expect(xhtml.contains("<em>emphasis</em>"))
        #expect(second.link == "http://127.0.0.1:8765/blog/posts/entry-2")
    }

    @Test func jsonFeed() throws {
        let feed = try parse("jsonfeed-sample.json")
        #expect(feed.title == "Film Notes (JSON Feed sample)")
        #expect(feed.items.count == 2)
        #expect(feed.items[0].title == "On long takes")
        #expect(feed.items[0].author == "R. Critic")
        #expect(feed.items[0].tags == ["cinematography", "craft"])
        #expect(feed.items[0].images.first?.url == "http://127.0.0.1:8765/notes/img/longtake.jpg")
        #expect(feed.items[0].date == FeedDate.parse("2016-11-02T21:00:00Z"))
        #expect(feed.items[1].body == .text("Plain text only.\nSecond line."))
    }

    @Test func rss1ItemsBesideTheChannel() throws {
        let feed = try parse("rss1-rdf-sample.xml")
        #expect(feed.title == "Old-school RSS 1.0 (RDF sample)")
        #expect(feed.items.count == 1)
        #expect(feed.items[0].title == "An RDF item")
        #expect(feed.items[0].author == "Someone")
        #expect(feed.items[0].link == "http://127.0.0.1:8765/rdf/1")
        #expect(feed.items[0].date == FeedDate.parse("2016-10-01T12:00:00Z"))
    }

    @Test func declaredEncodingsBOMAndInvalidUTF8() throws {
        func feed(_ prolog: String, title: [UInt8]) throws -> String {
            var bytes = Array(prolog.utf8) + Array("<rss version=\"2.0\"><channel><title>T</title><item><guid>a</guid><title>".utf8)
            bytes += title + Array("</title></item></channel></rss>".utf8)
            return try FeedParser.parse(Data(bytes), display: "t.xml").items[0].title
        }
        // "Café – ok" in windows-1252 (0xE9 é, 0x96 en dash).
        #expect(try feed("<?xml version=\"1.0\" encoding=\"windows-1252\"?>", title: [0x43, 0x61, 0x66, 0xE9, 0x20, 0x96, 0x20, 0x6F, 0x6B]) == "Café – ok")
        #expect(try feed("\u{FEFF}<?xml version=\"1.0\" encoding=\"utf-8\"?>", title: Array("Bom".utf8)) == "Bom")
        #expect(try feed("<?xml version=\"1.0\"?>", title: [0x42, 0x61, 0x64, 0xFF, 0x21]) == "Bad\u{FFFD}!")
        // The name as the declaration gives it, in any case, with blanks around `=` and either quote.
        let declarations: [(String, String?)] = [
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "utf-8"), ("<?xml version='1.0' ENCODING = 'Windows-1252' ?>", "windows-1252"),
            ("<?xml encoding\n=\t\"iso-8859-1\"?>", "iso-8859-1"), ("<?xml version=\"1.0\"?>", nil), ("<?xml encoding=\"\"?>", nil),
            ("<?xml encoding=utf-8?>", nil), ("<?xml encoding=\"utf 8\" encoding=\"latin1\"?>", "latin1"), ("<?xml x-encoding=\"us-ascii\"?>", "us-ascii"),
        ]
        for (declaration, name) in declarations {
            #expect(XMLTree.declaredEncoding(Array(declaration.utf8)) == name, "\(declaration)")
        }
        #expect(throws: BuildError.self) { try feed("<?xml version=\"1.0\" encoding=\"EBCDIC\"?>", title: Array("x".utf8)) }
    }

    @Test func namespacesMatchByURINotPrefix() throws {
        let xml = """
            <rss version="2.0" xmlns:m="http://search.yahoo.com/mrss/"><channel><title>T</title>
            <item><title>A</title><guid>a</guid><m:thumbnail url="http://x.test/a.jpg" width="300" height="300"/>
            <m:credit role="author">Someone</m:credit></item></channel></rss>
            """
        let feed = try FeedParser.parse(Data(xml.utf8), display: "t.xml")
        #expect(feed.items[0].images.first?.url == "http://x.test/a.jpg")
        #expect(feed.items[0].author == "Someone")
    }

    @Test func allFormatsBuildIntoOneGalleryWithoutDuplicates() async throws {
        let feeds = TestSupport.fixtures.appending(path: "feeds")
        let root = try TestSupport.makeSite(
            config: """
                title: All
                sources:
                  - type: feed
                    path: a.xml
                  - type: feed
                    path: b.json
                  - type: feed
                    path: c.xml
                  - type: feed
                    path: d.xml
                  - type: feed
                    path: again.xml
                    limit: 2
                """,
            files: ["a.xml": feeds.appending(path: "atom-sample.xml"), "b.json": feeds.appending(path: "jsonfeed-sample.json"),
                    "c.xml": feeds.appending(path: "rss1-rdf-sample.xml"), "d.xml": feeds.appending(path: "deviantart-popular.xml"),
                    "again.xml": feeds.appending(path: "deviantart-popular.xml")])
        let report = try await TestSupport.build(root)
        // 2 Atom + 2 JSON Feed + 1 RDF + 5 RSS; the repeated feed adds nothing.
        #expect(report.items == 10)
        let gallery = try TestSupport.read(root, "index.html")
        #expect(gallery.contains("Ink &amp; wash, day one"))
        #expect(gallery.contains("An RDF item"))
        #expect(gallery.contains("On long takes"))
    }

    /// Items are made on every core, but a local feed's images are registered, and so named,
    /// in the feed's order, as a one-core read names them: 300 items each point at its own
    /// `x.png` (every third at a web address instead), in all four formats.
    @Test func localImagesAreNamedInFeedOrder() throws {
        let content = try TestSupport.temporaryFolder()
        let count = 300
        for index in 0..<count {
            let folder = content.appending(path: "d\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("png".utf8).write(to: folder.appending(path: "x.png"))
        }
        func image(_ index: Int) -> String { index % 3 == 2 ? "https://example.org/\(index).png" : "d\(index)/x.png" }
        let thumbnails = (0..<count).map { "<media:thumbnail url=\"\(image($0))\"/>" }
        let media = "xmlns:media=\"\(FeedNamespace.media)\""
        let documents = [
            "rss": "<rss version=\"2.0\" \(media)><channel><title>T</title>"
                + (0..<count).map { "<item><title>Item \($0)</title><guid>id-\($0)</guid>\(thumbnails[$0])</item>" }.joined() + "</channel></rss>",
            "rdf": "<rdf:RDF xmlns:rdf=\"\(FeedNamespace.rdf)\" xmlns=\"\(FeedNamespace.rss1)\" \(media)><channel><title>T</title></channel>"
                + (0..<count).map { "<item rdf:about=\"id-\($0)\"><title>Item \($0)</title>\(thumbnails[$0])</item>" }.joined() + "</rdf:RDF>",
            "atom": "<feed xmlns=\"\(FeedNamespace.atom)\" \(media)><title>T</title>"
                + (0..<count).map { "<entry><id>id-\($0)</id><title>Item \($0)</title>\(thumbnails[$0])</entry>" }.joined() + "</feed>",
            "json": "{\"version\": \"https://jsonfeed.org/version/1.1\", \"title\": \"T\", \"items\": ["
                + (0..<count).map { "{\"id\": \"id-\($0)\", \"title\": \"Item \($0)\", \"image\": \"\(image($0))\"}" }.joined(separator: ",") + "]}",
        ]
        // The k-th local image registered is `media/x.png`, then `media/x-2.png`, `media/x-3.png`, …
        var expected: [String] = [], local = 0
        for index in 0..<count {
            if index % 3 == 2 {
                expected.append(image(index))
            } else {
                local += 1
                expected.append(local == 1 ? "media/x.png" : "media/x-\(local).png")
            }
        }
        let folder = content.appending(path: "feed.xml").deletingLastPathComponent()
        for (format, document) in documents {
            let assets = LocalAssets(contentDirectory: content)
            let feed = try FeedParser.parse(Data(document.utf8), display: "feed.\(format)", localImage: { reference in
                try? assets.register(reference, relativeTo: folder)
            })
            #expect(feed.items.map(\.id) == (0..<count).map { "id-\($0)" }, "\(format)")
            let named = feed.items.map { $0.images.first?.url ?? "none" }
            let firstDifference = named.indices.first { $0 >= expected.count || named[$0] != expected[$0] }
            #expect(named.count == count && firstDifference == nil, "\(format): item \(firstDifference ?? -1) differs")
        }
    }
}
