import Foundation

/// Runs the layout engine for every item, with the theme's metrics and font.
public struct LayoutPlugin: Plugin {
    public let name = "layout"
    /// Loads no items.
    public func itemFiles(in context: BuildContext) -> [URL]? { [] }

    /// Collapsed lines of image cells; nil fits as many as the image box allows.
    public var imageLines: Int?
    /// Collapsed lines of basic cells; nil keeps the theme's (3).
    public var basicLines: Int?

    /// Creates the plugin; nil values keep the theme's defaults.
    public init(imageLines: Int? = nil, basicLines: Int? = nil) {
        self.imageLines = imageLines
        self.basicLines = basicLines
    }

    /// Sets every item's cell plan. An item whose title and description the last build measured
    /// with the same settings gets a plan made when it is read, from the memo's line counts
    /// (``RememberedCell``): a rebuild reads only the cells of the pages it makes again.
    public func layOutItems(_ items: inout [Item], in context: BuildContext) throws {
        var metrics = context.theme.metrics
        if let basicLines { metrics.basicCollapsedLines = basicLines }
        let engine = LayoutEngine(metrics: metrics, measurer: try context.theme.measurer, imageCollapsedLines: imageLines)
        // Everything a plan depends on besides the item: the metrics and the fonts (by content).
        var settings = StableHasher("layout-3")
        settings.combine(context.theme.metricsDescription + "|\(basicLines ?? -1)|\(imageLines ?? -1)")
        // The asset names carry each font's content hash; the metrics name the files only by path.
        let assets = context.theme.assets
        settings.combine(assets.regularFont + assets.boldFont + assets.fallbackFont)
        let base = settings
        let memo = context.memo
        let keys = items.concurrentMap { item in
            var key = base
            key.combine(item.titleLine)
            key.combine(Int(truncatingIfNeeded: item.bodyHTMLDigest))
            key.combine(item.images.isEmpty ? 0 : 1)
            return key.value
        }
        let known = memo.contains(keys)
        let planner = RememberedCell.Planner(engine: engine, memo: memo)
        items.concurrentUpdate { index, item in
            let hasImage = !item.images.isEmpty
            // The plan is the item's, made with the settings the key holds.
            let origin = item.originDigest
            defer { item.carryOrigin(origin, through: keys[index]) }
            if known[index] {
                item.planCellOnRead(RememberedCell(planner: planner, key: keys[index], hasImage: hasImage))
                return
            }
            let counts = engine.lineCounts(title: item.titleLine, description: item.bodyTextBlocks, hasImage: hasImage)
            memo.store(counts, for: keys[index])
            item.cell = engine.plan(counts, hasImage: hasImage)
        }
    }
}
