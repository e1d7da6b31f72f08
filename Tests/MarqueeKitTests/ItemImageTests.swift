import Foundation
import Testing
@testable import MarqueeKit

@Suite("Thumbnails found where feeds put them")
struct ItemImageTests {
    func images(_ feed: String) throws -> [[String]] {
        try FeedParser.parse(Data(feed.utf8), display: "f.xml").items.map { $0.images.map(\.url) }
    }

    func rss(_ items: String) -> String {
        """
        <?xml version="1.0"?><rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"
          xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>F</title>
          <link>https://blog.example.org/</link>\(items)</channel></rss>
        """
    }

    /// An item whose only picture is inside its HTML gets it as its image, resolved against the
    /// item's address; tracking pixels and icons stated smaller than a cell's box are passed over.
    @Test func firstImageOfTheHTMLWhenTheFeedGivesNone() throws {
        let found = try images(rss("""
            <item><title>A</title><link>https://blog.example.org/a</link>
              <description><![CDATA[<p>Hi<img src="/pixel.gif" width="1" height="1"> <img src="icon.png" width="32">
              <img src="photos/big.jpg" width="800" height="600"> <img src="second.jpg"></p>]]></description></item>
            <item><title>B</title><description>&lt;p&gt;No picture here.&lt;/p&gt;</description></item>
            <item><title>C</title><media:thumbnail url="https://cdn.example.org/c.jpg"/>
              <description><![CDATA[<img src="https://blog.example.org/in-body.jpg">]]></description></item>
            <item><title>D</title><description><![CDATA[<img src="javascript:alert(1)"><img src="data:text/html,x">]]></description></item>
            """))
        #expect(found == [
            ["https://blog.example.org/photos/big.jpg"],
            [],
            ["https://cdn.example.org/c.jpg"],  // the feed's own thumbnail wins
            [],
        ])
    }

    /// In a `media:group`, the content marked `isDefault` is the one a cell uses when no sizes are stated.
    @Test func theDefaultContentOfAGroupComesFirst() throws {
        let found = try images(rss("""
            <item><title>G</title><media:group>
              <media:content url="https://cdn.example.org/small.jpg" medium="image"/>
              <media:content url="https://cdn.example.org/default.jpg" medium="image" isDefault="true"/>
            </media:group></item>
            """))
        #expect(found == [["https://cdn.example.org/default.jpg", "https://cdn.example.org/small.jpg"]])
        let item = try FeedParser.parse(Data(rss("<item><title>G</title><media:group><media:content url=\"https://c/a.jpg\" medium=\"image\"/><media:content url=\"https://c/b.jpg\" medium=\"image\" isDefault=\"true\"/></media:group></item>").utf8), display: "f.xml").items[0]
        #expect(ImageChoice.bestFit(item.images, box: 100)?.url == "https://c/b.jpg")
    }

    @Test func podcastImagesAndJSONFeedImages() throws {
        let podcast = try images(rss("""
            <item><title>E</title><itunes:image href="https://cdn.example.org/episode.jpg"/>
              <description><![CDATA[<img src="https://blog.example.org/body.jpg">]]></description></item>
            """))
        #expect(podcast == [["https://cdn.example.org/episode.jpg"]])
        let json = #"""
            {"version": "https://jsonfeed.org/version/1.1", "title": "J", "home_page_url": "https://j.example.org/",
             "items": [
               {"id": "1", "url": "https://j.example.org/1", "content_html": "<p><img src=\"/one.jpg\" width=\"400\"></p>"},
               {"id": "2", "banner_image": "https://j.example.org/banner.jpg", "content_html": "<img src=\"/two.jpg\">"}
             ]}
            """#
        #expect(try images(json) == [["https://j.example.org/one.jpg"], ["https://j.example.org/banner.jpg"]])
        let atom = """
            <?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><id>urn:a</id>
            <entry xml:base="https://a.example.org/"><title>E</title><id>urn:e</id><link href="https://a.example.org/e"/>
              <content type="html">&lt;img src="pics/e.png"&gt;</content></entry></feed>
            """
        #expect(try images(atom) == [["https://a.example.org/pics/e.png"]])
    }
}
