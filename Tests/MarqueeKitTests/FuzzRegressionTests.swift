import Foundation
import Testing
@testable import MarqueeKit

@Suite("Fuzzing regressions")
struct FuzzRegressionTests {
    /// Found by `scripts/fuzz feed`: a broken XML declaration, a second one naming ISO-8859-1, and
    /// a raw 0xFF byte inside an element name made FoundationXML trap. Now every document reaches
    /// libxml2 as valid UTF-8, so this is an ordinary parse error or a feed.
    @Test func latin1ByteInAnElementNameAfterABrokenDeclaration() throws {
        let folder = TestSupport.repository.appending(path: "Tests/FuzzRegressions/feed")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("crash-") }
        #expect(!inputs.isEmpty)
        for name in inputs {
            let data = try Data(contentsOf: folder.appending(path: name))
            _ = try? FeedParser.parse(data, display: name)
        }
        let declared = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss version=\"2.0\"><ch\u{FF}annel/></rss>".data(using: .isoLatin1)!)
        #expect(throws: BuildError.self) { try FeedParser.parse(declared, display: "x.xml") }
    }

    /// Found by fuzzing (Tests/FuzzRegressions/feed/crash-3464…): a processing instruction
    /// without data (`<?x?>`) crashed FoundationXML. Processing instructions are now removed
    /// before parsing, outside comments and CDATA, keeping line numbers.
    @Test func processingInstructionsAreIgnored() throws {
        let feed = """
            <?xml version="1.0"?>
            <?xml-stylesheet type="text/xsl" href="style.xsl"?><?empty?>
            <rss version="2.0"><channel><title>T</title>
            <item><title>A <?inside?>title</title><description><![CDATA[<p>keeps <?this?></p>]]></description></item>
            <!-- a comment with <?that?> -->
            </channel></rss>
            """
        let items = try FeedParser.parse(Data(feed.utf8), display: "pi.xml").items
        #expect(items.map(\.title) == ["A title"])
        // Found by fuzzing (crash-6b5d…): a comment or CDATA section holding a character XML
        // forbids ends there for libxml2, which reads on: the instructions inside are removed too.
        for section in ["<!--\u{12}<?x?>-->", "<!--\u{FFFE}<?x?>", "<![CDATA[\u{1}<?x?>]]>", "<!-- \u{B} <?x?>\n-->"] {
            let document = "<rss version=\"2.0\"><channel><title>T</title>\(section)<item><title>A</title></item></channel></rss>"
            _ = try? FeedParser.parse(Data(document.utf8), display: "s.xml")
            let removed = XMLTree.removingProcessingInstructions(Array(document.utf8))
            #expect(!String(decoding: removed, as: UTF8.self).contains("<?x?>"), "\(section.debugDescription)")
        }
        #expect(items.first.map { if case .html(let html, _) = $0.body { html.contains("<?this?>") } else { false } } == true)
        // Line numbers in errors still count the removed instruction's lines.
        let broken = "<?multi\nline\n?>\n<rss version=\"2.0\"><channel>\n<item></channel></rss>"
        #expect {
            try FeedParser.parse(Data(broken.utf8), display: "b.xml")
        } throws: { error in
            guard case .lineColumn(let line, _)? = (error as? BuildError)?.place else { return false }
            return line == 5
        }
    }
}
