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

    /// Drops repeated ids, cleans and trims titles (or uses the fallback), fills and cuts intros,
    /// removes control characters (see ``CleanText``), caps image candidates and assigns slugs.
    public func transformItems(_ items: inout [Item], in context: BuildContext) throws {
        let config = context.config, memo = context.memo
        let introKeys = items.concurrentMap { Self.introKey(of: $0, length: config.introLength) }
        let rememberedIntros = memo.values(String.self, for: introKeys)
        // One pass on every core: each item made consistent, its slug's base made and its id hashed.
        let made = items.concurrentUpdate { index, item -> (base: Slug.Base, idHash: Int) in
            // What changes is made from the item and the settings alone.
            let origin = item.originDigest
            defer { item.carryOrigin(origin, through: Self.step) }
            // A field is set only when it changes: setting one retains the new value and releases
            // the old, for most of ten thousand items on every rebuild.
            // Characters no page may carry go first, so that a title of nothing else falls back.
            let label = { (text: String) in CleanText.clean(text, removingBidiControls: true) }
            let trimmedTitle = label(item.title).trimmed()
            let title = trimmedTitle.isEmpty ? config.titleFallback : trimmedTitle
            if title != item.title { item.title = title }
            let intro = CleanText.clean(item.intro.isEmpty
                ? rememberedIntros[index] ?? Self.intro(of: item, length: config.introLength, key: introKeys[index], memo: memo)
                : TextTruncation.truncate(item.intro, to: config.introLength))
            if intro != item.intro { item.intro = intro }
            if let author = item.author {
                let cleaned = label(author)
                if cleaned != author { item.author = cleaned }
            }
            let tags = item.tags.map(label)
            if tags != item.tags { item.tags = tags }
            let source = label(item.source)
            if source != item.source { item.source = source }
            if item.images.count > Self.maximumImages { item.images.removeLast(item.images.count - Self.maximumImages) }
            return (Slug.base(for: item), item.id.hashValue)
        }
        var bases = made.map(\.base)
        let firstOfTheirId = Self.firstOfTheirId(items, idHashes: made.map(\.idHash))
        if firstOfTheirId.contains(false) {
            items = zip(items, firstOfTheirId).filter(\.1).map(\.0)
            bases = zip(bases, firstOfTheirId).filter(\.1).map(\.0)
        }
        Slug.assign(to: &items, bases: bases, memo: memo)
    }

    /// Whether each item is the first with its id. The ids are compared by their hashes, made in
    /// the pass on every core, and read only when two hashes are equal: this part runs on one
    /// core, where reading every item's id again was a large share of the stage.
    static func firstOfTheirId(_ items: [Item], idHashes: [Int]) -> [Bool] {
        var firstWithHash = [Int: Int](minimumCapacity: items.count)
        // Ids whose hash an item with another id had first: the set settles them.
        var sharingAHash: Set<String> = []
        return items.indices.map { index in
            guard let first = firstWithHash[idHashes[index]] else {
                firstWithHash[idHashes[index]] = index
                return true
            }
            let id = items[index].id
            return id != items[first].id && sharingAHash.insert(id).inserted
        }
    }

    /// The ``Item/carryOrigin(_:through:)`` step of the pass that makes an item consistent.
    private static let step = StableHasher("normalize-1").value

    /// The intro made from the description (its plain text, cut to `length`), stored in the memo
    /// under `key` for the next build: the intro, not the whole plain text, so that a rebuild
    /// decodes ~200 bytes per item instead of the description's length.
    static func intro(of item: Item, length: Int, key: UInt64, memo: BuildMemo) -> String {
        let intro = TextTruncation.truncate(TextBlocks.plainText(of: item.bodyTextBlocks), to: length)
        memo.store(intro, for: key)
        return intro
    }

    /// The memo key of the intro made from the description of `item`.
    static func introKey(of item: Item, length: Int) -> UInt64 {
        var key = StableHasher("intro-1")
        key.combine(Int(truncatingIfNeeded: item.bodyHTMLDigest))
        key.combine(length)
        return key.value
    }
}
