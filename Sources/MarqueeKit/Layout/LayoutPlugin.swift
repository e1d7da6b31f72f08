/// Runs the layout engine for every item, with the theme's metrics and font.
public struct LayoutPlugin: Plugin {
    public let name = "layout"

    public init() {}

    public func layOutItems(_ items: inout [Item], in context: BuildContext) throws {
        let engine = LayoutEngine(metrics: context.theme.metrics, measurer: context.theme.measurer)
        for index in items.indices {
            let item = items[index]
            items[index].cell = engine.plan(
                title: item.title, description: TextBlocks.blocks(fromHTML: item.bodyHTML), hasImage: !item.images.isEmpty)
        }
    }
}
