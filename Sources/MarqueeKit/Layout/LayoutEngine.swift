/// Decides how each item is shown, before any browser sees the page: a pure, deterministic
/// function of the item's text and the theme metrics.
package struct LayoutEngine: Sendable {
    /// The theme metrics predictions are made with.
    package let metrics: ThemeMetrics
    /// Breaks text into lines with the theme's fonts.
    package let lineBreaker: LineBreaker
    /// Collapsed lines of image cells; nil means "as many as fit beside the image box".
    package let imageCollapsedLines: Int?

    /// Creates an engine; `imageCollapsedLines` overrides the lines that fit beside the image box.
    package init(metrics: ThemeMetrics, measurer: TextMeasurer, imageCollapsedLines: Int? = nil) {
        self.metrics = metrics
        self.lineBreaker = LineBreaker(measurer: measurer, commonSizes: [metrics.titleFontSize, metrics.bodyFontSize])
        self.imageCollapsedLines = imageCollapsedLines
    }

    /// The cell plan for a title and description.
    package func plan(title: String, description: [TextBlock], hasImage: Bool) -> CellPlan {
        plan(lineCounts(title: title, description: description, hasImage: hasImage), hasImage: hasImage)
    }

    /// The measured part of a plan: how many lines the title and the description take at each
    /// breakpoint. Everything else in a plan is arithmetic on these.
    package struct LineCounts: Sendable, Equatable, Codable {
        /// Title lines, one entry per breakpoint of the metrics.
        package var title: [Int]
        /// Description lines, one entry per breakpoint.
        package var description: [Int]
        /// The number of description blocks (paragraph gaps come between them).
        package var blocks: Int
        /// True when some character is drawn by the reader's fonts, so widths are estimated.
        package var isEstimated: Bool

        /// True when there are counts for each of `breakpoints` (a count read from a damaged
        /// memo may not have them).
        func fit(_ breakpoints: [Breakpoint]) -> Bool {
            title.count == breakpoints.count && description.count == breakpoints.count
        }

        /// Creates line counts.
        package init(title: [Int], description: [Int], blocks: Int, isEstimated: Bool) {
            self.title = title
            self.description = description
            self.blocks = blocks
            self.isEstimated = isEstimated
        }

        /// Read from one list of numbers, as ``encode(to:)`` writes it: a rebuild reads the
        /// counts of every item, and the memo reads a list of integers at once, where a record's
        /// members each go through a keyed container.
        package init(from decoder: any Decoder) throws {
            let numbers = try decoder.singleValueContainer().decode([Int].self)
            guard numbers.count >= 3, case let titles = numbers[2], titles >= 0, titles <= numbers.count - 3 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not line counts"))
            }
            self.init(
                title: Array(numbers[3..<3 + titles]), description: Array(numbers[(3 + titles)...]),
                blocks: numbers[0], isEstimated: numbers[1] != 0)
        }

        /// `[blocks, isEstimated, title.count] + title + description`.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode([blocks, isEstimated ? 1 : 0, title.count] + title + description)
        }
    }

    /// Measures a title and description at every breakpoint.
    package func lineCounts(title: String, description: [TextBlock], hasImage: Bool) -> LineCounts {
        let template: CellTemplate = hasImage ? .image : .basic
        // Each block is measured once and broken at every breakpoint's width.
        let measuredTitle = lineBreaker.measure([TextRun(title, bold: true)], size: metrics.titleFontSize)
        let measuredBlocks = description.map {
            lineBreaker.measure($0.runs, size: metrics.bodyFontSize, preformatted: $0.kind == .preformatted)
        }
        let widths = metrics.breakpoints.map { metrics.textWidth(at: $0, template: template) }
        var counts = LineCounts(
            title: Array(repeating: 0, count: widths.count), description: Array(repeating: 0, count: widths.count),
            blocks: description.count, isEstimated: !measuredTitle.isCovered || !measuredBlocks.allSatisfy(\.isCovered))
        lineBreaker.addLineCounts(measuredTitle, widths: widths, indent: 0, to: &counts.title)
        for (block, text) in zip(description, measuredBlocks) {
            var indent = 0.0
            if case .listItem(let level) = block.kind { indent = Double(level) * metrics.listIndent }
            lineBreaker.addLineCounts(text, widths: widths, indent: indent, to: &counts.description)
        }
        return counts
    }

    /// The plan that follows from measured line counts.
    package func plan(_ counts: LineCounts, hasImage: Bool) -> CellPlan {
        let template: CellTemplate = hasImage ? .image : .basic
        let plans = metrics.breakpoints.indices.map { index in
            plan(titleLines: counts.title[index], descriptionLines: counts.description[index], blocks: counts.blocks,
                 template: template, at: metrics.breakpoints[index])
        }
        return CellPlan(template: template, breakpoints: plans, isEstimated: counts.isEstimated)
    }

    func plan(titleLines: Int, descriptionLines: Int, blocks: Int, template: CellTemplate, at breakpoint: Breakpoint) -> BreakpointPlan {
        let m = metrics
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
        // Text that is not cut does not expand: the cell keeps its collapsed height.
        var expandedText = collapsedText
        if descriptionLines > collapsedLines {
            expandedText = titleHeight + descriptionGap + Double(descriptionLines) * m.bodyLineHeight
                + Double(max(0, blocks - 1)) * m.paragraphGap + m.toggleRowHeight
        }
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
