/// Runs the layout engine for every item, with the theme's metrics and font.
public struct LayoutPlugin: Plugin {
    public let name = "layout"
    /// Collapsed lines of image cells; nil fits as many as the image box allows.
    public var imageLines: Int?
    /// Collapsed lines of basic cells; nil keeps the theme's (3).
    public var basicLines: Int?

    /// Creates the plugin; nil values keep the theme's defaults.
    public init(imageLines: Int? = nil, basicLines: Int? = nil) {
        self.imageLines = imageLines
        self.basicLines = basicLines
    }

    /// Leaves the cell plans as they are.
    public func layOutItems(_ items: inout [Item], in context: BuildContext) throws {
        var metrics = context.theme.metrics
        if let basicLines { metrics.basicCollapsedLines = basicLines }
        let engine = LayoutEngine(metrics: metrics, measurer: context.theme.measurer, imageCollapsedLines: imageLines)
        // Everything a plan depends on besides the item: the metrics and the fonts (by content).
        var settings = StableHasher("layout-1")
        settings.combine("\(metrics)|\(imageLines ?? -1)")
        settings.combine(context.theme.assets.regularFont + context.theme.assets.boldFont)
        let base = settings
        let plans = try items.concurrentMap { item -> CellPlan in
            var key = base
            key.combine(item.titleLine)
            key.combine(item.bodyHTML)
            key.combine(item.images.isEmpty ? 0 : 1)
            if let known = context.memo.value(for: key.value).flatMap(CellPlan.init(memoText:)) { return known }
            let plan = engine.plan(title: item.titleLine, description: TextBlocks.blocks(fromHTML: item.bodyHTML), hasImage: !item.images.isEmpty)
            context.memo.store(plan.memoText, for: key.value)
            return plan
        }
        for index in items.indices { items[index].cell = plans[index] }
    }
}

extension CellPlan {
    /// The plan as one line of text, for ``BuildMemo``: `image e phone:1:3:4:120.5:180;…`.
    var memoText: String {
        var text = template.rawValue + (isEstimated ? " e " : " - ")
        text += breakpoints.map {
            "\($0.breakpoint):\($0.titleLines):\($0.descriptionLines):\($0.collapsedLines):\($0.collapsedHeight):\($0.expandedHeight)"
        }.joined(separator: ";")
        return text
    }

    /// Reads ``memoText``; nil when the text is not a plan.
    init?(memoText: String) {
        let parts = memoText.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, let template = CellTemplate(rawValue: String(parts[0])) else { return nil }
        var breakpoints: [BreakpointPlan] = []
        for entry in parts[2].split(separator: ";") {
            let fields = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count == 6, let title = Int(fields[1]), let description = Int(fields[2]), let collapsed = Int(fields[3]),
                  let collapsedHeight = Double(fields[4]), let expandedHeight = Double(fields[5])
            else { return nil }
            breakpoints.append(BreakpointPlan(
                breakpoint: String(fields[0]), titleLines: title, descriptionLines: description, collapsedLines: collapsed,
                collapsedHeight: collapsedHeight, expandedHeight: expandedHeight))
        }
        self.init(template: template, breakpoints: breakpoints, isEstimated: parts[1] == "e")
    }
}
