/// Decides how each item is shown, before any browser sees the page: a pure, deterministic
/// function of the item's text and the theme metrics.
public struct LayoutEngine: Sendable {
    /// The theme metrics predictions are made with.
    public let metrics: ThemeMetrics
    /// Breaks text into lines with the theme's fonts.
    public let lineBreaker: LineBreaker
    /// Collapsed lines of image cells; nil means "as many as fit beside the image box".
    public let imageCollapsedLines: Int?

    /// Creates an engine; `imageCollapsedLines` overrides the lines that fit beside the image box.
    public init(metrics: ThemeMetrics, measurer: TextMeasurer, imageCollapsedLines: Int? = nil) {
        self.metrics = metrics
        self.lineBreaker = LineBreaker(measurer: measurer)
        self.imageCollapsedLines = imageCollapsedLines
    }

    /// The cell plan for a title and description.
    public func plan(title: String, description: [TextBlock], hasImage: Bool) -> CellPlan {
        let template: CellTemplate = hasImage ? .image : .basic
        // Each block is measured once and broken at every breakpoint's width.
        let measuredTitle = lineBreaker.measure([TextRun(title, bold: true)], size: metrics.titleFontSize)
        let measuredBlocks = description.map { lineBreaker.measure($0.runs, size: metrics.bodyFontSize) }
        let plans = metrics.breakpoints.map { breakpoint in
            plan(title: measuredTitle, description: description, measured: measuredBlocks, template: template, at: breakpoint)
        }
        let estimated = !measuredTitle.isCovered || !measuredBlocks.allSatisfy(\.isCovered)
        return CellPlan(template: template, breakpoints: plans, isEstimated: estimated)
    }

    func plan(
        title: LineBreaker.MeasuredText, description: [TextBlock], measured: [LineBreaker.MeasuredText],
        template: CellTemplate, at breakpoint: Breakpoint
    ) -> BreakpointPlan {
        let m = metrics
        let width = m.textWidth(at: breakpoint, template: template)
        let titleLines = lineBreaker.lineCount(title, width: width)
        var descriptionLines = 0
        for (block, text) in zip(description, measured) {
            var blockWidth = width
            if case .listItem(let level) = block.kind { blockWidth -= Double(level) * m.listIndent }
            descriptionLines += lineBreaker.lineCount(text, width: blockWidth, preformatted: block.kind == .preformatted)
        }
        let collapsedLines: Int
        switch template {
        case .basic:
            collapsedLines = m.basicCollapsedLines
        case .image:
            let room = m.imageBox - Double(titleLines) * m.titleLineHeight - m.titleGap
            collapsedLines = imageCollapsedLines ?? max(1, Int((room / m.bodyLineHeight).rounded(.down)))
        }
        let titleHeight = Double(titleLines) * m.titleLineHeight
        let shownLines = min(descriptionLines, collapsedLines)
        let descriptionGap = descriptionLines > 0 ? m.titleGap : 0
        var collapsedText = titleHeight + descriptionGap + Double(shownLines) * m.bodyLineHeight
        var expandedText = titleHeight + descriptionGap + Double(descriptionLines) * m.bodyLineHeight
            + Double(max(0, description.count - 1)) * m.paragraphGap
        if descriptionLines > collapsedLines { expandedText += m.toggleRowHeight }
        if template == .image {
            collapsedText = max(collapsedText, m.imageBox)
            expandedText = max(expandedText, m.imageBox)
        }
        return BreakpointPlan(
            breakpoint: breakpoint.name, titleLines: titleLines, descriptionLines: descriptionLines,
            collapsedLines: collapsedLines, collapsedHeight: collapsedText + 2 * m.cellPadding,
            expandedHeight: expandedText + 2 * m.cellPadding)
    }
}
