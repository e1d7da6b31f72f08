import Foundation
import Testing
@testable import MarqueeKit

/// XML feeds are cut at their items, parsed on every core, and their unchanged items taken from
/// the memo: the items must be exactly those of a parse of the whole document.
@Suite("Feed items: cut, parsed apart and remembered, as a whole parse makes them", .removesTemporaryFolders)
struct FeedItemCutTests {
    static let media = "xmlns:media=\"http://search.yahoo.com/mrss/\""

    /// Feeds whose shapes the cut must get right: namespaces declared on the root or the channel
    /// (and redeclared), prefixed elements in items, `<item>` inside comments, CDATA and
    /// attribute values, self-closing and nested items, items outside the channel, `xml:base`.
    static let shapes: [String: String] = [
        "rss": """
            <?xml version="1.0"?>
            <rss version="2.0" \(media) xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel xmlns:content="http://purl.org/rss/1.0/modules/content/"><title>Shapes &amp; more</title><link>https://example.org/</link>
            <!-- <item><title>in a comment</title></item> -->
            <item><title>One</title><guid>1</guid><media:thumbnail url="https://example.org/1.png" width="10"/><dc:creator>Ann</dc:creator></item>
            <item a=">x"><title><![CDATA[Two <item> </item>]]></title><link>/two</link><content:encoded>&lt;p&gt;Body&lt;/p&gt;</content:encoded></item>
            <item/>
            <item><title>Four</title><item><title>nested</title></item><pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate></item>
            <item xmlns:media="http://search.yahoo.com/mrss"><title>Five</title><media:content url="https://example.org/5.jpg" medium="image"/></item>
            </channel>
            <item><title>outside the channel</title></item>
            </rss>
            """,
        "atom": """
            <feed xmlns="http://www.w3.org/2005/Atom" \(media) xml:base="https://example.org/blog/">
            <title type="html">&lt;b&gt;Atom&lt;/b&gt;</title><author><name>Feed Author</name></author>
            <entry xml:base="posts/"><id>urn:1</id><title>One</title><link href="one"/><summary>Short</summary></entry>
            <entry><id>urn:2</id><title>Two</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>X<em>H</em></p></div></content>
            <category term="a"/><category term="b"/><published>2020-01-02T03:04:05Z</published></entry>
            </feed>
            """,
        "rdf": """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
            <channel rdf:about="https://example.org/"><title>RDF</title><link>https://example.org/</link></channel>
            <item rdf:about="https://example.org/1"><title>One</title><link>https://example.org/1</link><description>First</description></item>
            <item rdf:about="https://example.org/2"><title>Two</title><link>https://example.org/2</link></item>
            </rdf:RDF>
            """,
    ]

    /// Every field of each item, as the memo records them.
    static func fields(_ feed: ParsedFeed) -> [String] {
        feed.items.map { FeedItemRecord.text(of: $0) ?? "unrecordable" }
    }

    /// The feed parsed whole, without cutting it.
    static func parsedWhole(_ data: Data, display: String) throws -> ParsedFeed {
        try FeedCutCheck.parsedWhole(data, display: display)
    }

    static func documents() throws -> [(name: String, data: Data)] {
        var documents = shapes.map { ($0.key, Data($0.value.utf8)) }
        for fixture in ["atom-sample.xml", "deviantart-popular.xml", "rss1-rdf-sample.xml"] {
            documents.append((fixture, try Data(contentsOf: TestSupport.fixtures.appending(path: "feeds/\(fixture)"))))
        }
        return documents
    }

    @Test func cutFeedsReadAsWholeOnes() throws {
        for (name, data) in try Self.documents() {
            let prepared = try XMLTree.prepared(data, display: name)
            let pieces = try #require(XMLItemCut(prepared), "\(name) was not cut")
            #expect(FeedItemSupply(cut: pieces, memo: nil, readsLocalImages: false) != nil, "\(name): the pieces did not parse apart")
            let cut = try FeedParser.parse(data, display: name)
            let whole = try Self.parsedWhole(data, display: name)
            #expect(cut.title == whole.title && cut.link == whole.link, "\(name)")
            #expect(Self.fields(cut) == Self.fields(whole), "\(name)")
            #expect(!cut.items.isEmpty)
        }
        // The shapes hold what they are meant to: the commented, nested and outside items are not items.
        let rss = try FeedParser.parse(Data(Self.shapes["rss"]!.utf8), display: "rss")
        #expect(rss.items.map(\.title) == ["One", "Two", "", "Four", "Five"])
    }

    /// Documents of random feed-shaped pieces, mostly well-formed items and now and then a stray
    /// piece, read cut exactly as whole.
    @Test func randomShapesReadAsWhole() {
        let heads = ["<rss version=\"2.0\" \(Self.media)><channel><title>T</title>", "<feed xmlns=\"http://www.w3.org/2005/Atom\" \(Self.media)><title>A</title>",
                     "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns=\"http://purl.org/rss/1.0/\" \(Self.media)>"]
        let tails = ["</channel></rss>", "</feed>", "</rdf:RDF>"]
        let inside = ["<title>x</title>", "<title>y &amp; z</title>", "<guid>g</guid>", "<id>i</id>", "<link>https://e.org/l</link>",
                      "<!-- <item> -->", "<![CDATA[ </item> <entry> ]]>", "<media:thumbnail url=\"https://e.org/a.png\"/>",
                      "<summary>s</summary>", "<description>&lt;p&gt;d&lt;/p&gt;</description>", "<item><title>n</title></item>", "text"]
        let stray = ["<item>", "</item>", "</entry>", "<item/>", "<!--", "<", ">", "'", "\"", "&eacute;", "<channel>", "</channel>", "]]>"]
        var random = SeededRandom(seed: 2_026)
        var differing: [String] = [], cutItems = 0
        for _ in 0..<3_000 {
            let kind = Int.random(in: 0..<3, using: &random)
            var body = ""
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                if Int.random(in: 0..<10, using: &random) == 0 {
                    body += stray.randomElement(using: &random)!
                } else {
                    let name = kind == 1 ? "entry" : "item"
                    let attributes = Bool.random(using: &random) ? " a=\">\" b='x'" : ""
                    body += "<\(name)\(attributes)>" + (0..<Int.random(in: 0...4, using: &random)).map { _ in inside.randomElement(using: &random)! }.joined() + "</\(name)>"
                }
            }
            let data = Data((heads[kind] + body + tails[kind]).utf8)
            if FeedCutCheck.difference(in: data) != nil { differing.append(heads[kind] + body + tails[kind]) }
            if let prepared = try? XMLTree.prepared(data, display: "x"), let cut = XMLItemCut(prepared),
               FeedItemSupply(cut: cut, memo: nil, readsLocalImages: false) != nil {
                cutItems += cut.pieces.count
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(3))")
        // Most documents are cut and their items parsed apart: the agreement is not only on whole parses.
        #expect(cutItems > 3_000)
    }

    /// Items side by side with the same tags share one stand-in, so that the skeleton's parse
    /// does not grow with the feed; other tags, or anything but white space between two items,
    /// start another. The items still read as a whole parse makes them.
    @Test func itemsSideBySideShareAStandIn() throws {
        let run = (0..<50).map { "<item><title>T\($0)</title></item>\n" }.joined()
        let data = Data(("<rss version=\"2.0\"><channel><title>R</title>\n" + run + "<item a=\"1\"><title>A</title></item><item a=\"1\"><title>B</title></item>"
            + "<!-- c --><item><title>C</title></item>" + run + "</channel></rss>").utf8)
        let cut = try #require(XMLItemCut(try XMLTree.prepared(data, display: "rss")))
        #expect(cut.pieces.count == 103)
        let supply = try #require(FeedItemSupply(cut: cut, memo: nil, readsLocalImages: false))
        let channel = try #require(supply.root.children.first { $0.name == "channel" })
        #expect(channel.children.compactMap(cut.numbers(ofStandIn:)) == [0...49, 50...51, 52...102])
        let feed = try FeedParser.parse(data, display: "rss")
        #expect(feed.items.count == 103)
        #expect(Self.fields(feed) == Self.fields(try Self.parsedWhole(data, display: "rss")))
    }

    /// A feed's own element whose text looks like a stand-in is not taken for one: the items
    /// outside RSS's channel are cut (the first item's parents decide), the channel's stay whole,
    /// and one of them claims every cut item's number, as many times as it is repeated.
    @Test func aDocumentCannotForgeAStandIn() throws {
        let outside = (0..<20).map { "<item><title>Outside \($0)</title></item>" }.joined()
        let forged = String(repeating: "<item>\u{E000}0-19</item><item>\u{E000}abc:0-19</item>", count: 30)
        let data = Data(("<rss version=\"2.0\">" + outside + "<channel xmlns:z=\"urn:z\"><title>T</title>" + forged
            + "<item><title>Inside</title></item></channel></rss>").utf8)
        let cut = try #require(XMLItemCut(try XMLTree.prepared(data, display: "rss")))
        #expect(cut.pieces.count == 20)
        let feed = try FeedParser.parse(data, display: "rss")
        #expect(feed.items.count == 61)
        #expect(Self.fields(feed) == Self.fields(try Self.parsedWhole(data, display: "rss")))
    }

    /// JSON feeds are cut at their `items` array: shapes with escaped keys, nested arrays, strings
    /// holding brackets, a byte-order mark and the fixture read as whole; a document with two
    /// `items`, an item that is not an object or a broken item is not cut, and reads (or fails) as whole.
    @Test func jsonFeedsCutReadAsWhole() throws {
        let head = #"{"version": "https://jsonfeed.org/version/1.1", "title": "J", "home_page_url": "https://example.org/", "#
        let item = #"{"id": "1", "title": "One ] }", "content_html": "<p>x</p>", "tags": ["a", ["b"]], "url": "/one", "image": "i.png"}"#
        let cut = [
            head + #""items": [\#(item), {"id": "2", "content_text": "Two \"[\" {"}]}"#,
            "\u{FEFF}" + head + #""\u0069tems": [ \#(item) ,"# + "\n" + #" {"id": "3"} ], "author": {"name": "A"}}"#,
            String(decoding: try Data(contentsOf: TestSupport.fixtures.appending(path: "feeds/jsonfeed-sample.json")), as: UTF8.self),
        ]
        let whole = [
            head + #""items": [\#(item)], "items": [{"id": "9"}]}"#,
            head + #""items": [\#(item), 3]}"#,
            head + #""items": [\#(item), {"id": 1,}]}"#,
            head + #""items": []}"#,
        ]
        for document in cut + whole {
            let data = Data(document.utf8)
            #expect((JSONFeedCut(data)?.sources(memo: nil, readsLocalImages: false) != nil) == cut.contains(document), "\(document)")
            #expect(FeedCutCheck.difference(in: data) == nil, "\(document)")
        }
        // Unchanged items come from the memo; a changed one alone is made again, a removed one
        // makes none again.
        let parser = RememberingParser(memo: try TestSupport.temporaryFolder().appending(path: "json.memo"))
        func parse(_ document: String) throws -> ParsedFeed { try parser.parse(Data(document.utf8), display: "feed.json") }
        let items = (0..<50).map { #"{"id": "\#($0)", "summary": "About \#($0)", "content_html": "<p>\#($0)</p>"}"# }
        let first = try parse(head + #""items": [\#(items.joined(separator: ","))]}"#)
        #expect(first.items.count == 50 && parser.introsMade == 50)
        var edited = items
        edited[20] = #"{"id": "20", "summary": "Changed", "content_html": "<p>20</p>"}"#
        edited.remove(at: 30)
        let document = head + #""items": [\#(edited.joined(separator: ",\n"))]}"#
        let second = try parse(document)
        #expect(parser.introsMade == 51)
        #expect(Self.fields(second) == Self.fields(try FeedCutCheck.parsedWhole(Data(document.utf8), display: "feed.json")))
        #expect(second.items.contains { $0.intro == "Changed" })
        // The feed's title changed: every item is made again (their source is that title).
        let retitled = try parse(document.replacingOccurrences(of: #""title": "J""#, with: #""title": "K""#))
        #expect(parser.introsMade == 100)
        #expect(retitled.items.allSatisfy { $0.source == "K" })
    }

    /// A second parse with the first one's memo makes no item again (no intro is made), one
    /// changed item is made alone, and every item reads as a whole parse makes it. Each item has
    /// an origin made of its bytes and the feed around them: the same whether made or
    /// remembered, and another only for the changed item.
    @Test func unchangedItemsComeFromTheMemo() throws {
        let memoFile = try TestSupport.temporaryFolder().appending(path: "feeds.memo")
        let fixture = try Data(contentsOf: TestSupport.fixtures.appending(path: "feeds/deviantart-popular.xml"))
        let count = try Self.parsedWhole(fixture, display: "feed").items.count
        let parser = RememberingParser(memo: memoFile)
        func parse(_ data: Data) throws -> ParsedFeed { try parser.parse(data, display: "feed") }
        let made = try parse(fixture)
        #expect(parser.introsMade == count)
        let second = try parse(fixture)
        #expect(parser.introsMade == count)
        // Their bodies are left in the memo, and read as the whole parse's.
        #expect(second.items.allSatisfy { $0.bodyIsUndecoded })
        #expect(Self.fields(second) == Self.fields(try Self.parsedWhole(fixture, display: "feed")))
        #expect(second.items.allSatisfy { $0.originDigest != nil } && second.items.map(\.originDigest) == made.items.map(\.originDigest))
        #expect(Set(second.items.map(\.originDigest)).count == count)
        // One item's title changed: that item alone is made again.
        let text = String(decoding: fixture, as: UTF8.self)
        let title = try #require(text.range(of: "<title>", range: text.index(text.startIndex, offsetBy: text.count / 2)..<text.endIndex))
        let edited = Data(text.replacingCharacters(in: title, with: "<title>Edited ").utf8)
        let third = try parse(edited)
        #expect(parser.introsMade == count + 1)
        #expect(Self.fields(third) == Self.fields(try Self.parsedWhole(edited, display: "feed")))
        #expect(third.items.contains { $0.title.hasPrefix("Edited") })
        #expect(third.items.filter { !$0.bodyIsUndecoded }.map(\.title).allSatisfy { $0.hasPrefix("Edited") })
        #expect(zip(third.items, second.items).filter { $0.originDigest != $1.originDigest }.map(\.0.title).allSatisfy { $0.hasPrefix("Edited") })
        #expect(zip(third.items, second.items).count { $0.originDigest != $1.originDigest } == 1)
        // An item removed (and the white space after it): no other item is made again.
        let first = try #require(text.range(of: "<item>")), firstEnd = try #require(text.range(of: "</item>", range: first.upperBound..<text.endIndex))
        let removed = Data(text.replacingCharacters(in: first.lowerBound..<firstEnd.upperBound, with: "").utf8)
        let afterRemoval = try parse(removed)
        #expect(parser.introsMade == count + 1)
        #expect(afterRemoval.items.count == count - 1)
        #expect(Self.fields(afterRemoval) == Self.fields(try Self.parsedWhole(removed, display: "feed")))
        // The feed's own title changed: every item is made again (their source is that title).
        let retitled = Data(String(decoding: edited, as: UTF8.self).replacingOccurrences(of: "<title>DeviantArt", with: "<title>Renamed").utf8)
        #expect(retitled != edited)
        let fourth = try parse(retitled)
        #expect(parser.introsMade == 2 * count + 1)
        #expect(Self.fields(fourth) == Self.fields(try Self.parsedWhole(retitled, display: "feed")))
    }

    /// Items of a local feed that read local images copy files, so they are never taken from the
    /// memo: a second parse registers their images again, named as the first time.
    @Test func itemsWithLocalImagesAreMadeEveryTime() throws {
        let content = try TestSupport.temporaryFolder()
        try Data("png".utf8).write(to: content.appending(path: "x.png"))
        let feed = Data("""
            <rss version="2.0" \(Self.media)><channel><title>T</title>
            <item><guid>1</guid><media:thumbnail url="x.png"/></item><item><guid>2</guid><media:thumbnail url="https://example.org/2.png"/></item>
            </channel></rss>
            """.utf8)
        let memoFile = content.appending(path: "memo")
        for _ in 0..<2 {
            let memo = BuildMemo(file: memoFile)
            let assets = LocalAssets(contentDirectory: content)
            let folder = content.appending(path: "feed.xml").deletingLastPathComponent()
            let parsed = try FeedParser.parse(feed, display: "feed.xml", localImage: { try? assets.register($0, relativeTo: folder) }, memo: memo)
            memo.save()
            #expect(parsed.items.map { $0.images.first?.url } == ["media/x.png", "https://example.org/2.png"])
            // The item made with a local file's name has no origin; the other has one.
            #expect(parsed.items.map { $0.originDigest == nil } == [true, false])
            #expect(assets.files.map(\.sitePath) == ["media/x.png"])
        }
    }

    /// A feed's items keep their origins through loading, with the source's name added (another
    /// name, other origins), and through the fingerprint's working out of their bodies' digests.
    @Test func originsSurviveTheSourceNameAndTheBodyDigest() async throws {
        let folder = try TestSupport.temporaryFolder()
        let feed = folder.appending(path: "Content/f.xml")
        try FileManager.default.createDirectory(at: feed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contentsOf: TestSupport.fixtures.appending(path: "feeds/deviantart-popular.xml")).write(to: feed)
        let context = BuildContext(root: folder, config: SiteConfig(title: "T"), theme: try Theme.load(siteRoot: folder), memo: BuildMemo())
        func origins(name: String) async throws -> [UInt64?] {
            try await FeedSource(location: .file(feed), displayName: name).loadItems(in: context).map(\.originDigest)
        }
        let named = try await origins(name: "Named")
        #expect(!named.isEmpty && named.allSatisfy { $0 != nil })
        #expect(try await origins(name: "Named") == named)
        #expect(zip(try await origins(name: "Other"), named).allSatisfy { $0 != $1 })
        var item = Item(id: "x", source: "s", title: "t", body: .html("<p>b</p>", base: nil))
        item.setOrigin(7)
        item.recordBodyDigest()
        #expect(item.originDigest == 7 && item.bodyDigest == Item.digest(of: item.body))
    }

    /// A broken item is reported exactly as a whole parse reports it (line and column).
    @Test func brokenItemsReportAsAWholeParse() throws {
        let broken = Data(Self.shapes["rss"]!.replacingOccurrences(of: "<title>Four</title>", with: "<title>Four</titel>").utf8)
        var cutError: BuildError?, wholeError: BuildError?
        do { _ = try FeedParser.parse(broken, display: "feed.xml") } catch { cutError = error }
        do { _ = try XMLTree.parse(broken, display: "feed.xml") } catch { wholeError = error }
        #expect(cutError != nil && cutError?.description == wholeError?.description)
    }

    /// Records give back exactly the items they were made of, whatever their strings hold, and
    /// damaged records give nothing. Read from a memo's file, they leave their bodies there until
    /// a body is read.
    @Test func recordsReadBackExactly() throws {
        var items = try Self.documents().flatMap { try FeedParser.parse($0.data, display: $0.name).items }
        var odd = Item(
            id: "-", source: "12:34", title: "", link: nil, body: .html("a\nb\u{0}c 🎬 5:x", base: URL(string: "https://example.org/a b/")),
            images: [ImageCandidate(url: "u", width: 0, height: nil, isThumbnail: true)], author: "-", date: Date(timeIntervalSince1970: -1.5),
            tags: ["", "-", "3:"])
        odd.intro = "é"
        items.append(odd)
        items.append(Item(id: "x", source: "s", title: "t", body: .text("plain")))
        for item in items {
            let record = try #require(FeedItemRecord.text(of: item))
            let back = try #require(FeedItemRecord.item(record))
            #expect(FeedItemRecord.text(of: back) == record)
            #expect(back.date == item.date && back.images == item.images && back.body == item.body && back.intro == item.intro)
            #expect(back.link == item.link && back.author == item.author && back.tags == item.tags && back.id == item.id)
            // The digest read back is the body's own.
            #expect(back.bodyDigest == Item.digest(of: back.body))
            for cut in [0, 3, record.utf8.count / 2, record.utf8.count - 1] {
                #expect(FeedItemRecord.item(String(decoding: Array(record.utf8).prefix(cut), as: UTF8.self)) == nil)
            }
        }
        let memoFile = try TestSupport.temporaryFolder().appending(path: "records.memo")
        let writing = BuildMemo(file: memoFile)
        for (key, item) in items.enumerated() { writing.store(try #require(FeedItemRecord.text(of: item)), for: UInt64(key)) }
        writing.save()
        let memo = BuildMemo(file: memoFile)
        for (key, item) in items.enumerated() {
            let back = try #require(FeedItemRecord.remembered(in: memo, key: UInt64(key)))
            #expect(back.bodyIsUndecoded && back.bodyForm == item.bodyForm)
            #expect(back.body == item.body && back.bodyDigest == item.bodyDigest)
            #expect(FeedItemRecord.text(of: back) == FeedItemRecord.text(of: item))
        }
    }
}

/// Parses feeds with a memo kept in a file between parses, as builds do, and counts the intros
/// made: an item taken from the memo makes none.
final class RememberingParser: Sendable {
    let memo: URL
    private let made = Locked(0)

    init(memo: URL) { self.memo = memo }

    var introsMade: Int { made.withLock { $0 } }

    func parse(_ data: Data, display: String) throws -> ParsedFeed {
        let memo = BuildMemo(file: memo)
        defer { memo.save() }
        let made = made
        return try FeedParser.parse(data, display: display, intro: { markup in
            made.withLock { $0 += 1 }
            return FeedIntro.text(of: markup)
        }, memo: memo)
    }
}
