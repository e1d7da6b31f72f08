import CCmark
import Foundation
import Testing
@testable import MarqueeKit

@Suite("Markdown and text")
struct MarkupTests {
    @Test func cmarkSafeModeOmitsRawHTMLAndUnsafeLinks() {
        let html = MarkdownRenderer.render("Hi <script>alert(1)</script> [x](javascript:alert(1)) **b**") { url, role in
            URLPolicy.resolveWeb(url, role: role, base: nil)
        }
        #expect(!html.contains("<script>"))
        #expect(!html.contains("javascript"))
        #expect(html.contains("<strong>b</strong>"))
    }

    @Test func introsAreCutOnAWordBoundary() {
        let text = String(repeating: "word ", count: 60)
        let cut = TextTruncation.truncate(text, to: 200)
        #expect(cut.hasSuffix("word…"))
        #expect(cut.count <= 201)
        #expect(TextTruncation.truncate("short", to: 200) == "short")
        // Text whose first bytes are ASCII is cut as bytes: exactly as counting characters cuts it,
        // whatever follows (accents, combining marks, CR LF, emoji).
        let pieces = ["a", "bc", " ", "  ", "\n", ",", ";", ":", "-", "word ", "é", "e\u{301}", "\r\n", "🎬", "x\u{200D}"]
        var random = SeededRandom(seed: 200)
        var cutAsBytes = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...30, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let limit = Int.random(in: 0...40, using: &random)
            #expect(TextTruncation.truncate(text, to: limit) == TextTruncation.truncateByCharacters(text, to: limit), "\(text.debugDescription) \(limit)")
            if text.utf8.count > limit, text.utf8.prefix(limit + 1).allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { cutAsBytes += 1 }
        }
        #expect(cutAsBytes > 1_000)
    }

    @Test func textBlocksFollowTheHTMLStructure() {
        let blocks = TextBlocks.blocks(fromHTML: "<p>One  <strong>two</strong>\n three</p><ul><li>a</li><li>b<br>c</li></ul>")
        #expect(blocks.count == 3)
        #expect(blocks[0].runs == [TextRun("One "), TextRun("two", bold: true), TextRun(" three")])
        #expect(blocks[1].kind == .listItem(level: 1))
        #expect(blocks[2].plainText == "b\nc")
    }

    /// The layout reads Markdown's text from cmark's tree instead of parsing the HTML again;
    /// both ways must find the same blocks, runs and styles.
    @Test(arguments: [
        "Plain *emphasis*, **strong**, `code  with  spaces` and a [link](https://example.org \"t\").",
        "# Heading\n\nA paragraph\nwith a soft break and a hard one  \nhere.\n\n---\n\n> Quoted\n> > twice",
        "- tight\n- list\n  - nested\n  - items\n- back",
        "1. loose\n\n2. list\n\n   with two paragraphs\n\n3. end",
        "- item\n  ```\n  code in a tight item\n  ```\n  after the code",
        "```swift\nlet a  =  1\r\n\r\nlet b = 2\r```\n\n    indented\n    code\n",
        "Raw <span>inline</span> and\n\n<div>\nblock html\n</div>\n\nafter",
        "![alt text](https://example.org/a.png) beside [![inner](x.png)](https://example.org) and [bad](javascript:alert(1))",
        "\"Smart\" quotes -- and --- dashes... &amp; &copy; entities &#x1F3BB; \u{0} nul",
        "* * *\n+ a\n\n  b\n+ c\n\n1) x\n2) y",
        "Trailing spaces   \n\n\n   \t  \n",
        "Controls \u{12}a[b](jc)> \u{7F}\u{85}\(Character(Unicode.Scalar(0xFDD0)!))\(Character(Unicode.Scalar(0xFFFE)!))\(Character(Unicode.Scalar(0x1FFFF)!)) \u{C}form feed\r\ncarriage\rreturns",
    ])
    func markdownTextFromTheTreeMatchesTheHTML(_ markdown: String) {
        let resolve = { (url: String, role: URLRole) in URLPolicy.resolveWeb(url, role: role, base: nil) }
        let html = MarkdownRenderer.render(markdown, resolve: resolve)
        let blocks = MarkdownRenderer.textBlocks(of: markdown)
        #expect(blocks == TextBlocks.blocks(fromHTML: html))
        #expect(blocks?.isEmpty == false)
        // The markup stage renders and reads the blocks from one parse: the same HTML, the same blocks.
        let rendered = MarkdownRenderer.renderWithTextBlocks(markdown, resolve: resolve)
        #expect(rendered.html == html)
        #expect(rendered.textBlocks == blocks)
    }

    @Test func preformattedBlocksKeepTheirLastLine() {
        // An empty line in a code block is a line the browser lays out; spaces elsewhere collapse.
        let blocks = TextBlocks.blocks(fromHTML: "<pre><code>\n</code></pre><p> <b>a </b> <br> </p><pre><b>x</b>\n</pre>")
        #expect(blocks == [
            TextBlock(kind: .preformatted, runs: [TextRun("")]),
            TextBlock(kind: .paragraph, runs: [TextRun("a", bold: true)]),
            TextBlock(kind: .preformatted, runs: [TextRun("x", bold: true), TextRun("")]),
        ])
    }

    /// cmark allocates from a per-thread arena (`CmarkArena`); the HTML must be what cmark makes
    /// with its own allocator, for documents of any size and on many threads at once.
    @Test func markdownInTheArenaMatchesCmarksOwnAllocator() {
        func reference(_ markdown: String) -> String {
            var markdown = markdown
            let options = CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_SMART
            let document = markdown.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { cmark_parse_document($0.baseAddress, $0.count, options) }
            }!
            defer { cmark_node_free(document) }
            let html = cmark_render_html(document, options)!
            defer { free(html) }
            return String(cString: html)
        }
        let pieces = ["# Title\n", "Some *text* and **more** ", "- a\n- b\n", "```\ncode\n```\n", "> quote\r\n", "[link][r]\n\n[r]: https://example.org\n", "`x`", "\u{0}", "日本語 "]
        var documents = (0..<300).map { index in (0..<(index % 13)).map { pieces[($0 * 7 + index) % pieces.count] }.joined() }
        // Larger than the arena's chunks, and a last line without a line feed.
        documents.append(String(repeating: "A long paragraph of words that goes on. ", count: 20_000) + "\n\n- end")
        let rendered = documents.concurrentMap { markdown in MarkdownRenderer.render(markdown) { url, _ in url } }
        for (index, (markdown, html)) in zip(documents, rendered).enumerated() {
            let isSame = html == reference(markdown)
            #expect(isSame, "document \(index) (\(markdown.utf8.count) bytes) renders differently")
        }
    }

    /// Text with nothing to collapse is copied whole; the vectorised test for that must agree
    /// with collapsing the text byte by byte and comparing.
    @Test func theCollapsingShortcutMatchesItsDefinition() {
        var random = SeededRandom(seed: 0x636f_6c6c_6170_7365)
        let pieces = ["a", "bc", " ", "  ", "\t", "\n", "\r", "\u{0C}", "\u{0B}", "\u{08}", "\u{0E}", "é", "日本", "x y", String(repeating: "word ", count: 7)]
        var shortcuts = 0
        for _ in 0..<20_000 {
            let text = random.joining(pieces, count: 0...12)
            let afterSpace = Bool.random(using: &random)
            var collapsed: [UInt8] = []
            var lastWasSpace = afterSpace
            for byte in text.utf8 {
                if [0x20, 0x0A, 0x09, 0x0D, 0x0C].contains(byte) {
                    if !lastWasSpace { collapsed.append(0x20) }
                    lastWasSpace = true
                } else {
                    collapsed.append(byte)
                    lastWasSpace = false
                }
            }
            let expected = collapsed == Array(text.utf8)
            let found = TextBlockBuilder.hasNothingToCollapse(text.utf8, afterSpace: afterSpace)
            #expect(found == expected, "\(Array(text.utf8)) after a space: \(afterSpace)")
            if found != expected { break }
            if found { shortcuts += 1 }
        }
        #expect(shortcuts > 1_000)
    }

    /// The vectorised check that a cmark literal passes to the layout as it is: printable ASCII,
    /// tabs and line feeds only.
    @Test func thePlainTextCheckMatchesItsDefinition() {
        var random = SeededRandom(seed: 0x706c_6169_6e)
        let bytes: [UInt8] = [0x00, 0x08, 0x09, 0x0A, 0x0B, 0x0D, 0x1F, 0x20, 0x41, 0x61, 0x7E, 0x7F, 0x80, 0xC3, 0xA9, 0xFF]
        for _ in 0..<20_000 {
            // Mostly letters, so that long plain texts with one odd byte anywhere come up.
            let text = (0..<Int.random(in: 0...70, using: &random)).map { _ in
                Int.random(in: 0..<4, using: &random) == 0 ? bytes.randomElement(using: &random)! : 0x61
            }
            let expected = text.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x09 }
            let found = text.withUnsafeBufferPointer(MarkdownTree.isPlain)
            #expect(found == expected, "\(text)")
            if found != expected { break }
        }
    }

    /// Titles, authors and sources are trimmed without asking Foundation when their ends are
    /// plain ASCII; the result must be Foundation's either way.
    @Test func trimmingMatchesFoundation() {
        var random = SeededRandom(seed: 0x7472_696d)
        let pieces = ["a", "Z", " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{1C}", "\u{1F}", "\u{85}", "\u{A0}", "\u{2028}", "\u{3000}", "é", "-", "日"]
        for _ in 0..<5_000 {
            let text = random.joining(pieces, count: 0...6)
            #expect(text.trimmed() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(text.unicodeScalars))")
            #expect(text.trimmed(newlines: false) == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func deepMarkdownFallsBackToTheHTML() {
        let markdown = String(repeating: "> ", count: 150) + "deep"
        #expect(MarkdownRenderer.textBlocks(of: markdown) == nil)
        #expect(MarkdownRenderer.renderWithTextBlocks(markdown) { url, _ in url }.textBlocks == nil)
        #expect(TextBlocks.plainText(fromHTML: MarkdownRenderer.render(markdown) { url, _ in url }) == "deep")
    }

    @Test func strictJSONReportsLineAndColumn() throws {
        #expect { try JSONParser.parse(Data("{\n  \"a\": [1, 2,]\n}".utf8)) } throws: { error in
            let error = error as! JSONSyntaxError
            return error.line == 2 && error.column == 14 && error.message.contains("trailing comma")
        }
        #expect(try JSONParser.parse(Data(#"{"a": "\u00e9\ud83c\udfbb", "b": [true, null, -1.5e2]}"#.utf8))["a"] == .string("é🎻"))
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Data(deep.utf8)) }
    }

    /// Strings of every length and mix (quotes, backslashes, escapes, control characters, multi-byte
    /// text, at every offset of the eight-byte scan) read back as Foundation's encoder wrote them.
    @Test func jsonStringsReadBackExactly() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "plain words ", "\"", "\\", "/", "\n", "\t", "\u{1}", "é", "🎻", "\u{2028}", "<", "0123456789abcdef"]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let document = try JSONSerialization.data(withJSONObject: ["k": text, "n": [text, text + "x"]])
            let parsed = try JSONParser.parse(document)
            #expect(parsed["k"] == .string(text))
            #expect(parsed["n"] == .array([.string(text), .string(text + "x")]))
        }
        // A raw control character is refused where it stands, after a long plain run.
        #expect { try JSONParser.parse(Data("{\"k\": \"0123456789abcdef\u{1}\"}".utf8)) } throws: { error in
            let error = error as! JSONSyntaxError
            return error.line == 1 && error.column == 24 && error.message.contains("control character")
        }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Data([0x22, 0x61, 0xC3, 0x28, 0x22])) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Data(#""a\qb""#.utf8)) }
        // Invalid UTF-8 is refused with or without escapes in the string.
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22]] {
            #expect { try JSONParser.parse(Data(bytes)) } throws: { ($0 as! JSONSyntaxError).message.contains("not valid UTF-8") }
        }
    }

    /// The parser's UTF-8 check agrees with the standard library's validating initializer on
    /// random bytes: mostly valid text with a few bytes changed, and lone bytes of every value.
    @Test func utf8CheckMatchesTheStandardLibrary() {
        var generator = SystemRandomNumberGenerator()
        var samples: [[UInt8]] = (0...255).map { [UInt8($0)] } + [[], [0xEF, 0xBF, 0xBD]]
        let text = Array("Café 🎻 naïve — ｆｕｌｌ plain".utf8)
        for _ in 0..<5_000 {
            var bytes = Array(text[0..<Int.random(in: 0...text.count, using: &generator)])
            for _ in 0..<Int.random(in: 0...2, using: &generator) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            samples.append(bytes)
        }
        for bytes in samples {
            let ours = JSONParser.string(validatingUTF8: bytes[...])
            #expect(ours == String(validating: bytes, as: UTF8.self), "\(bytes)")
        }
    }

    /// The search index's strings, escaped byte by byte, read back exactly with Foundation's
    /// parser, and never hold a raw `<` or control character.
    @Test func searchIndexStringsReadBackExactly() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "plain words ", "\"", "\\", "/", "\n", "\r", "\t", "\u{1}", "\u{1F}", "é", "🎻", "\u{2028}", "</script>"]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            var json: [UInt8] = []
            SiteFilesWriter.appendJSONString(text, to: &json)
            #expect(!json.contains(UInt8(ascii: "<")) && !json.contains { $0 < 0x20 })
            let parsed = try JSONSerialization.jsonObject(with: Data(json), options: .fragmentsAllowed) as? String
            #expect(parsed == text)
        }
    }

    @Test func feedDatesWithZoneNames() {
        let pst = FeedDate.parse("Sat, 08 Nov 2014 14:30:02 PST")
        let utc = FeedDate.parse("2014-11-08T22:30:02Z")
        #expect(pst != nil && pst == utc)
        #expect(FeedDate.parse("Wed, 05 Nov 2014 08:00:00 +0000") == FeedDate.parse("2014-11-05T09:00:00+01:00"))
        #expect(FeedDate.parse("not a date") == nil)
        // Dates with a character beyond ASCII are split by characters, the others by bytes: alike.
        #expect(FeedDate.parse("Sat, 08 Nov 2014 14:30:02 PST \u{E9}t\u{E9}") == pst)
        #expect(FeedDate.parse("Sat,\u{A0}08 Nov 2014 14:30:02 PST") == nil)
        // Dates are made by arithmetic; Foundation's calendar agrees, days past a month's end,
        // leap seconds and odd offsets included.
        var random = SeededRandom(seed: 1_582)
        for _ in 0..<20_000 {
            let year = Int.random(in: 1583...2200, using: &random), month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...31, using: &random), hour = Int.random(in: 0...23, using: &random)
            let minute = Int.random(in: 0...59, using: &random), second = Int.random(in: 0...60, using: &random)
            let offset = Int.random(in: -14...14, using: &random) * 3_600 + Int.random(in: 0...3, using: &random) * 900
            let text = String(format: "%02d %@ %04d %02d:%02d:%02d %@%02d%02d", day, FeedDate.months[month - 1].capitalized, year, hour, minute, second,
                              offset < 0 ? "-" : "+", abs(offset) / 3_600, abs(offset) % 3_600 / 60)
            let expected = FeedDate.calendarDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
            #expect(FeedDate.parse(text) == expected, "\(text)")
        }
        #expect(FeedDate.parse("01 Jan 1200 00:00:00 GMT") == FeedDate.calendarDate(year: 1200, month: 1, day: 1, hour: 0, minute: 0, second: 0, offset: 0))
    }
}
