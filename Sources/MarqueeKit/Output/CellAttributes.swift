/// How a cell's plan reaches the page: CSS custom properties that the stylesheet clamps and
/// sizes with, a `trunc-` class per breakpoint where the text is cut, and a readable summary in
/// `data-plan` for tests and for people reading the page.
///
/// A breakpoint's values are stated only where they differ from the breakpoint before it:
/// ``ThemeStylesheet`` falls back through the lower breakpoints (`var(--lines-w375,
/// var(--lines-w360, …))`), and most text breaks into the same lines at neighbouring phone
/// widths, so the page grows little with each breakpoint the theme adds.
package struct CellAttributes: Equatable {
    /// `--lines-NAME:N;--h-NAME:Hpx`, for each breakpoint whose values differ from the one before.
    package var style = ""
    /// `cell cell-TEMPLATE`, then `trunc-NAME` for each breakpoint where the text is cut.
    package var classes: String
    /// `NAME:COLLAPSED/FULL/EXPANDED` (lines shown collapsed, lines of the whole description, the
    /// expanded cell's height in pixels) for each breakpoint where these differ from the one
    /// before, then `estimated` when the reader's fonts draw some of the text.
    package var summary = ""

    package init(_ plan: CellPlan) {
        classes = "cell cell-" + plan.template.rawValue
        var previous: (lines: Int, full: Int, height: Int, expanded: Int)?
        for breakpoint in plan.breakpoints {
            let name = breakpoint.breakpoint
            let lines = breakpoint.collapsedLines, full = breakpoint.descriptionLines
            let height = Int(breakpoint.collapsedHeight.rounded()), expanded = Int(breakpoint.expandedHeight.rounded())
            if breakpoint.isTruncated { classes += " trunc-\(name)" }
            if lines != previous?.lines || height != previous?.height {
                if !style.isEmpty { style += ";" }
                style += "--lines-\(name):\(lines);--h-\(name):\(height)px"
            }
            if lines != previous?.lines || full != previous?.full || expanded != previous?.expanded {
                if !summary.isEmpty { summary += " " }
                summary += "\(name):\(lines)/\(full)/\(expanded)"
            }
            previous = (lines, full, height, expanded)
        }
        if plan.isEstimated { summary += summary.isEmpty ? "estimated" : " estimated" }
    }
}
