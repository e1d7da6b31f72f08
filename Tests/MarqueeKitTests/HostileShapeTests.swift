import Foundation
import Testing
@testable import MarqueeKit

@Suite("Hostile shapes: no crash, no hang")
struct HostileShapeTests {
    @Test func deeplyNestedHTMLAndXMLAreBounded() throws {
        let html = String(repeating: "<div>", count: 50_000) + "deep" + String(repeating: "</div>", count: 50_000)
        #expect(HTMLSanitizer(base: nil).sanitize(html).contains("deep"))
        let xml = "<rss version=\"2.0\"><channel>" + String(repeating: "<x>", count: 10_000) + String(repeating: "</x>", count: 10_000) + "</channel></rss>"
        #expect(throws: BuildError.self) { try FeedParser.parse(Data(xml.utf8), display: "deep.xml") }
    }

    @Test func garbageNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["<rss version=\"2.0\">", "<channel>", "<item>", "<title>", "</title>", "&eacute;", "&#0;", "<![CDATA[", "]]>",
                      "<media:thumbnail url=\"x\"/>", "<feed xmlns=\"http://www.w3.org/2005/Atom\">", "<entry>", "{\"version\":", "\u{0}", "\u{FFFF}", "&", "<"]
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 1...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            _ = try? FeedParser.parse(Data(text.utf8), display: "fuzz.xml")
            _ = HTMLSanitizer(base: nil).sanitize(text)
            _ = try? JSONParser.parse(Data(text.utf8))
        }
    }
}
