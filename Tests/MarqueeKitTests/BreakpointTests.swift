import Foundation
import Testing
@testable import MarqueeKit

@Suite("Breakpoints: snapped widths and the cell attributes CSS reads")
struct BreakpointTests {
    let metrics = ThemeMetrics()

    /// The breakpoint CSS applies at a viewport width: the last one starting at or below it.
    func breakpoint(at width: Double) -> Breakpoint {
        metrics.breakpoints.last { $0.minViewportWidth <= width }!
    }

    /// From 320 px up, every width shows a fixed column that fits beside the page margins, so
    /// the text width is exactly one the engine predicted for.
    @Test func everyWidthFrom320ShowsAPredictedColumn() {
        #expect(metrics.breakpoints.map(\.minViewportWidth) == metrics.breakpoints.map(\.minViewportWidth).sorted())
        for width in stride(from: 320.0, through: 2560, by: 1) {
            let container = breakpoint(at: width).containerWidth
            #expect(container != nil && container! + 2 * metrics.pageMargin <= width, "\(width) px")
        }
        // The common phones fill their screen less the margins.
        for phone in [320.0, 360, 375, 390, 412, 430] {
            #expect(breakpoint(at: phone).containerWidth == phone - 2 * metrics.pageMargin)
        }
    }

    /// Each breakpoint's rules hold only up to the next one: a toggle shown where the text is
    /// cut at a narrow width must not stay at a wider one.
    @Test func stylesheetRangesDoNotOverlap() {
        let css = ThemeStylesheet.css(for: metrics, regularFont: "r.ttf", boldFont: "b.ttf", fallbackFont: "f.ttf")
        #expect(css.contains("@media (width < 360px) {\n.gallery"))
        #expect(css.contains("@media (min-width: 360px) and (width < 375px) {"))
        #expect(css.contains("@media (min-width: 1100px) {"))
        #expect(css.contains(".cell { --lines: var(--lines-w375, var(--lines-w360, var(--lines-w320, 3)));"))
        var single = ThemeMetrics()
        single.breakpoints = [single.breakpoints[0]]
        #expect(ThemeStylesheet.css(for: single, regularFont: "r", boldFont: "b", fallbackFont: "f").contains("@media all {"))
    }

    /// Reading the attributes as the stylesheet does (a breakpoint not stated falls back to the
    /// one before) gives every breakpoint's plan back.
    @Test func attributesStateEachBreakpointThroughFallbacks() throws {
        let engine = LayoutEngine(metrics: metrics, measurer: try Theme.load(siteRoot: TestSupport.repository).measurer)
        let texts = ["Short.", String(repeating: "A sentence that wraps at different widths. ", count: 9), "Zürich Ελληνικά 映画祭 " + String(repeating: "mot ", count: 40)]
        for text in texts {
            for hasImage in [false, true] {
                let plan = engine.plan(title: "A title of some length that may wrap", description: [TextBlock(kind: .paragraph, runs: [TextRun(text)])], hasImage: hasImage)
                let attributes = CellAttributes(plan)
                var declared: [String: String] = [:]
                for declaration in attributes.style.split(separator: ";") {
                    let parts = declaration.split(separator: ":")
                    declared[String(parts[0])] = String(parts[1])
                }
                var summary: [String: String] = [:]
                for entry in attributes.summary.split(separator: " ") where entry.contains(":") {
                    let parts = entry.split(separator: ":")
                    summary[String(parts[0])] = String(parts[1])
                }
                var lines: String?, height: String?, counts: String?
                for breakpoint in plan.breakpoints {
                    lines = declared["--lines-\(breakpoint.breakpoint)"] ?? lines
                    height = declared["--h-\(breakpoint.breakpoint)"] ?? height
                    counts = summary[breakpoint.breakpoint] ?? counts
                    #expect(lines == "\(breakpoint.collapsedLines)")
                    #expect(height == "\(Int(breakpoint.collapsedHeight.rounded()))px")
                    #expect(counts == "\(breakpoint.collapsedLines)/\(breakpoint.descriptionLines)/\(Int(breakpoint.expandedHeight.rounded()))")
                    #expect(attributes.classes.split(separator: " ").contains("trunc-\(breakpoint.breakpoint)") == breakpoint.isTruncated)
                }
            }
        }
        // A long text at phone widths needs a different count at some breakpoints, and the
        // attributes leave out the ones that repeat.
        let long = CellAttributes(engine.plan(title: "T", description: [TextBlock(kind: .paragraph, runs: [TextRun(texts[1])])], hasImage: false))
        #expect(long.summary.split(separator: " ").count < metrics.breakpoints.count)
        #expect(long.summary.split(separator: " ").count > 1)
    }
}
