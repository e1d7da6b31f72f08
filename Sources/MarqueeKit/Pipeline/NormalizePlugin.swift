/// Makes items consistent whatever their source: drops repeated ids, fills in fallback titles
/// and intros, and gives each item a unique slug.
public struct NormalizePlugin: Plugin {
    public let name = "normalize"

    /// Creates the plugin with its default settings.
    public init() {}

    /// Image candidates kept per item (feeds have been seen listing hundreds).
    public static let maximumImages = 32

    /// Drops repeated ids, trims titles (or uses the fallback), fills and cuts intros, caps image
    /// candidates and assigns slugs.
    public func transformItems(_ items: inout [Item], in context: BuildContext) throws {
        var seen: Set<String> = []
        items = items.filter { seen.insert($0.id).inserted }
        let config = context.config
        for index in items.indices {
            let title = items[index].title.trimmingCharacters(in: .whitespacesAndNewlines)
            items[index].title = title.isEmpty ? config.titleFallback : title
            if items[index].intro.isEmpty { items[index].intro = Self.plainText(of: items[index].bodyHTML, memo: context.memo) }
            items[index].intro = TextTruncation.truncate(items[index].intro, to: config.introLength)
            if items[index].images.count > Self.maximumImages { items[index].images.removeLast(items[index].images.count - Self.maximumImages) }
        }
        Slug.assign(to: &items)
    }

    /// The description as plain text (for the intro), remembered between builds.
    static func plainText(of html: String, memo: BuildMemo) -> String {
        var key = StableHasher("plain-text-1")
        key.combine(html)
        return memo.value(for: key.value) { TextBlocks.plainText(fromHTML: html) }
    }
}
