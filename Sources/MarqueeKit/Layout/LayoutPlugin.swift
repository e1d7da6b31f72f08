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
        let plans = try items.concurrentMap { item in
            engine.plan(title: item.titleLine, description: TextBlocks.blocks(fromHTML: item.bodyHTML), hasImage: !item.images.isEmpty)
        }
        for index in items.indices { items[index].cell = plans[index] }
    }
}
