import CCmark
import Foundation
import Mustache
import Testing
@testable import MarqueeKit

@Suite("Slugs", .removesTemporaryFolders)
struct SlugTests {
    @Test func slugsAreURLSafeAndNeverEscape() {
        #expect(Slug.make("La La Land") == "la-la-land")
        #expect(Slug.make("Café crème — naïve") == "cafe-creme-naive")
        #expect(Slug.make("../../etc/passwd") == "etc-passwd")
        #expect(Slug.make("/") == "")
        #expect(Slug.make("🎻🐒") == "")
        #expect(Slug.make(String(repeating: "long ", count: 40)).count <= 60)
    }

    /// The slug rules spelled out character by character, without `Slug.make`'s shortcuts (no
    /// folding for ASCII titles, stopping at the length limit): the two must agree on every title.
    private func referenceSlug(_ title: String) -> String {
        let folded = title.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var slug = ""
        var pendingHyphen = false
        for character in folded.unicodeScalars {
            if ("a"..."z").contains(character) || ("0"..."9").contains(character) || ("A"..."Z").contains(character) {
                if pendingHyphen && !slug.isEmpty { slug += "-" }
                slug += String(character).lowercased()
                pendingHyphen = false
            } else {
                pendingHyphen = true
            }
        }
        var cut = String(slug.prefix(60))
        while cut.hasSuffix("-") { cut.removeLast() }
        return cut
    }

    @Test func slugsFollowTheRulesForAnyTitle() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "Z", "7", " ", "-", "--", "É", "é", "ß", "Ⅻ", "ｆｕｌｌ", "🎻", "/", "..", "\u{0}", "\n", "Ünïcödé", "long"]
        var titles = ["", "-", "a-", "-a", String(repeating: "ab ", count: 30), String(repeating: "x", count: 59) + " y", String(repeating: "x", count: 60) + " y"]
        for _ in 0..<2_000 {
            titles.append((0..<Int.random(in: 1...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for title in titles {
            #expect(Slug.make(title) == referenceSlug(title), "\(title.debugDescription)")
        }
    }

    /// A rebuild takes the suffixes of repeated titles from the memo when its items ask for the
    /// same slugs in the same order: the same slugs and origins as working them out, any other
    /// order or damaged text working them out again.
    @Test func rememberedSuffixesGiveTheSameSlugs() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "slugs.memo")
        func items(_ titles: [String]) -> [Item] {
            titles.enumerated().map { Item(id: "id-\($0.offset)", source: "s", title: $0.element, body: .text("")) }
        }
        func assigned(_ titles: [String], memo: BuildMemo?) -> [(slug: String, origin: UInt64?)] {
            var list = items(titles)
            let bases = list.map(Slug.base(for:))
            if let memo { Slug.assign(to: &list, bases: bases, memo: memo) } else { Slug.assign(to: &list, bases: bases) }
            return list.map { ($0.slug, $0.originDigest) }
        }
        func same(_ a: [(slug: String, origin: UInt64?)], _ b: [(slug: String, origin: UInt64?)]) -> Bool {
            a.map(\.slug) == b.map(\.slug) && a.map(\.origin) == b.map(\.origin)
        }
        let titles = ["A", "A", "A 3", "B", "A", "b", "", "A"]
        let expected = assigned(titles, memo: nil)
        #expect(expected.map(\.slug).prefix(6) == ["a", "a-2", "a-3", "b", "a-4", "b-2"])
        let first = BuildMemo(file: file)
        #expect(same(assigned(titles, memo: first), expected))
        first.save()
        let second = BuildMemo(file: file)
        #expect(same(assigned(titles, memo: second), expected))
        // The remembered suffixes are what sets the slugs: text changed in the file shows.
        let key = Slug.suffixMemoKey(items(titles).map(Slug.base(for:)))
        #expect(second.value(for: key) == "0 2 0 0 4 2 0 5")  // "A 3" asks for a-3 itself
        let third = BuildMemo(file: file)
        third.store("0 7 0 0 4 2 0 5", for: key)
        third.save()
        #expect(assigned(titles, memo: BuildMemo(file: file))[1].slug == "a-7")
        // Text that is not one suffix (0 or 2 and more) per item is worked out again.
        for damaged in ["0 2 0 0 4 2 0", "0 2 0 0 4 2 0 5 0", "0 1 0 0 4 2 0 5", "0 2 0 0 4 2 0 x", "", "0  2 0 0 4 2 0 5", "0 2 0 0 4 2 0 5 "] {
            let memo = BuildMemo(file: file)
            memo.store(damaged, for: key)
            memo.save()
            #expect(same(assigned(titles, memo: BuildMemo(file: file)), expected), "\(damaged.debugDescription)")
        }
        // Other titles, or the same in another order, have suffixes of their own.
        let reordered = ["A", "b", "A 3", "B", "A", "A", "", "A"]
        #expect(same(assigned(reordered, memo: BuildMemo(file: file)), assigned(reordered, memo: nil)))
    }

    @Test func collisionsAndEmptyTitlesGetStableUniqueSlugs() {
        var items = ["Arrival", "Arrival", "🎻", "/", "", "arrival"].enumerated().map {
            Item(id: "id-\($0.offset)", source: "s", title: $0.element, body: .text(""))
        }
        Slug.assign(to: &items)
        let slugs = items.map(\.slug)
        #expect(slugs[0] == "arrival" && slugs[1] == "arrival-2" && slugs[5] == "arrival-3")
        #expect(Set(slugs).count == slugs.count)
        #expect(slugs[2].hasPrefix("item-") && slugs[3].hasPrefix("item-"))
        for slug in slugs { #expect(OutputSet.isSafe("items/\(slug)/index.html")) }
        var again = items
        Slug.assign(to: &again)
        #expect(again.map(\.slug) == slugs)
        // A title that is itself a numbered slug takes its number; the next repeat skips it.
        var numbered = ["A", "A", "A 3", "A", "A"].enumerated().map { Item(id: "n\($0.offset)", source: "s", title: $0.element, body: .text("")) }
        Slug.assign(to: &numbered)
        #expect(numbered.map(\.slug) == ["a", "a-2", "a-3", "a-4", "a-5"])
        for counter in [2, 9, 10, 99, 100, 12_345, 1_000_000] {
            #expect(Slug.suffixed("an-é-slug", counter) == "an-é-slug-\(counter)")
            #expect(PageWriter.detailPath(slug: "an-é-slug-\(counter)") == "items/an-é-slug-\(counter)/index.html")
        }
    }

    @Test func outputPathsMustStayInside() {
        #expect(!OutputSet.isSafe("../x"))
        #expect(!OutputSet.isSafe("/etc/x"))
        #expect(!OutputSet.isSafe("a/../../x"))
        #expect(!OutputSet.isSafe("a//b"))
        #expect(!OutputSet.isSafe("a\nb/index.html"))
        #expect(OutputSet.isSafe("items/a/index.html"))
        for unsafe in ["", ".", "..", "a/", "/a", "a/./b", "a/..", "./a", "a\\b", "a\u{7F}", "a\u{0}b"] { #expect(!OutputSet.isSafe(unsafe), "\(unsafe)") }
        for safe in ["...", "a/.b", "a/..b", "b../c", ".well-known/x", "été/ü"] { #expect(OutputSet.isSafe(safe), "\(safe)") }
    }

    /// The one-pass check against its definition (split into segments, refuse empty, `.` and
    /// `..` segments and control characters), on random paths of the characters that matter.
    @Test func outputPathCheckMatchesItsDefinition() {
        func reference(_ path: String) -> Bool {
            guard !path.isEmpty, !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }) else { return false }
            return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { $0 != "" && $0 != "." && $0 != ".." }
        }
        var random = SeededRandom(seed: 0x7061_7468)
        let pieces = ["a", "é", ".", "..", "/", "\\", "\n", "\u{7F}", "x.y"]
        var refused = 0
        for _ in 0..<20_000 {
            let path = random.joining(pieces, count: 0...7)
            #expect(OutputSet.isSafe(path) == reference(path), "\(path.debugDescription)")
            if !reference(path) { refused += 1 }
        }
        #expect(refused > 1_000 && refused < 19_000)  // both answers are exercised
    }

    /// Site-root markers are found wherever they are (start, end, beside partial markers and
    /// other `q`s) and only when whole.
    @Test func rootMarkersAreResolvedWhereverTheyAre() {
        let marker = SiteURL.rootMarker
        func reference(_ html: String, _ root: String) -> String {
            html.contains(marker) ? html.replacingOccurrences(of: marker, with: root) : html
        }
        #expect(SiteURL.resolveMarkers(in: "<img src=\"\(marker)media/a.png\">", root: "../../") == "<img src=\"../../media/a.png\">")
        #expect(SiteURL.resolveMarkers(in: marker, root: "R/") == "R/")
        #expect(SiteURL.resolveMarkers(in: "quiet queue \(marker.dropLast())", root: "R/") == "quiet queue \(marker.dropLast())")
        var random = SeededRandom(seed: 0x6d61_726b)
        let pieces = ["q", "m", "marquee-root", ":/", "arq", marker, String(marker.dropFirst()), String(marker.dropLast()), "é", " "]
        var resolved = 0
        for _ in 0..<20_000 {
            let html = random.joining(pieces, count: 0...6)
            let result = SiteURL.resolveMarkers(in: html, root: "../")
            #expect(result == reference(html, "../"), "\(html.debugDescription)")
            if result != html { resolved += 1 }
        }
        #expect(resolved > 1_000 && resolved < 19_000)
    }
}

@Suite("Sanitizer")
struct SanitizerTests {
    let sanitizer = HTMLSanitizer(base: URL(string: "https://example.org/feed/"))

    @Test func removesScriptsHandlersAndDangerousURLs() {
        let html = sanitizer.sanitize(#"""
            <p onclick="steal()">Hi<script>alert(1)</script><style>p{}</style></p>
            <a href="javascript:alert(1)">x</a><a href=" JaVa&#x09;ScRiPt:alert(1)">y</a>
            <img src=x onerror=alert(1)><img src="data:image/svg+xml,<svg onload=alert(1)>">
            <iframe src="https://evil.example"></iframe><form action="/x"><input name=a>text</form>
            <a href="vbscript:msgbox">v</a><svg><script>alert(1)</script></svg>
            """#)
        #expect(!html.contains("script"))
        #expect(!html.contains("onclick"))
        #expect(!html.contains("onerror"))
        #expect(!html.lowercased().contains("javascript"))
        #expect(!html.contains("data:"))
        #expect(!html.contains("iframe"))
        #expect(!html.contains("<form"))
        #expect(!html.contains("vbscript"))
        #expect(html.contains("<p>Hi</p>"))
        #expect(html.contains("text"))
        #expect(html.contains("<img src=\"https://example.org/feed/x\""))
    }

    @Test func resolvesRelativeURLsAndMarksLinks() {
        let html = sanitizer.sanitize(#"<a href="../about">about</a> <img src="/a.png" width="10" height="x">"#)
        #expect(html.contains(#"<a href="https://example.org/about" rel="noopener nofollow ugc">about</a>"#))
        #expect(html.contains(#"src="https://example.org/a.png" width="10" alt="" loading="lazy""#))
        #expect(!html.contains("height"))
    }

    @Test func headingsBecomeBoldParagraphsAndTextIsEscaped() {
        #expect(sanitizer.sanitize("<h1>Big</h1>") == "<p><strong>Big</strong></p>")
        #expect(sanitizer.sanitize("1 &lt; 2 &amp; 3") == "1 &lt; 2 &amp; 3")
        #expect(sanitizer.sanitize("<font color=red>kept text</font>") == "kept text")
    }
}

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
            var text = random.joining(pieces, count: 0...12)
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
            let found = text.withUTF8 { TextBlockBuilder.hasNothingToCollapse($0, afterSpace: afterSpace) }
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
            let ours = bytes.withUnsafeBufferPointer { JSONParser.string(validatingUTF8: $0) }
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

@Suite("Layout engine")
struct LayoutEngineTests {
    let engine: LayoutEngine

    init() throws {
        let metrics = ThemeMetrics()
        engine = LayoutEngine(metrics: metrics, measurer: try Theme.load(siteRoot: TestSupport.repository).measurer)
    }

    @Test func fontAdvancesComeFromTheFontFile() throws {
        let measurer = engine.lineBreaker.measurer
        let m = measurer.width(of: "M", bold: false, size: 15)
        let i = measurer.width(of: "i", bold: false, size: 15)
        #expect(m > 2 * i)
        #expect(measurer.width(of: "M", bold: true, size: 15) > m)
        // DejaVu Sans: 'M' advances 1767 of 2048 units.
        #expect(abs(m - 1767.0 / 2048.0 * 15) < 0.001)
        // Read straight from the file, outside the theme's cache: the same advance.
        #expect(try FontMetrics(contentsOf: ThemeMetrics().regularFont).advance(of: "M", size: 15) == m)
    }

    /// A font that is missing, a folder, or not a font fails the build naming the file.
    @Test func unusableFontsNameTheFile() {
        let readme = TestSupport.repository.appending(path: "README.md")
        let cases: [(URL, String)] = [
            (URL(fileURLWithPath: "/nonexistent/marquee-font.ttf"), "cannot read the theme's font"),
            (TestSupport.repository, "cannot read the theme's font"),
            (readme, "not a usable TrueType/OpenType font"),
        ]
        for (url, reason) in cases {
            var metrics = ThemeMetrics()
            metrics.regularFont = url
            #expect { _ = try Theme.load(siteRoot: TestSupport.repository, metrics: metrics).measurer } throws: { error in
                let message = (error as? BuildError)?.description ?? ""
                return message.contains(url.path) && message.contains(reason)
            }
        }
    }

    @Test func basicCellsCollapseToThreeLines() {
        let long = [TextBlock(kind: .paragraph, runs: [TextRun(String(repeating: "lorem ipsum dolor ", count: 40))])]
        let plan = engine.plan(title: "A title", description: long, hasImage: false)
        #expect(plan.template == .basic)
        for breakpoint in plan.breakpoints {
            #expect(breakpoint.collapsedLines == 3)
            #expect(breakpoint.isTruncated)
            #expect(breakpoint.expandedHeight > breakpoint.collapsedHeight)
        }
        // The phone is narrower than the tablet, so the same text needs more lines there.
        #expect(plan.breakpoints[0].descriptionLines > plan.breakpoints[1].descriptionLines)
    }

    @Test func imageCellsFitTheirLinesBesideTheImageBox() {
        let text = [TextBlock(kind: .paragraph, runs: [TextRun(String(repeating: "word ", count: 100))])]
        let short = engine.plan(title: "Moana", description: text, hasImage: true)
        let long = engine.plan(title: "Hunt for the Wilderpeople", description: text, hasImage: true)
        #expect(short.template == .image)
        // 100px box: one 24px title line + 4px gap leaves 72px = 3 lines of 22px; two title lines leave 2.
        #expect(short.breakpoints[0].collapsedLines == 3)
        #expect(long.breakpoints[0].titleLines == 2)
        #expect(long.breakpoints[0].collapsedLines == 2)
        #expect(short.breakpoints[0].collapsedHeight == 100 + 32)
    }

    @Test func shortTextIsNotTruncatedAndLongWordsWrapAnywhere() {
        let short = engine.plan(title: "T", description: [TextBlock(kind: .paragraph, runs: [TextRun("Short.")])], hasImage: false)
        #expect(short.breakpoints.allSatisfy { !$0.isTruncated && $0.descriptionLines == 1 })
        let word = String(repeating: "x", count: 200)
        let lines = engine.lineBreaker.lineCount([TextRun(word)], width: 300, size: 15)
        let perLine = Int((300 / engine.lineBreaker.measurer.width(of: "x", bold: false, size: 15)).rounded(.down))
        #expect(lines == (200 + perLine - 1) / perLine)
    }

    /// Space takes room on a line only after a word on it: after a word cut at its hyphen it
    /// does; at the start of a line and after a forced break it does not.
    @Test func spaceTakesRoomOnlyAfterAWord() {
        let breaker = engine.lineBreaker
        let size = engine.metrics.bodyFontSize
        func width(_ text: String) -> Double { breaker.measurer.width(of: text, bold: false, size: size) }
        let hyphenated = [TextRun("ab- cd")]
        #expect(breaker.lineCount(hyphenated, width: width("ab- cd") + 0.1, size: size) == 1)
        #expect(breaker.lineCount(hyphenated, width: width("ab- cd") - 0.1, size: size) == 2)
        #expect(breaker.lineCount(hyphenated, width: width("ab-cd") + 0.1, size: size) == 2)
        let line = max(width("ab"), width("cd")) + 0.1
        #expect(breaker.lineCount([TextRun("ab\n cd")], width: line, size: size) == 2)
        #expect(breaker.lineCount([TextRun("  cd")], width: width("cd") + 0.1, size: size) == 1)
    }

    /// Text in a common size is measured from ASCII tables, with words' letters added in a fast
    /// loop; every other size goes character by character. Both must break the same way.
    @Test func tableAndCharacterByCharacterMeasuringAgree() {
        let pieces = ["word", "a", "Longerword", " ", "  ", "-", "well-known", "\n", ".", ",", "!)", "“quoted”", "naïve", "日本語", "。", "x", "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM", "tab\tchar", "🎻"]
        var seed: UInt64 = 0x9E37_79B9  // a fixed sequence (a linear congruential generator)
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for _ in 0..<400 {
            let runs = (0..<(1 + next(3))).map { _ in
                TextRun((0..<next(40)).map { _ in pieces[next(pieces.count)] }.joined(), bold: next(2) == 0)
            }
            let preformatted = next(4) == 0
            for size in [engine.metrics.bodyFontSize, engine.metrics.titleFontSize] {
                let difference = LineBreakingCheck.difference(in: runs, size: size, preformatted: preformatted, engine: engine)
                #expect(difference == nil, "\(runs): \(String(describing: difference))")
            }
        }
    }

    @Test func bestFitPicksTheMediumThumbnail() {
        let candidates = [
            ImageCandidate(url: "s", width: 100, height: 150, isThumbnail: true),
            ImageCandidate(url: "m", width: 300, height: 450, isThumbnail: true),
            ImageCandidate(url: "l", width: 600, height: 900, isThumbnail: true),
            ImageCandidate(url: "full", width: 1200, height: 1800),
        ]
        #expect(ImageChoice.bestFit(candidates, box: 100)?.url == "m")
        #expect(ImageChoice.largest(candidates)?.url == "full")
    }

    /// Line counts are remembered between builds as text: they read back exactly, and text that
    /// is not line counts reads as nothing (the layout is then worked out again).
    @Test func lineCountsReadBackFromTheMemo() {
        let samples = [
            LayoutEngine.LineCounts(title: [1, 2, 3], description: [14, 9, 6], blocks: 4, isEstimated: false),
            LayoutEngine.LineCounts(title: [2], description: [0], blocks: 0, isEstimated: true),
            LayoutEngine.LineCounts(title: [], description: [], blocks: 1, isEstimated: false),
        ]
        for counts in samples {
            #expect(LayoutEngine.LineCounts(memoText: counts.memoText) == counts, "\(counts.memoText)")
        }
        for text in ["", "x 1 2 3", "- 1 2", "- 1 2 a", "e 1 99999999 2"] {
            #expect(LayoutEngine.LineCounts(memoText: text) == nil, "\(text)")
        }
    }

    /// A rebuild makes each plan straight from the remembered text: the same plan as from the
    /// counts read back, and none for text that is not counts for the engine's three breakpoints.
    @Test func plansMadeFromRememberedTextMatchPlansFromCounts() {
        var generator = SystemRandomNumberGenerator()
        var texts = ["- 1 1 6 1 3 1 4", "e 0 2 0 2 0 1 0", "-  3  1 9 1 5 1 4 ", "-7 1 2 3 4 5 6", "- 1 1 6 1 3 1", "- 1 1 6 1 3 1 4 1",
                     "- 1 1 6 1 3 1 4 1 1", "- 2 1", "-", "e", "", "x 1 1 1 1 1 1 1", "- 1 1 6 1 3 1 4x", "- 1 1 6 1 3 1 1000001"]
        for _ in 0..<2_000 {
            let numbers = (0..<Int.random(in: 0...9, using: &generator)).map { _ in Int.random(in: 0...40, using: &generator) }
            texts.append((Bool.random(using: &generator) ? "e" : "-") + numbers.map { " \($0)" }.joined())
        }
        for text in texts {
            for hasImage in [false, true] {
                let fromText = Array(text.utf8).withUnsafeBufferPointer { engine.plan(memoText: $0, hasImage: hasImage) }
                let counts = LayoutEngine.LineCounts(memoText: text)
                let expected = counts.flatMap { $0.title.count == engine.metrics.breakpoints.count ? engine.plan($0, hasImage: hasImage) : nil }
                #expect(fromText == expected, "\(text.debugDescription)")
            }
        }
    }
}

@Suite("Markdown URLs")
struct MarkdownURLTests {
    @Test func refusedLinksBecomeTextAndRefusedImagesDisappear() {
        let html = MarkdownRenderer.render("[bad](javascript:x) ![img](javascript:y) ![![inner](javascript:a)](javascript:b) [ok](https://e.org)") { url, role in
            URLPolicy.resolveWeb(url, role: role, base: nil)
        }
        #expect(html == "<p>bad   <a href=\"https://e.org\">ok</a></p>\n")
    }

    /// The fast paths (nothing to strip, nothing to encode) give what the general ones give.
    @Test(arguments: [
        "https://e.org/a?b=c&d=e#f", " https://e.org/x ", "java\tscript:alert(1)", "JAVASCRIPT:alert(1)", "\u{0}https://e.org",
        "https://e.org/a b", "https://e.org/é", "https://e.org/%zz", "https://e.org/a#b#c", "https://e.org/[x]", "mailto:a@b.org",
        "HTTPS://E.ORG/A", "data:image/png;base64,AA", "/rooted/path", "relative/path?q=1", "../up", "#anchor", "//e.org/x",
        "h\u{0301}ttp://e.org", "1http://x", "", " ", "https://e.org/\u{2028}",
    ])
    func urlChecksAgreeWithTheGeneralPath(_ raw: String) {
        let base = URL(string: "https://feeds.example.org/blog/post.html")
        for role in [URLRole.link, .image] {
            for base in [base, nil] {
                #expect(URLPolicy.resolveWeb(raw, role: role, base: base) == Self.reference(raw, role: role, base: base))
            }
        }
    }

    /// The URL rules spelled out with no shortcut, as the oracle for the test above.
    static func reference(_ raw: String, role: URLRole, base: URL?) -> String? {
        let url = String(String.UnicodeScalarView(raw.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }))
            .trimmingCharacters(in: CharacterSet(charactersIn: "\u{0}"..."\u{20}"))
        guard !url.isEmpty else { return nil }
        let keeps = CharacterSet.urlFragmentAllowed.union(["#", "%"])
        let colon = url.firstIndex(of: ":")
        let candidate = colon.map { String(url[..<$0]) } ?? ""
        let isScheme = colon != nil && candidate.first.map { $0.isASCII && $0.isLetter } == true
            && candidate.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        if isScheme {
            guard (role == .image ? ["http", "https"] : ["http", "https", "mailto"]).contains(candidate.lowercased()) else { return nil }
            return URL(string: url) != nil ? url : url.addingPercentEncoding(withAllowedCharacters: keeps)
        }
        if url.hasPrefix("#"), role == .link { return url }
        guard let base, ["http", "https"].contains(base.scheme?.lowercased() ?? "") else { return nil }
        let encoded = URL(string: url) != nil ? url : (url.addingPercentEncoding(withAllowedCharacters: keeps) ?? url)
        guard let resolved = URL(string: encoded, relativeTo: base)?.absoluteString,
              let scheme = resolved.split(separator: ":").first?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        return resolved
    }
}

@Suite("Change-detection hash")
struct StableHasherTests {
    func hash(_ text: String) -> UInt64 {
        var hasher = StableHasher("test")
        hasher.combine(text)
        return hasher.value
    }

    /// The memo keys of a killed-build test once collided for these descriptions (a weaker
    /// multiply-and-rotate mix); every numbered variant must hash apart.
    @Test func numberedTextsDoNotCollide() {
        #expect(hash("A description of movie 12 that is long enough") != hash("A description of movie 99 that is long enough"))
        let hashes = (0..<100_000).map { hash("A description of movie \($0) that is long enough to wrap over a few lines.") }
        #expect(Set(hashes).count == hashes.count)
    }

    @Test func everyByteAndBoundaryMatters() {
        // One of 66 bytes (a long text's first step in each lane, then two bytes), one of 150 (two steps per lane, then 22 bytes).
        let texts = ["The quick brown fox jumps over the lazy dog, twice, and then some!", String(String(repeating: "Pack my box with five dozen liquor jugs. ", count: 4).prefix(150))]
        for text in texts {
            let base = Array(text.utf8)
            var seen: Set<UInt64> = [hash(String(decoding: base, as: UTF8.self))]
            for index in base.indices {
                for flip in [UInt8(1), 0x20, 0x40] {
                    var changed = base
                    changed[index] ^= flip
                    seen.insert(hash(String(decoding: changed, as: UTF8.self)))
                }
            }
            #expect(seen.count == 1 + base.count * 3, "\(base.count) bytes")
        }
        var split = StableHasher("test")
        split.combine("ab")
        split.combine("c")
        var other = StableHasher("test")
        other.combine("a")
        other.combine("bc")
        #expect(split.value != other.value)
    }

    /// A string is hashed as exactly its UTF-8 bytes, whether it is stored inline (up to 15
    /// bytes), in its own buffer, or taken from a larger string.
    @Test func aStringHashesAsItsBytes() {
        let long = String(repeating: "Ünïcödé and ASCII, ", count: 9)
        for text in ["", "short", "fifteen bytes!!", long, String(long.dropFirst(3)), String(long.prefix(20))] {
            var asText = StableHasher("test"), asBytes = StableHasher("test")
            asText.combine(text)
            asBytes.combine(bytes: Data(text.utf8))
            #expect(asText.value == asBytes.value, "\(text.utf8.count) bytes")
        }
    }

    /// Long texts are hashed in four lanes of sixteen-byte steps, then the words past the last
    /// 64 bytes one by one: words that trade places, between lanes, within a step, between steps
    /// of one lane or with the words after the lanes, must still change the hash.
    @Test func wordOrderMattersInLongTexts() {
        let words = (0..<20).map { String(format: "word%04d", $0) }  // eight bytes each
        var seen: Set<UInt64> = [hash(words.joined())]
        for first in words.indices {
            for second in words.indices where second > first {
                var swapped = words
                swapped.swapAt(first, second)
                seen.insert(hash(swapped.joined()))
            }
        }
        #expect(seen.count == 1 + words.count * (words.count - 1) / 2)
    }

    /// The tail of fewer than eight bytes after the last whole word, read with one load when the
    /// bytes are eight or more, is the same word as read byte by byte (memo keys written by
    /// earlier builds stay valid).
    @Test func theTailWordIsItsBytesInOrder() {
        let bytes = (0..<24).map { UInt8(0xA0 + $0) }
        for count in 0...bytes.count {
            bytes.prefix(count).withUnsafeBytes { raw in
                for offset in (count - Swift.min(7, count))...count {
                    var expected: UInt64 = 0
                    for (shift, byte) in raw[offset...].enumerated() { expected |= UInt64(byte) << UInt64(8 * shift) }
                    #expect(raw.tailWord(from: offset) == expected, "\(count) bytes from \(offset)")
                }
            }
        }
    }
}

@Suite("Numbers in reports and stylesheets")
struct NumberTextTests {
    /// Seconds in reports are written as `%.Nf` writes them (ties to even, as printf's exact
    /// decimal rounding gives for these values).
    @Test func fixedPointMatchesPrintf() {
        let values = [0, 0.004, 0.0049, 0.125, 0.375, 0.5, 1.5, 2.5, 0.999, 1.234567, 12.3456, 99.996, 1234.5678, 59.95, -0.4, -1.25, -0.0004, 1e-9]
        for value in values {
            for decimals in 0...3 {
                #expect(value.fixedPoint(decimals: decimals) == String(format: "%.\(decimals)f", value), "\(value) to \(decimals)")
            }
        }
    }

    /// The fallback font's unicode-range lists each range in upper-case hex of at least four digits.
    @Test func unicodeRangesAreUpperCaseHex() {
        var metrics = ThemeMetrics()
        metrics.fallbackRanges = [0x0530...0x058F, 0xAC00...0xD7AF, 0x1F300...0x1FAFF, 0x20...0x7E]
        let css = ThemeStylesheet.css(for: metrics, regularFont: "r.ttf", boldFont: "b.ttf", fallbackFont: "f.ttf")
        #expect(css.contains("unicode-range: U+0530-058F, U+AC00-D7AF, U+1F300-1FAFF, U+0020-007E;"))
    }
}

/// Settings are compared between builds, in separate processes, by their description.
@Suite("Stable descriptions")
struct StableDescriptionTests {
    struct Settings {
        var name: String
        var limits: [String: Int]
        var tags: Set<String>
        var option: PluginOptionValue?
        var link: URL?
    }

    /// Entries inserted in another order into a dictionary of another capacity: the same
    /// contents, listed in another order (found by trying capacities).
    func reordered(_ limits: [String: Int]) throws -> [String: Int] {
        try #require((1...64).lazy.map { TestSupport.reinserted(limits, capacity: $0 * 8) }.first { Array($0.keys) != Array(limits.keys) })
    }

    @Test func dictionariesAndSetsDescribeAlikeInAnyOrder() throws {
        let limits = Dictionary(uniqueKeysWithValues: (1...12).map { ("key\($0)", $0) })
        let settings = Settings(name: "a", limits: limits, tags: ["x", "y", "z"], option: .int(3), link: URL(string: "https://example.org/a/"))
        var shuffled = settings
        shuffled.limits = try reordered(limits)
        shuffled.tags = Set(minimumCapacity: 64)
        shuffled.tags.formUnion(["z", "y", "x"])
        #expect("\(shuffled.limits)" != "\(settings.limits)", "the dictionaries should list their entries in different orders")
        #expect(StableDescription.of(shuffled) == StableDescription.of(settings))

        let described = StableDescription.of(settings)
        #expect(described.contains("\"https://example.org/a/\"") && described.contains("int: 3") && described.contains("\"key12\", value: 12"))
        // Any changed value shows.
        var changed = [settings, settings, settings, settings, settings]
        changed[0].name = "b"
        changed[1].limits["key7"] = 8
        changed[2].tags.insert("w")
        changed[3].option = .bool(true)
        changed[4].link = nil
        #expect(Set(changed.map(StableDescription.of)).count == changed.count)
        #expect(!changed.map(StableDescription.of).contains(described))
        // Text cannot pass for the punctuation between entries.
        #expect(StableDescription.of(["a": "x\", value: \"y"]) != StableDescription.of(["a": "x", "value": "y"]))
    }

    /// The leaves described by their own types read as the general cases make them.
    @Test func leavesReadAsReflectionMakesThem() throws {
        let leaves: [Any] = ["plain", "quote \" and \\ and \n", "", 0, -42, Int.max, 1.5, 0.1, -0.0, Double.infinity, true, false]
        for leaf in leaves { #expect(StableDescription.of(leaf) == String(reflecting: leaf)) }
        let url = try #require(URL(string: "https://example.org/a b?q=\"x\""))
        #expect(StableDescription.of(url) == String(reflecting: url.description))
        let missing: String? = nil, present: String? = "x"
        #expect(StableDescription.of(missing as Any) == "nil" && StableDescription.of(present as Any) == "\"x\"")
    }

    /// A configuration with every setting given.
    static func fullConfig() throws -> SiteConfig {
        var source = SourceConfig(type: "feed", path: "a.xml", name: "A", limit: 5, place: .lineColumn(line: 3, column: 5))
        source.url = URL(string: "https://example.org/feed.xml")
        var config = SiteConfig(title: "T \"quoted\"", description: "D", language: "fr", expand: .single, titleFallback: "F", introLength: 90,
                                sources: [source, SourceConfig(type: "movies", path: "m.json")], file: "/somewhere/Content/site.yml")
        config.baseURL = URL(string: "https://example.org/site/")
        config.pageSize = 20
        config.deploy = DeployConfig(git: "git@example.org:a/b.git", branch: "pages")
        config.plugins = Dictionary(uniqueKeysWithValues: (1...12).map { index in
            ("plugin\(index)", PluginSetting(enabled: index % 2 == 0, options: ["n": .int(index), "b": .bool(true), "s": .string("x\(index)")]))
        })
        return config
    }

    /// The settings' description, written out field by field, names every field of the
    /// settings' types (found by reflection here, so a field added later and left out of it
    /// fails this test), shows any change, leaves out where the settings were read from, and
    /// lists plugins the same in any order.
    @Test func settingsDescriptionCoversEveryField() throws {
        let config = try Self.fullConfig()
        let described = config.outputSettings
        // The labels of `value`'s fields, and of the fields of the settings' types in them (in an
        // optional, an array or a dictionary's values).
        func labels(of value: Any) -> [String] {
            let children = Mirror(reflecting: value).children
            return children.compactMap(\.label) + children.flatMap { child in settingsValues(in: child.value).flatMap(labels(of:)) }
        }
        func settingsValues(in value: Any) -> [Any] {
            let mirror = Mirror(reflecting: value)
            // (Checked after optionals, which `is` would look through.)
            if mirror.displayStyle != .optional, value is SourceConfig || value is DeployConfig || value is PluginSetting { return [value] }
            switch mirror.displayStyle {
            case .optional?, .collection?: return mirror.children.flatMap { settingsValues(in: $0.value) }
            case .dictionary?: return mirror.children.flatMap { entry in Mirror(reflecting: entry.value).children.dropFirst().flatMap { settingsValues(in: $0.value) } }
            default: return []
            }
        }
        let everyLabel = Set(labels(of: config)).subtracting(["file", "place"])
        #expect(everyLabel.isSuperset(of: ["title", "sources", "limit", "deploy", "branch", "plugins", "enabled", "options"]))
        for label in everyLabel { #expect(described.contains(label + ": "), "\(label) is not described") }
        #expect(!described.contains("somewhere") && !described.contains("3:5"))

        var reordered = config
        reordered.plugins = TestSupport.reinserted(config.plugins, capacity: 256)
        reordered.file = "Content/site.yml"
        reordered.sources[0].place = nil
        #expect(reordered.outputSettings == described)

        var changed = Array(repeating: config, count: 8)
        changed[0].title = "T"
        changed[1].sources[0].limit = 6
        changed[2].sources[0].url = nil
        changed[3].plugins["plugin3"]?.options["n"] = .int(4)
        changed[4].plugins["plugin3"]?.enabled = true
        changed[5].deploy?.branch = "main"
        changed[6].pageSize = 21
        changed[7].baseURL = nil
        let texts = changed.map(\.outputSettings)
        #expect(Set(texts).count == texts.count && !texts.contains(described))
        // Text cannot pass for the punctuation around it.
        changed[0].title = #"T", description: "D"#
        changed[1].title = "T"
        changed[1].description = "D"
        #expect(changed[0].outputSettings != changed[1].outputSettings)
    }
}

/// Item ids and fallback slugs appear in URLs: their hash must never change. The expected
/// values were computed with an independent FNV-1a (Python) over the same parts.
@Suite("URL hash")
struct URLHashTests {
    @Test func itemIdHashIsFNV1aOverItsParts() {
        #expect(StableHash.hex("movies", "Arrival", "A linguist is recruited.", "") == "b949c2821f55eeea")
        #expect(StableHash.hex("Café 🎻") == "f0de7dc1fc35c74e")
        var parts = StableHash.Parts()
        for part in ["movies", "Arrival", "A linguist is recruited."] { parts.add(part) }
        parts.add("")
        #expect(parts.hex == "b949c2821f55eeea")
    }

    /// Hashing many lists side by side gives each list the hash that adding its parts one by one
    /// gives, whatever the number of lists and the lengths of their parts.
    @Test func hashingSideBySideMatchesOneByOne() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["", "a", "movies", "Café 🎻", String(repeating: "long text ", count: 40), "\n\"", String(repeating: "é", count: 300)]
        for count in [0, 1, 2, 3, 4, 5, 7, 8, 9, 64, 200] {
            let lists = (0..<count).map { _ in
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    pieces.randomElement(using: &generator)! + String(Int.random(in: 0...1_000, using: &generator))
                }
            }
            let sideBySide = StableHash.Parts.of(lists)
            #expect(sideBySide.count == lists.count)
            for (list, hash) in zip(lists, sideBySide) {
                var oneByOne = StableHash.Parts()
                for part in list { oneByOne.add(part) }
                #expect(hash.hex == oneByOne.hex, "\(list)")
            }
        }
    }
}

@Suite("Build state", .removesTemporaryFolders)
struct BuildStateTests {
    @Test func stateSurvivesItsTextForm() throws {
        let state = BuildState(
            fingerprint: "0123abcd", environment: "e5", inputs: "9f0e", items: 2, pages: 2,
            files: [
                "index.html": FileRecord(stamp: FileStamp(size: 1200, modified: 1_700_000_000_123), digest: 0x0F),
                "items/a b/index.html": FileRecord(stamp: FileStamp(size: 0, modified: -5), digest: UInt64.max),
                "assets/x.css": FileRecord(stamp: FileStamp(size: 7, modified: 1), digest: nil),
            ],
            folders: ["": 1_700_000_000_123_456_789, "items": 2, "items/a b": -3])
        #expect(BuildState(text: state.text) == state)
        // Damaged or foreign states are refused rather than half read.
        let text = state.text
        #expect(BuildState(text: String(text.dropLast(3))) == nil)
        #expect(BuildState(text: text.replacingOccurrences(of: "1200 ", with: "12x0 ")) == nil)
        #expect(BuildState(text: text.replacingOccurrences(of: "1200 ", with: "12345678901234567890 ")) == nil)
        #expect(BuildState(text: text.replacingOccurrences(of: "1200 ", with: "1200\n")) == nil)
        #expect(BuildState(text: text.replacingOccurrences(of: "d 2 - items\n", with: "d 2 -\n")) == nil)
        // A digest that is not sixteen hex digits at most reads as none recorded.
        let longDigest = BuildState(text: text.replacingOccurrences(of: " ffffffffffffffff ", with: " fffffffffffffffff "))
        #expect(longDigest?.files["items/a b/index.html"] == FileRecord(stamp: FileStamp(size: 0, modified: -5), digest: nil))
        #expect(BuildState(text: text.replacingOccurrences(of: BuildState.version, with: "marquee-0.0")) == nil)
        #expect(BuildState(text: "") == nil)
        #expect(BuildState(text: text)?.inputs == "9f0e")
    }

    /// A rebuild appends the lines it changed or removed and its summary; what is read back is
    /// the whole new state. A file that does not end with the previous state's summary (another
    /// build wrote it), changes that the paths named do not account for, and appends that would
    /// make the file a quarter larger than a fresh one are written anew; an append cut short is
    /// refused.
    @Test func changedLinesAreAppendedAndReadBackWhole() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.state")
        func record(_ size: Int64) -> FileRecord { FileRecord(stamp: FileStamp(size: size, modified: 7), digest: UInt64(size)) }
        let first = BuildState(
            fingerprint: "f1", environment: "e", inputs: "i1", items: 2, pages: 2,
            files: ["index.html": record(1), "items/a/index.html": record(2), "items/b/index.html": record(3)],
            folders: ["": 1, "items": 2, "items/a": 3, "items/b": 4])
        first.save(to: file)
        let freshSize = try Data(contentsOf: file).count
        var second = first
        second.fingerprint = "f2"
        second.files["items/a/index.html"] = record(20)
        second.folders["items/a"] = 30
        second.save(to: file, replacing: first, changed: (["items/a/index.html", "index.html"], ["items/a"]))
        let appended = try String(contentsOf: file, encoding: .utf8)
        #expect(appended.hasPrefix(first.text) && appended.count < first.text.count + 100, "\(appended)")
        #expect(BuildState.load(from: file) == second)

        // Cut short, in the summary or before it: refused. Then the file no longer ends with the
        // summary: written anew.
        let withoutSummary = appended.split(separator: "\n").dropLast().joined(separator: "\n") + "\n"
        try Data(withoutSummary.utf8).write(to: file)
        #expect(BuildState.load(from: file) == nil)
        try Data(appended.utf8.dropLast(5)).write(to: file)
        #expect(BuildState.load(from: file) == nil)
        var third = second
        third.inputs = "i3"
        third.save(to: file, replacing: second, changed: ([], []))
        #expect(try String(contentsOf: file, encoding: .utf8) == third.text)
        #expect(BuildState.load(from: file) == third)

        // The file holds another build's state: written anew.
        var other = first
        other.fingerprint = "other"
        other.files["items/b/index.html"] = record(99)
        other.save(to: file)
        third.save(to: file, replacing: second, changed: ([], []))
        #expect(BuildState.load(from: file) == third)

        // A file added, and another removed, that are not named as changed: written anew.
        var fourth = third
        fourth.files["new.html"] = record(5)
        fourth.save(to: file, replacing: third, changed: ([], []))
        #expect(try String(contentsOf: file, encoding: .utf8) == fourth.text)
        var fifth = fourth
        fifth.files["new.html"] = nil
        fifth.save(to: file, replacing: fourth, changed: (["index.html"], []))
        #expect(try String(contentsOf: file, encoding: .utf8) == fifth.text)

        // A page moved to a new folder, its old folder gone, and a path that was a file becoming
        // a folder: appended as removals and additions, and read back as the new state.
        var moved = fifth
        moved.files["items/a/index.html"] = nil
        moved.folders["items/a"] = nil
        moved.files["items/c/index.html"] = record(4)
        moved.folders["items/c"] = 5
        moved.files["index.html"] = nil
        moved.files["index.html/inner.html"] = record(6)
        moved.folders["index.html"] = 6
        let beforeMove = try String(contentsOf: file, encoding: .utf8)
        moved.save(to: file, replacing: fifth, changed: (
            ["items/a/index.html", "items/c/index.html", "index.html", "index.html/inner.html", "never.html"],
            ["items/a", "items/c", "index.html"]))
        let afterMove = try String(contentsOf: file, encoding: .utf8)
        #expect(afterMove.hasPrefix(beforeMove) && afterMove.contains("\nr items/a/index.html\n"), "\(afterMove)")
        #expect(BuildState.load(from: file) == moved)
        third.save(to: file)

        // Appending again and again: the file is written anew whenever it would grow past about
        // a quarter more than a fresh one's size (estimated from the lines of a large site: here
        // ~356 bytes), instead of growing by 45 bytes a round to ~9 KB.
        var state = third, largest = 0, rewrites = 0
        for round in 1...200 {
            let previous = state, before = try Data(contentsOf: file).count
            state.fingerprint = "f\(round)"
            state.files["index.html"] = record(Int64(round))
            state.save(to: file, replacing: previous, changed: (["index.html"], []))
            let size = try Data(contentsOf: file).count
            if size < before { rewrites += 1 }
            largest = max(largest, size)
        }
        #expect(freshSize < 200 && largest <= 360 && rewrites >= 10, "\(largest) bytes at most, \(rewrites) rewrites")
        #expect(BuildState.load(from: file) == state)
        #expect(BuildState.load(from: file)?.files["index.html"] == record(200))
    }
}

@Suite("Path tables")
struct PathTableTests {
    /// Random additions, changes and removals, with paths that share prefixes, an empty path and
    /// non-ASCII ones, agree with a dictionary at every step; places never move as the table grows.
    @Test func agreesWithADictionaryAndKeepsPlaces() {
        var generator = SeededRandom(seed: 11)
        var table = PathTable<Int>()
        var model: [String: Int] = [:]
        var places: [String: Int] = [:]
        let names = (0..<300).map { $0 % 7 == 0 ? "items/é\($0)/index.html" : "items/\($0)/index.html" } + ["", "index.html", "a"]
        for step in 0..<5_000 {
            let path = names.randomElement(using: &generator)!
            let value: Int? = Int.random(in: 0..<4, using: &generator) == 0 ? nil : step
            table[path] = value
            model[path] = value
            if let place = table.place(of: path) {
                #expect(places[path] == nil || places[path] == place)
                places[path] = place
            }
            if step % 500 == 0 {
                #expect(table.count == model.count)
                for name in names { #expect(table[name] == model[name]) }
                #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.path, $0.value) }) == model)
            }
        }
        #expect(table.place(of: "items/never/index.html") == nil)
        for (path, place) in places {
            #expect(table.path(at: place) == path)
            #expect(table.value(at: place) == model[path])
        }
        var copy = PathTable<Int>()
        for (path, value) in model.sorted(by: { $0.key > $1.key }) { copy[path] = value }
        #expect(copy == table)
        copy["index.html"] = -1
        #expect(copy != table)
    }
}

@Suite("Staged output", .removesTemporaryFolders)
struct StagedOutputTests {
    /// Files kept by their place in the previous build's table and files added resolve to what
    /// was done last with each path: a file written then kept is kept (its staging copy removed),
    /// one kept then written is the new one; a file neither kept nor added is removed.
    @Test func keptAndAddedFilesResolveToTheLastOfEach() throws {
        let output = try TestSupport.temporaryFolder().appending(path: "Site")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var previous = PathTable<FileRecord>()
        for name in ["a.html", "b.html", "c.html"] {
            try Data("old \(name)".utf8).write(to: output.appending(path: name))
            previous[name] = FileRecord(stamp: FileStamp(OpenFolder(output.path)!.status(of: name)!), digest: 1)
        }
        // Which files are untouched, as a build's check of the output finds them.
        func untouched(_ files: PathTable<FileRecord>) throws -> [Bool] {
            try #require(BuildState(fingerprint: "", environment: "", items: 0, pages: 0, files: files).check(output)).untouchedFiles
        }
        let staged = try StagedOutput(output: output, previous: previous, untouchedFiles: untouched(previous))
        #expect(staged.keepPrevious("a.html", ifDigest: 1))
        try staged.put("b.html", Data("new b".utf8))
        #expect(staged.keepPrevious("b.html", ifDigest: 1))
        #expect(!staged.keepPrevious("c.html", ifDigest: 2) && !staged.keepPrevious("new.html", ifDigest: 1))
        #expect(staged.keepPrevious("c.html", ifDigest: 1))
        try staged.put("c.html", Data("new c".utf8))
        try staged.put("e/e.html", Data("new e".utf8))
        #expect(Set(staged.paths) == ["a.html", "b.html", "c.html", "e/e.html"])
        let result = try staged.commit(outputHoldsPrevious: true)
        #expect(result.written == 2 && result.unchanged == 2)
        #expect(Set(staged.recordedAnew()) == ["c.html", "e/e.html"])
        let recorded = staged.recorded()
        #expect(recorded.count == 4 && recorded["a.html"] == previous["a.html"] && recorded["b.html"] == previous["b.html"])
        #expect(recorded["c.html"]?.stamp.size == 5 && recorded["e/e.html"] != nil)
        for (name, text) in [("a.html", "old a.html"), ("b.html", "old b.html"), ("c.html", "new c"), ("e/e.html", "new e")] {
            #expect(try String(contentsOf: output.appending(path: name), encoding: .utf8) == text)
        }
        #expect(!FileManager.default.fileExists(atPath: staged.staging.path))

        // Only a.html kept: the others are removed from the output and from the record.
        let next = try StagedOutput(output: output, previous: recorded, untouchedFiles: untouched(recorded))
        #expect(next.keepPrevious("a.html", ifDigest: 1))
        let removal = try next.commit(outputHoldsPrevious: true)
        #expect(removal.written == 0 && removal.unchanged == 1)
        #expect(next.recorded() == ["a.html": previous["a.html"]!] && next.recordedAnew().isEmpty)
        #expect(Set(next.removedPrevious()) == ["b.html", "c.html", "e/e.html"])
        #expect(FileIO.regularFiles(under: output.path) == ["a.html"])
    }

    /// Files are written and compared by their paths inside the folders the staging holds open:
    /// a file with the output's bytes is only noted, a new one lands in the staging folder with
    /// its folders, and one that cannot be written is named by its whole path.
    @Test func filesGoInsideTheHeldFoldersAndAFailureNamesItsPath() throws {
        let output = try TestSupport.temporaryFolder().appending(path: "Site")
        try FileManager.default.createDirectory(at: output.appending(path: "items/a"), withIntermediateDirectories: true)
        try Data("same".utf8).write(to: output.appending(path: "items/a/index.html"))
        let staged = try StagedOutput(output: output)
        try staged.put("items/a/index.html", Data("same".utf8))
        try staged.put("items/b/deep/index.html", Data("new".utf8))
        try staged.put("blocked", Data("a file where a folder is wanted".utf8))
        #expect(FileIO.regularFiles(under: staged.staging.path) == ["blocked", "items/b/deep/index.html"])
        let failure = #expect(throws: BuildError.self) { try staged.put("blocked/index.html", Data("x".utf8)) }
        #expect(failure?.file == staged.staging.path + "/blocked/index.html")
        #expect(failure?.message.hasPrefix("cannot write this file: Not a directory") == true)
        let result = try staged.commit(outputHoldsPrevious: false)
        #expect(result.written == 2 && result.unchanged == 1)
        #expect(try String(contentsOf: output.appending(path: "items/b/deep/index.html"), encoding: .utf8) == "new")
        #expect(try String(contentsOf: output.appending(path: "items/a/index.html"), encoding: .utf8) == "same")
    }

    /// The caches' whole-file writes: the new bytes in place of the old, no temporary file left,
    /// and a write that cannot happen leaves the old file and nothing else.
    @Test func replacingAFileLeavesTheOldOrTheNewWhole() throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder.appending(path: "cache")
        try Data("old contents".utf8).write(to: file)
        let new = Array("new".utf8)
        #expect(new.withUnsafeBytes { FileIO.replace(file.path, with: $0) })
        #expect(try String(contentsOf: file, encoding: .utf8) == "new")
        #expect(FileIO.regularFiles(under: folder.path) == ["cache"])
        // The temporary file cannot be made in a missing folder: false, and nothing written.
        let missing = folder.appending(path: "missing/cache")
        #expect(!new.withUnsafeBytes { FileIO.replace(missing.path, with: $0) })
        #expect(!FileManager.default.fileExists(atPath: missing.deletingLastPathComponent().path))
        // A folder in the way of the rename: false, the folder as it was, no temporary file left.
        let blocked = folder.appending(path: "blocked")
        try FileManager.default.createDirectory(at: blocked.appending(path: "inside"), withIntermediateDirectories: true)
        #expect(!new.withUnsafeBytes { FileIO.replace(blocked.path, with: $0) })
        #expect(FileIO.regularFiles(under: folder.path) == ["cache"])
    }
}

@Suite("Build memo", .removesTemporaryFolders)
struct BuildMemoTests {
    /// A memo keeps what the build stored and what it reused from the previous build (copied as
    /// stored), and drops the rest.
    @Test func keepsStoredAndReusedEntriesOnly() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let values: [UInt64: String] = [1: "one", 2: "", 3: "drei · 三", UInt64.max: String(repeating: "long ", count: 100_000)]
        let first = BuildMemo(file: file)
        #expect(first.value(for: 1) == nil)
        for (key, value) in values { first.store(value, for: key) }
        first.save()

        let second = BuildMemo(file: file)
        // Compared before expecting: a failed expectation would print the long value whole.
        for (key, value) in values {
            let same = second.value(for: key) == value
            #expect(same, "key \(key)")
        }
        #expect(second.value(for: 4) == nil)
        second.store("new", for: 4)
        second.store("changed", for: 3)
        second.save()

        // 1, 2 and max were reused, 3 changed, 4 added.
        let third = BuildMemo(file: file)
        #expect(third.value(for: 1) == "one" && third.value(for: 2) == "")
        let longValueKept = third.value(for: UInt64.max) == values[UInt64.max]
        #expect(longValueKept)
        #expect(third.value(for: 3) == "changed" && third.value(for: 4) == "new")
        // Only 1 is looked up in the fourth build: the rest is dropped.
        let fourth = BuildMemo(file: file)
        #expect(fourth.value(for: 1) == "one")
        fourth.save()
        let fifth = BuildMemo(file: file)
        #expect(fifth.value(for: 1) == "one" && fifth.value(for: 4) == nil && fifth.value(for: 2) == nil)
    }

    /// Lookups from every core at once each mark the entry they find (without a lock): the next
    /// save keeps exactly the entries looked up. Keys here are small numbers, not hashes, so the
    /// index also meets keys that share their low bits.
    @Test func lookupsFromEveryCoreKeepWhatTheyFound() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let first = BuildMemo(file: file)
        for key in 0..<3_000 as Range<UInt64> { first.store("value \(key)", for: key << 32) }
        first.save()

        let second = BuildMemo(file: file)
        let found = Array(0..<3_000 as Range<UInt64>).concurrentMap { key in
            key % 3 == 0 ? second.value(for: key << 32) == "value \(key)" : second.value(for: key << 32 | 1) == nil
        }
        #expect(!found.contains(false))
        second.save()

        let third = BuildMemo(file: file)
        let kept = (0..<3_000 as Range<UInt64>).filter { third.value(for: $0 << 32) != nil }
        #expect(kept == (0..<3_000 as Range<UInt64>).filter { $0 % 3 == 0 })
    }

    /// A rebuild takes unchanged items' HTML from the memo, read only where it is shown: what
    /// the items show, their digests and the text blocks the layout reads are a fresh render's,
    /// and remembered texts stay readable after the next build has replaced the memo's file.
    @Test func rememberedHTMLReadsAsRendered() throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder.appending(path: "site.memo")
        let theme = try Theme.load(siteRoot: folder)
        func markedUp(with memo: BuildMemo) throws -> [Item] {
            var items = ["Plain *words*", "A [link](https://example.org) and `code`\n\n- one\n- two", ""].enumerated().map {
                Item(id: "\($0.offset)", source: "s", title: "T", body: .markdown($0.element, base: nil))
            }
            _ = BuildState.fingerprint(items: &items, contentStamps: "", environment: "")
            try MarkupPlugin().transformItems(&items, in: BuildContext(root: folder, config: SiteConfig(title: "T"), theme: theme, memo: memo))
            return items
        }
        let first = BuildMemo(file: file)
        let rendered = try markedUp(with: first)
        first.save()
        let remembered = try markedUp(with: BuildMemo(file: file))
        #expect(rendered.map(\.bodyHTML) == ["<p>Plain <em>words</em></p>\n", remembered[1].bodyHTML, ""])
        #expect(remembered.map(\.bodyHTML) == rendered.map(\.bodyHTML))
        #expect(remembered.map(\.bodyHTMLDigest) == rendered.map(\.bodyHTMLDigest))
        #expect(remembered.map(\.bodyTextBlocks) == rendered.map(\.bodyTextBlocks))
        #expect(PageWriter.digests(of: remembered) == PageWriter.digests(of: rendered))

        try FileManager.default.removeItem(at: file)
        let next = BuildMemo(file: file)
        next.store("other", for: 1)
        next.save()
        #expect(remembered.map(\.bodyHTML) == rendered.map(\.bodyHTML))
    }

    /// A build that reuses most entries appends only what it computed; once unused entries
    /// would make up more than half the file, the file is written anew with the used ones only.
    @Test func appendsNewEntriesUntilHalfTheFileIsUnused() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let first = BuildMemo(file: file)
        for key in 0..<100 as Range<UInt64> { first.store(String(repeating: "v\(key)", count: 20), for: key) }
        first.save()
        let written = try Data(contentsOf: file)

        let second = BuildMemo(file: file)
        for key in 0..<100 as Range<UInt64> { _ = second.value(for: key) }
        second.store("new", for: 100)
        second.save()
        let appended = try Data(contentsOf: file)
        #expect(appended.count == written.count + 12 + 3)
        #expect(appended.prefix(written.count) == written)

        let third = BuildMemo(file: file)
        #expect(third.value(for: 100) == "new" && third.value(for: 42) == String(repeating: "v42", count: 20))
        // Ten of 101 entries used: the file is rewritten with those ten.
        let fourth = BuildMemo(file: file)
        for key in 0..<10 as Range<UInt64> { _ = fourth.value(for: key) }
        fourth.save()
        let rewritten = try Data(contentsOf: file)
        #expect(rewritten.count < written.count / 5)
        let fifth = BuildMemo(file: file)
        #expect(fifth.value(for: 9) == String(repeating: "v9", count: 20) && fifth.value(for: 10) == nil && fifth.value(for: 100) == nil)
    }

    /// A memo written by another program (another build of Marquee) is not read, and the next
    /// save replaces it.
    @Test func aMemoOfAnotherProgramIsNotRead() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let older = BuildMemo(file: file, program: "marquee 1")
        older.store("old", for: 7)
        older.save()
        #expect(BuildMemo(file: file, program: "marquee 1").value(for: 7) == "old")
        let newer = BuildMemo(file: file, program: "marquee 2")
        #expect(newer.value(for: 7) == nil)
        newer.store("new", for: 8)
        newer.save()
        #expect(BuildMemo(file: file, program: "marquee 2").value(for: 8) == "new")
        #expect(BuildMemo(file: file, program: "marquee 1").value(for: 7) == nil)
    }

    /// The index written with the file (see `StoredEntries`) is read instead of the entries'
    /// headers; one that does not fit the file makes the memo ignored whole, never read astray.
    @Test func anIndexThatDoesNotFitIsIgnored() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let memo = BuildMemo(file: file)
        for key in 1...3 as ClosedRange<UInt64> { memo.store("value \(key)", for: key) }
        memo.save()
        let good = try Data(contentsOf: file)
        let indexField = try #require(good.firstIndex(of: UInt8(ascii: "\n"))) + 1
        func number(at offset: Int) -> UInt64 {
            good[offset..<offset + 8].enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
        func reads(_ edit: (inout Data) -> Void) throws -> [String?] {
            var bytes = good
            edit(&bytes)
            try bytes.write(to: file)
            let read = BuildMemo(file: file)
            return (1...3 as ClosedRange<UInt64>).map { read.value(for: $0) }
        }
        func put(_ value: UInt64, at offset: Int, in bytes: inout Data) {
            for byte in 0..<8 { bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte))) }
        }
        #expect(try reads { _ in } == ["value 1", "value 2", "value 3"])
        let indexStart = Int(number(at: indexField))
        #expect(number(at: indexStart) == 3, "the index does not start where the file says")
        // The index's place past the end of the file, or before the entries.
        #expect(try reads { put(UInt64(good.count), at: indexField, in: &$0) } == [nil, nil, nil])
        #expect(try reads { put(0, at: indexField, in: &$0) } == [nil, nil, nil])
        // A count larger than the index holds.
        #expect(try reads { put(1_000, at: indexStart, in: &$0) } == [nil, nil, nil])
        // A value's place past the index, where no value of the indexed part can be.
        #expect(try reads { put(UInt64(indexStart + 1), at: indexStart + 8 + 3 * 8, in: &$0) } == [nil, nil, nil])
    }

    /// Entries are written in the order the build first stored them (a rebuild looks them up in
    /// the items' order, and finds them one after another), a value stored again in its place.
    @Test func entriesKeepTheOrderTheyWereStoredIn() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let memo = BuildMemo(file: file)
        let keys: [UInt64] = (0..<200).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        for key in keys { memo.store("first <\(key)>", for: key) }
        memo.store("again", for: keys[7])
        memo.save()
        let text = try #require(String(data: try Data(contentsOf: file), encoding: .isoLatin1))
        let places = keys.map { key in text.range(of: key == keys[7] ? "again" : "first <\(key)>")?.lowerBound }
        #expect(!places.contains(nil))
        #expect(places.compactMap { $0 } == places.compactMap { $0 }.sorted())
    }

    /// A damaged memo is ignored whole, never half read.
    @Test func aDamagedMemoIsIgnored() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let memo = BuildMemo(file: file)
        memo.store("value", for: 7)
        memo.save()
        var bytes = try Data(contentsOf: file)
        bytes.removeLast(2)
        try bytes.write(to: file)
        #expect(BuildMemo(file: file).value(for: 7) == nil)
        try Data("marquee-memo-0\n".utf8).write(to: file)
        #expect(BuildMemo(file: file).value(for: 7) == nil)
    }
}

@Suite("Parallel map")
struct ParallelMapTests {
    struct Refused: Error, Equatable { let index: Int }

    /// Each result comes back in its own place, whichever finishes first.
    @Test func concurrentlyReturnsBothResultsInPlace() {
        for _ in 0..<50 {
            let (sum, text) = concurrently({ (1...2_000).reduce(0, +) }, { String(repeating: "ab", count: 3) })
            #expect(sum == 2_001_000 && text == "ababab")
        }
    }

    @Test func keepsOrderAndReportsTheFirstFailureInOrder() throws {
        let numbers = Array(0..<5_000)
        #expect(try numbers.concurrentMap { (n: Int) throws(Refused) -> String in "#\(n)" } == numbers.map { "#\($0)" })
        // Failures in several chunks: the one reported is the earliest, whatever finished first;
        // the strings made before them are released (the sanitizer runs check that).
        for failing in [[4_999], [3, 4_000], [2_500, 17, 4_321]] {
            #expect(throws: Refused(index: failing.min()!)) {
                try numbers.concurrentMap { (n: Int) throws(Refused) -> String in
                    if failing.contains(n) { throw Refused(index: n) }
                    return String(repeating: "x", count: 40) + "\(n)"
                }
            }
        }
        #expect(try [Int]().concurrentMap { (n: Int) throws(Refused) -> Int in n }.isEmpty)
    }

    final class Box: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    /// Parts of every size (empty ones too) are joined in order; when the parts are handed over,
    /// each element ends up held by the joined array alone, so that changing an item later needs
    /// no copy.
    @Test func joinsPartsInOrderLeavingEachElementReferencedOnce() {
        let sizes = [0, 3, 0, 0, 64, 1, 200, 0, 17]
        var next = 0
        let parts = sizes.map { size in
            (0..<size).map { _ in
                defer { next += 1 }
                return Box(next)
            }
        }
        var joined = joinedOnEveryCore(parts)
        #expect(joined.map(\.value) == Array(0..<next))
        // `parts` still holds every element until it goes; the join took its own references.
        withExtendedLifetime(parts) {
            #expect(!isKnownUniquelyReferenced(&joined[5]))
        }
        let moved = sizes.map { size in (0..<size).map { Box($0) } }
        var alone = joinedOnEveryCore(consume moved)
        #expect(alone.count == sizes.reduce(0, +))
        #expect(alone.indices.allSatisfy { isKnownUniquelyReferenced(&alone[$0]) })
        #expect(joinedOnEveryCore([[Int]]()).isEmpty && joinedOnEveryCore([[Int](), []]).isEmpty)
    }

    @Test(arguments: [0, 1, 2, 63, 5_000])
    func updatesEveryElementInPlaceOnce(count: Int) {
        var items = (0..<count).map { Item(id: "\($0)", source: "s", title: "t\($0)", body: .text("x")) }
        let copy = items
        items.concurrentUpdate { item in item.title += "!" }
        #expect(items.map(\.title) == (0..<count).map { "t\($0)!" })
        // Items shared with another array are copied before they change, not changed under it.
        #expect(copy.map(\.title) == (0..<count).map { "t\($0)" })
    }
}

@Suite("Item copies", .removesTemporaryFolders)
struct ItemCopyTests {
    @Test func copiesAreIndependent() {
        var original = Item(id: "a", source: "s", title: "Arrival", body: .text("x"), tags: ["one"])
        let copy = original
        original.title = "Changed"
        original.tags.append("two")
        original.metadata[Minutes.self] = 3
        #expect(copy.title == "Arrival" && copy.tags == ["one"] && copy.metadata[Minutes.self] == nil)
        #expect(original.title == "Changed" && original.tags == ["one", "two"] && original.metadata[Minutes.self] == 3)
        var items = [copy, copy]
        items[1].slug = "second"
        #expect(items[0].slug == "" && items[1].slug == "second" && copy.slug == "")
    }

    enum Minutes: ItemMetadataKey { typealias Value = Int }

    /// The digests an item carries from the stage that made its text stand for that text only
    /// while it is unchanged: a plugin that rewrites the HTML or the body after them gets the
    /// new text's digest, so its pages are rendered again and its memo keys are new.
    @Test func carriedDigestsFollowTheirText() throws {
        let folder = try TestSupport.temporaryFolder()
        let context = BuildContext(root: folder, config: SiteConfig(title: "T"), theme: try Theme.load(siteRoot: folder), memo: BuildMemo())
        var items = [
            Item(id: "a", source: "s", title: "A", body: .markdown("Same *text*", base: nil)),
            Item(id: "b", source: "s", title: "A", body: .markdown("Same *text*", base: nil)),
            Item(id: "c", source: "s", title: "A", body: .markdown("Other text", base: nil)),
        ]
        _ = BuildState.fingerprint(items: &items, contentStamps: "", environment: "")
        let recorded = items.map(\.bodyDigest)
        #expect(recorded[0] == recorded[1] && recorded[0] != recorded[2])
        try MarkupPlugin().transformItems(&items, in: context)
        #expect(items[0].bodyHTML == items[1].bodyHTML && items[0].bodyHTMLDigest == items[1].bodyHTMLDigest)
        #expect(items[0].bodyHTMLDigest != items[2].bodyHTMLDigest)

        // A plugin rewriting the HTML: the digest is the new text's, equal for equal texts.
        var rewritten = items
        rewritten[0].bodyHTML += "<p>more</p>"
        rewritten[1].bodyHTML += "<p>more</p>"
        #expect(rewritten[0].bodyHTMLDigest != items[0].bodyHTMLDigest)
        #expect(rewritten[0].bodyHTMLDigest == rewritten[1].bodyHTMLDigest)
        #expect(PageWriter.digests(of: rewritten)[0] != PageWriter.digests(of: items)[0])
        #expect(items[0].bodyHTMLDigest == items[1].bodyHTMLDigest, "copies keep their own digests")

        // A plugin replacing the body: its recorded digest goes, and the markup stage renders the new body.
        var replaced = items
        replaced[0].body = .markdown("Replaced", base: nil)
        #expect(replaced[0].bodyDigest != recorded[0])
        try MarkupPlugin().transformItems(&replaced, in: context)
        #expect(replaced[0].bodyHTML.contains("Replaced") && replaced[0].bodyHTMLDigest != items[0].bodyHTMLDigest)
    }
}

@Suite("Pagination")
struct PaginationTests {
    func labels(current: Int, total: Int) -> [String] {
        let listing = PageWriter.Listing(folder: "", heading: "All", items: [], digests: [], isGallery: true)
        guard case .list(let pages) = PageWriter.pagination(listing, current: current, total: total, root: "")?["pages"] else { return [] }
        return pages.map { page in
            guard case .object(let values) = page else { return "?" }
            if case .flag(true) = values["gap"] { return "…" }
            guard case .number(let number) = values["number"] else { return "?" }
            return "\(number)"
        }
    }

    /// A page's navigation does not grow with the site: first, last and three either side.
    @Test func pageNavigationIsAWindow() {
        #expect(labels(current: 50, total: 100) == ["1", "…", "47", "48", "49", "50", "51", "52", "53", "…", "100"])
        #expect(labels(current: 1, total: 2000) == ["1", "2", "3", "4", "…", "2000"])
        #expect(labels(current: 2000, total: 2000) == ["1", "…", "1997", "1998", "1999", "2000"])
        #expect(labels(current: 3, total: 6) == ["1", "2", "3", "4", "5", "6"])
        #expect(labels(current: 1, total: 1).isEmpty)
        #expect((1...500).allSatisfy { labels(current: $0, total: 500).count <= 11 })
    }

    /// Listings by source and by author group items by their trimmed key, in order of first
    /// appearance, whether neighbours share one string, equal strings or differently spaced ones.
    @Test func itemsAreGroupedByTheirTrimmedKey() {
        let shared = "Movies"
        let sources = [shared, shared, " Movies ", "Feed", "", "  ", String("xMovies".dropFirst()), shared, "Feed "]
        let items = sources.enumerated().map { Item(id: "\($0)", source: $1, title: "T", body: .text("b")) }
        let groups = PageWriter.group(items, by: { $0.source })
        #expect(groups.map(\.key) == ["Movies", "Feed"])
        #expect(groups.map(\.positions) == [[0, 1, 2, 6, 7], [3, 8]])
        #expect(PageWriter.group(items, by: { _ in nil }).isEmpty)
    }
}

@Suite("Input files", .removesTemporaryFolders)
struct InputFileTests {
    /// Inputs of any size come out whole and in order, for sizes around a megabyte that end
    /// mid-page.
    @Test func largeFilesAreReadWhole() throws {
        let folder = try TestSupport.temporaryFolder()
        for size in [(1 << 20) - 1, 1 << 20, (1 << 20) + 12_345] {
            // Bytes that depend on their position: a page in the wrong place shows.
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 0x9E37_79B1) >> 16) | 0x01 }
            let file = folder.appending(path: "input-\(size).json")
            try Data(bytes).write(to: file)
            let read = try InputFile.read(file, display: "input.json")
            #expect(read.count == size)
            #expect(read == Data(bytes))
        }
    }
}

@Suite("File digests", .removesTemporaryFolders)
struct FileDigestCacheTests {
    /// A digest is worked out once, remembered in the file by the file's stamp, and worked out
    /// again when the file changes (even rewritten in place to the same size); damaged lines and
    /// a missing cache file are an empty cache.
    @Test func digestsAreRememberedUntilTheFileChanges() throws {
        let folder = try TestSupport.temporaryFolder()
        let font = folder.appending(path: "font.ttf"), cacheFile = folder.appending(path: "cache/file-digests")
        try Data("first bytes".utf8).write(to: font)
        var reads = 0
        func digest(_ cache: FileDigestCache) throws -> UInt64 {
            try cache.digest(of: font.path) { () throws(BuildError) in
                reads += 1
                return (try? Data(contentsOf: font)) ?? Data()
            }
        }
        let first = FileDigestCache(file: cacheFile)
        #expect(try digest(first) == StableHasher.value(of: Data("first bytes".utf8)) && reads == 1)
        first.save()
        let second = FileDigestCache(file: cacheFile)
        #expect(try digest(second) == StableHasher.value(of: Data("first bytes".utf8)) && reads == 1)

        // Past the file system's clock tick (coarse on some kernels), so that the times differ.
        Thread.sleep(forTimeInterval: 0.02)
        let handle = try FileHandle(forWritingTo: font)
        try handle.write(contentsOf: Data("other bytes".utf8))
        try handle.close()
        #expect(try digest(FileDigestCache(file: cacheFile)) == StableHasher.value(of: Data("other bytes".utf8)) && reads == 2)

        try Data("zz 1 2 3\nnot a line at all\n".utf8).write(to: cacheFile)
        #expect(try digest(FileDigestCache(file: cacheFile)) == StableHasher.value(of: Data("other bytes".utf8)) && reads == 3)
        #expect(try digest(FileDigestCache(file: folder.appending(path: "missing"))) != 0 && reads == 4)

        // A cache of another version of the hash (the lines of the file as saved, under another
        // first line, or none) is not read.
        let saving = FileDigestCache(file: cacheFile)
        _ = try digest(saving)
        saving.save()
        #expect(try digest(FileDigestCache(file: cacheFile)) != 0 && reads == 5)
        let saved = try String(contentsOf: cacheFile, encoding: .utf8)
        #expect(saved.hasPrefix("marquee-file-digests \(StableHasher.version)\n"))
        for firstLine in ["", "marquee-file-digests \(StableHasher.version - 1)\n"] {
            let lines = saved.split(separator: "\n", maxSplits: 1)[1]
            try Data((firstLine + lines + "\n").utf8).write(to: cacheFile)
            #expect(try digest(FileDigestCache(file: cacheFile)) != 0, "\(firstLine.debugDescription)")
        }
        #expect(reads == 7)
    }
}

@Suite("Theme fonts", .removesTemporaryFolders)
struct ThemeFontTests {
    /// Replaces the file's bytes keeping its inode (truncate and write, as `cp` onto it does).
    static func rewriteInPlace(_ file: URL, with data: Data) throws {
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: data)
        try handle.close()
    }

    /// Fonts are read once per process; a font rewritten in place (as `cp` does) between two
    /// builds of one process (`marquee serve`) is read again, even when it shrank.
    @Test func aFontRewrittenInPlaceIsReadAgain() throws {
        let regular = try Data(contentsOf: ThemeMetrics().regularFont)
        let bold = try Data(contentsOf: ThemeMetrics().boldFont)
        let font = try TestSupport.temporaryFolder().appending(path: "font.ttf")
        func rewrite(_ data: Data) throws { try Self.rewriteInPlace(font, with: data) }
        try regular.write(to: font)
        let fonts = FontCache.shared
        #expect(try fonts.bytes(of: font) == regular)
        let regularM = try fonts.metrics(for: font).advance(of: "M", size: 15)

        try rewrite(bold)
        #expect(try fonts.bytes(of: font) == bold)
        let boldM = try fonts.metrics(for: font).advance(of: "M", size: 15)
        #expect(regularM != nil && boldM != nil && regularM != boldM)

        try rewrite(Data("not a font".utf8))
        #expect(try fonts.bytes(of: font) == Data("not a font".utf8))
        #expect(throws: BuildError.self) { try fonts.metrics(for: font) }
    }

    /// A plugin that rewrites a font asset's bytes changes neither the file nor what the layout
    /// engine measures with.
    @Test func aFontAssetChangedInPlaceLeavesTheFontAlone() throws {
        let regular = try Data(contentsOf: ThemeMetrics().regularFont)
        let font = try TestSupport.temporaryFolder().appending(path: "font.ttf")
        try regular.write(to: font)
        let fonts = FontCache.shared
        let measured = try fonts.metrics(for: font).advance(of: "M", size: 15)

        var asset = try fonts.bytes(of: font)
        _ = asset.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
        #expect(asset.count == regular.count && asset.allSatisfy { $0 == 0 })

        #expect(try Data(contentsOf: font) == regular)
        #expect(try fonts.bytes(of: font) == regular)
        #expect(try fonts.metrics(for: font).advance(of: "M", size: 15) == measured)
    }

    /// Line counts remembered from the last build are not reused once the CJK fallback font was
    /// rewritten in place (same path, other glyphs): the layout memo's key holds the fonts'
    /// contents, not only their paths.
    @Test func theLayoutMemoSeesAFallbackFontRewrittenInPlace() throws {
        let folder = try TestSupport.temporaryFolder()
        let fallback = folder.appending(path: "fallback.ttf")
        let memoFile = folder.appending(path: "site.memo")
        try Data(contentsOf: ThemeMetrics().fallbackFont).write(to: fallback)
        var metrics = ThemeMetrics()
        metrics.fallbackFont = fallback
        func layOut(with memo: BuildMemo) throws -> CellPlan? {
            let theme = try Theme.load(siteRoot: folder, metrics: metrics)
            let context = BuildContext(root: folder, config: SiteConfig(title: "T"), theme: theme, memo: memo)
            var items = [Item(id: "1", source: "s", title: "日本語の題名", body: .text(String(repeating: "漢字と仮名の文。", count: 40)))]
            try MarkupPlugin().transformItems(&items, in: context)
            try LayoutPlugin().layOutItems(&items, in: context)
            return items[0].cell
        }
        let memo = BuildMemo(file: memoFile)
        let measuredFirst = try layOut(with: memo)
        memo.save()

        // DejaVu Sans has no CJK glyphs: with it as the fallback the same text is estimated.
        try Self.rewriteInPlace(fallback, with: try Data(contentsOf: ThemeMetrics().regularFont))
        let measuredAgain = try layOut(with: BuildMemo())
        #expect(measuredFirst != nil && measuredAgain != measuredFirst, "the rewritten font does not change the plan")
        #expect(try layOut(with: BuildMemo(file: memoFile)) == measuredAgain, "the plan came from the memo, measured with the old font")
    }
}

@Suite("Template values")
struct TemplateValueTests {
    /// Renders `template` with `values`, once as plain strings and once with every string made a
    /// ``TemplateText``, the way pages hand them to templates.
    func bothWays(_ template: String, _ values: [String: Any]) throws -> (plain: String, text: String) {
        func wrapped(_ value: Any) -> Any {
            switch value {
            case let text as String: TemplateText(text)
            case let list as [String]: list.map(TemplateText.init)
            case let object as [String: Any]: object.mapValues(wrapped)
            default: value
            }
        }
        let compiled = try MustacheTemplate(string: template)
        return (compiled.render(values), compiled.render(wrapped(values)))
    }

    /// Pages pass text as `TemplateText` (fewer dynamic casts in swift-mustache); a site's own
    /// templates must not be able to tell it from a `String`.
    @Test(arguments: [
        "{{v}}|{{{v}}}|{{#v}}[{{.}}]{{/v}}|{{^v}}none{{/v}}",
        "{{#v}}{{other}}-{{v}}{{/v}}|{{v.count}}|{{#v.count}}x{{/v.count}}",
        "{{uppercased(v)}}|{{lowercased(v)}}|{{capitalized(other)}}|{{reversed(v)}}|{{#empty(v)}}empty{{/empty(v)}}{{^empty(v)}}full{{/empty(v)}}",
        "{{#list}}{{.}},{{/list}}|{{#sorted(list)}}{{.}};{{/sorted(list)}}|{{first(list)}}|{{last(list)}}|{{count(list)}}",
        "{{#reversed(list)}}{{.}}{{/reversed(list)}}|{{#empty(none)}}no items{{/empty(none)}}|{{^none}}none{{/none}}",
        "{{meta.kind}}|{{#meta}}{{kind}}/{{v}}{{/meta}}|{{#sorted(meta)}}{{key}}={{value}};{{/sorted(meta)}}",
    ], ["<b>Tom & \"Jerry's\"</b>", ""])
    func textRendersLikeAString(template: String, value: String) throws {
        let values: [String: Any] = [
            "v": value, "other": "other text", "list": ["pear", "apple", value], "none": [String](),
            "meta": ["kind": "drama", "year": "1999"],
        ]
        let (plain, text) = try bothWays(template, values)
        #expect(text == plain)
        #expect(!plain.isEmpty)
    }
}
