import Foundation
import Testing
@testable import MarqueeKit

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

    /// A font that is missing, a folder, or not a font fails the build naming the file; so does
    /// one whose table directory points past its end (and asks for no memory on that account).
    @Test func unusableFontsNameTheFile() throws {
        let readme = TestSupport.repository.appending(path: "README.md")
        var directory: [UInt8] = [0, 1, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0]
        for tag in ["cmap", "head", "hhea", "hmtx", "maxp"] {
            directory += Array(tag.utf8) + [0, 0, 0, 0] + [0, 0, 0, 92] + [0xFF, 0xFF, 0xFF, 0xFF]
        }
        let truncated = FileManager.default.temporaryDirectory.appending(path: "marquee-truncated-\(UUID().uuidString).ttf")
        try Data(directory).write(to: truncated)
        defer { try? FileManager.default.removeItem(at: truncated) }
        let cases: [(URL, String)] = [
            (URL(fileURLWithPath: "/nonexistent/marquee-font.ttf"), "cannot read the theme's font"),
            (TestSupport.repository, "cannot read the theme's font"),
            (readme, "not a usable TrueType/OpenType font"),
            (truncated, "not a usable TrueType/OpenType font: bad head, hhea or maxp table"),
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

    /// Between two ASCII characters Chromium breaks as its own table says: before an opening
    /// bracket after punctuation (`<em>(not`), after a question mark, after a hyphen except
    /// before some punctuation; never between letters and brackets (`f(x)`).
    @Test func asciiPairsBreakAsChromiumDoes() {
        let breaker = engine.lineBreaker
        let size = engine.metrics.bodyFontSize
        func width(_ text: String) -> Double { breaker.measurer.width(of: text, bold: false, size: size) }
        /// Lines of `w first+second` at a width that holds `w first`: 2 when the text may break
        /// between the two, 3 when the joined word (wider than a line) is cut anywhere instead.
        func lines(_ first: String, _ second: String) -> Int {
            let line = width("w " + first) + 0.1
            #expect(width(first + second) > line && width(second) < line)
            return breaker.lineCount([TextRun("w " + first + second)], width: line, size: size)
        }
        #expect(lines("abcdefgh>", "(cd") == 2)
        #expect(lines("abcdefgh)", "<cd") == 2)
        #expect(lines("abcdefgh?", "cd") == 2)
        #expect(lines("abcdefgh-", "cd") == 2)
        #expect(lines("abcdefgh", "(cd") == 3)
        #expect(lines("abcdefgh-", "$cd") == 3)
        #expect(lines("abcdefgh?", ")cd") == 3)
        #expect(lines("abcdefgh/", "cd") == 3)
    }

    /// Text in a common size is measured from ASCII tables, with words' letters added in a fast
    /// loop; every other size goes character by character. Both must break the same way.
    @Test func tableAndCharacterByCharacterMeasuringAgree() {
        let pieces = ["word", "a", "Longerword", " ", "  ", "-", "well-known", "\n", ".", ",", "!)", "“quoted”", "naïve", "日本語", "。", "x", "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM", "tab\tchar", "🎻", "?", "<em>(", "é", "[", "f(x)"]
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

    /// Line counts remembered by an earlier build are used only when they have a count for each
    /// of the engine's breakpoints (anything else is worked out again).
    @Test func rememberedCountsMustFitTheBreakpoints() {
        let count = engine.metrics.breakpoints.count
        let full = LayoutEngine.LineCounts(title: Array(repeating: 1, count: count), description: Array(1...count), blocks: 4, isEstimated: false)
        #expect(full.fit(engine.metrics.breakpoints))
        for counts in [
            LayoutEngine.LineCounts(title: [2], description: [0], blocks: 0, isEstimated: true),
            LayoutEngine.LineCounts(title: Array(repeating: 1, count: count), description: Array(2...count), blocks: 1, isEstimated: false),
            LayoutEngine.LineCounts(title: [], description: [], blocks: 1, isEstimated: false),
        ] {
            #expect(!counts.fit(engine.metrics.breakpoints))
        }
    }
}
