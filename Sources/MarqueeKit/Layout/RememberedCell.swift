/// A cell planned each time it is read, from the line counts the last build measured for the
/// same title, description and settings (the memo's value under `key`). A rebuild shows only the
/// pages of what changed, so the layout stage gives one to every item whose counts the memo holds
/// (see ``LayoutPlugin``), and only the cells of the pages made again are planned.
struct RememberedCell: Sendable {
    /// The engine and memo of one layout stage, shared by all its items: a reference each,
    /// rather than a copy of the engine's tables each.
    final class Planner: Sendable {
        let engine: LayoutEngine
        let memo: BuildMemo

        init(engine: LayoutEngine, memo: BuildMemo) {
            self.engine = engine
            self.memo = memo
        }
    }

    let planner: Planner
    let key: UInt64
    let hasImage: Bool

    /// The plan of `item`'s cell: from the remembered counts, or measured again when the memo's
    /// value does not read as counts for the theme's breakpoints.
    func plan(for item: Item) -> CellPlan {
        let engine = planner.engine
        let remembered = planner.memo.value(LayoutEngine.LineCounts.self, for: key)
        let counts = remembered.flatMap { $0.fit(engine.metrics.breakpoints) ? $0 : nil }
            ?? engine.lineCounts(title: item.titleLine, description: item.bodyTextBlocks, hasImage: hasImage)
        return engine.plan(counts, hasImage: hasImage)
    }
}
