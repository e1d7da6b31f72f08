import Foundation

/// A source whose items pass through its ``ItemFilter`` and are then cut to its `limit:`, so
/// that the limit counts kept items. Wraps any source plugin.
struct FilteredSource: Plugin {
    let source: any Plugin
    let filter: ItemFilter
    let limit: Int?

    var name: String { source.name }

    func loadItems(in context: BuildContext) async throws -> [Item] {
        let kept = try await source.loadItems(in: context).filter(filter.keeps(now: Date()))
        return Array(kept.prefix(limit ?? Int.max))
    }

    /// The source's files; with `since:`, none can be named, as the items kept change with the
    /// clock.
    func itemFiles(in context: BuildContext) -> [URL]? {
        filter.since == nil ? source.itemFiles(in: context) : nil
    }
}
