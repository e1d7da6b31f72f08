import Foundation

/// Makes items consistent whatever their source: drops repeated ids, fills in fallback titles
/// and intros, and gives each item a unique slug.
public struct NormalizePlugin: Plugin {
    public let name = "normalize"
    /// Loads no items.
    public func itemFiles(in context: BuildContext) -> [URL]? { [] }

    /// Creates the plugin with its default settings.
    public init() {}

    /// Image candidates kept per item (feeds have been seen listing hundreds).
    public static let maximumImages = 32

    /// Drops repeated ids, trims titles (or uses the fallback), fills and cuts intros, caps image
    /// candidates and assigns slugs.
    public func transformItems(_ items: inout [Item], in context: BuildContext) throws {
        let config = context.config, memo = context.memo
        // One pass on every core: each item made consistent, then its id and its slug's base
        // hashed for the passes in order that follow.
        var keys = items.concurrentUpdate { item -> (id: UInt64, slug: Slug.Base) in
            let title = item.title.trimmed()
            item.title = title.isEmpty ? config.titleFallback : title
            if item.intro.isEmpty { item.intro = Self.plainText(of: item, memo: memo) }
            item.intro = TextTruncation.truncate(item.intro, to: config.introLength)
            if item.images.count > Self.maximumImages { item.images.removeLast(item.images.count - Self.maximumImages) }
            return (HashedStringSet.hash(item.id), Slug.base(for: item))
        }
        var seen = HashedStringSet(capacity: items.count)
        let firstOfTheirId = zip(items, keys).map { seen.insert($0.id, hash: $1.id) }
        // Filtering copies every item, so it is only done when some id repeats.
        if firstOfTheirId.contains(false) {
            items = zip(items, firstOfTheirId).filter(\.1).map(\.0)
            keys = zip(keys, firstOfTheirId).filter(\.1).map(\.0)
        }
        Slug.assign(to: &items, bases: keys.map(\.slug))
    }

    /// The description as plain text (for the intro), remembered between builds.
    static func plainText(of item: Item, memo: BuildMemo) -> String {
        var key = StableHasher("plain-text-2")
        key.combine(Int(truncatingIfNeeded: item.bodyHTMLDigest))
        return memo.value(for: key.value) { TextBlocks.plainText(of: item.bodyTextBlocks) }
    }
}
