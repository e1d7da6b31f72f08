import Foundation

/// The one model that flows through the pipeline: a movie, a feed entry, or anything a source
/// plugin produces.
public struct Item: Sendable {
    /// Stable across builds: a feed's guid or id, else its link, else a hash of its content.
    public var id: String {
        get { fields.id }
        set { change { $0.id = newValue } }
    }
    /// The name of the source that produced the item (for example `movies` or a feed's title).
    public var source: String {
        get { fields.source }
        set { change { $0.source = newValue } }
    }
    /// Plain text. Empty titles are replaced by the configured fallback (`[No Title]`).
    public var title: String {
        get { fields.title }
        set { change { $0.title = newValue } }
    }
    /// The original page of the item, absolute when the source gave enough to make it so.
    public var link: String? {
        get { fields.link }
        set { change { $0.link = newValue } }
    }
    /// A short plain-text summary, at most a couple of hundred characters.
    public var intro: String {
        get { fields.intro }
        set { change { $0.intro = newValue } }
    }
    /// The description as the source gave it. (A movie that did not change since the last build
    /// keeps its description in the list's bytes and decodes it on each read: a plugin that reads
    /// it several times should keep it in a local.)
    public var body: Markup {
        get {
            switch fields.body {
            case .given(let markup): markup
            case .undecodedMarkdown(let text, let base): .markdown(text.decoded, base: base)
            }
        }
        set {
            change {
                $0.body = .given(newValue)
                $0.bodyDigest = nil
            }
        }
    }
    /// The description as safe HTML, filled in by the markup stage. (On a rebuild, the HTML of a
    /// description that did not change is made again from `body` on each read, like `body`
    /// itself: a plugin that reads it several times should keep it in a local.)
    public var bodyHTML: String {
        get {
            switch fields.bodyHTML {
            case .given(let html): html
            case .renderedOnRead(let smartPunctuation): MarkupPlugin.pureHTML(of: body, smartPunctuation: smartPunctuation)
            }
        }
        set { setBodyHTML(.given(newValue), digest: nil) }
    }
    /// The text of ``bodyHTML`` without its markup, blocks separated by a space: what a plugin
    /// counts or searches.
    public var bodyText: String { TextBlocks.plainText(fromHTML: bodyHTML) }
    /// Every image the source offers for the item, in the source's order.
    public var images: [ImageCandidate] {
        get { fields.images }
        set { change { $0.images = newValue } }
    }
    /// The author's name, when the source gives one.
    public var author: String? {
        get { fields.author }
        set { change { $0.author = newValue } }
    }
    /// When the item was published, when the source says.
    public var date: Date? {
        get { fields.date }
        set { change { $0.date = newValue } }
    }
    /// Categories and keywords.
    public var tags: [String] {
        get { fields.tags }
        set { change { $0.tags = newValue } }
    }
    /// The URL-safe, unique folder name of the item's detail page, filled in by normalization.
    public var slug: String {
        get { fields.slug }
        set { change { $0.slug = newValue } }
    }
    /// How the gallery shows the item, filled in by the layout stage. (On a rebuild, the plan of
    /// an item whose title and description did not change is made again on each read, from the
    /// line counts the last build measured: a plugin that reads it several times should keep it
    /// in a local.)
    public var cell: CellPlan? {
        get {
            switch fields.cell {
            case .given(let plan): plan
            case .plannedOnRead(let remembered): remembered.plan(for: self)
            case nil: nil
            }
        }
        set { change { $0.cell = newValue.map(StoredCell.given) } }
    }
    /// Short labels shown after the title in cells and on the detail page (a plugin's
    /// "4 min read"). The layout engine measures them with the title.
    public var badges: [String] {
        get { fields.badges }
        set { change { $0.badges = newValue } }
    }
    /// Typed values that plugins attach to an item.
    public var metadata: ItemMetadata {
        get { fields.metadata }
        set { change { $0.metadata = newValue } }
    }

    /// Creates an item; the later stages fill in `bodyHTML`, `slug` and `cell`.
    public init(
        id: String, source: String, title: String, link: String? = nil, intro: String = "",
        body: Markup, images: [ImageCandidate] = [], author: String? = nil, date: Date? = nil,
        tags: [String] = []
    ) {
        self.init(
            id: id, source: source, title: title, link: link, intro: intro, storedBody: .given(body), bodyDigest: nil, images: images,
            author: author, date: date, tags: tags)
    }

    /// An item whose body is `storedBody`, with its ``bodyDigest`` when the source worked it out:
    /// a rebuild takes an unchanged movie's description from the list's bytes, decoded only when
    /// read, and the built-in stages only ever need its digest, unless it changed.
    init(
        id: String, source: String, title: String, link: String? = nil, intro: String, storedBody: StoredBody, bodyDigest: UInt64?,
        images: [ImageCandidate], author: String? = nil, date: Date? = nil, tags: [String] = [], originDigest: UInt64? = nil
    ) {
        storage = [Fields(
            id: id, source: source, title: title, link: link, intro: intro, body: storedBody, bodyHTML: .given(""), images: images,
            author: author, date: date, tags: tags, slug: "", cell: nil, badges: [], metadata: ItemMetadata(),
            markdownRendering: nil, bodyDigest: bodyDigest, bodyHTMLDigest: nil, originDigest: originDigest)]
    }

    /// The fields, in Swift's own copy-on-write box: an array of one. Items are copied into
    /// every stage, listing and page, and a copy then shares the fields (one reference); a stage
    /// changing an item that nothing else holds changes it in place.
    private var storage: [Fields]
    /// The fields, for the bookkeeping in `ItemStorage.swift`.
    var fields: Fields { storage[0] }

    /// Changes the fields: the item no longer is what its origin made (``originDigest``).
    mutating func change(_ body: (inout Fields) -> Void) {
        rewrite { fields in
            body(&fields)
            fields.originDigest = nil
        }
    }

    /// Changes the fields, keeping the origin.
    mutating func rewrite(_ body: (inout Fields) -> Void) {
        body(&storage[0])
    }
}

extension Item {
    /// The title as one line of text with its badges, as the cell shows it.
    public var titleLine: String {
        badges.isEmpty ? title : ([title] + badges).joined(separator: " ")
    }

    /// Adds everything a page can show of the item to `hasher`: every field as the pipeline left
    /// it, except `body` (pages show `bodyHTML`, which is added by its ``bodyHTMLDigest``). Pages
    /// made from items and the site's settings are the same when their items' digests are. A
    /// new field must be added here.
    public func combine(into hasher: inout StableHasher) {
        // Field by field: array literals of the fields cost more retains and allocations than
        // the hashing itself.
        hasher.combine(id)
        hasher.combine(source)
        hasher.combine(title)
        hasher.combine(link ?? "\u{0}")
        hasher.combine(intro)
        hasher.combine(Int(truncatingIfNeeded: bodyHTMLDigest))
        hasher.combine(author ?? "\u{0}")
        hasher.combine(slug)
        hasher.combine(images.count)
        for image in images {
            hasher.combine(image.url)
            hasher.combine(image.width ?? -1)
            hasher.combine(image.height ?? -1)
            hasher.combine(image.isThumbnail ? 1 : 0)
            hasher.combine(image.processed?.key ?? "")
        }
        hasher.combine(date.map { Int(truncatingIfNeeded: $0.timeIntervalSince1970.bitPattern) } ?? -1)
        func combine(_ list: [String]) {
            hasher.combine(list.count)
            for text in list { hasher.combine(text) }
        }
        combine(tags)
        combine(badges)
        if let cell {
            hasher.combine(cell.template.rawValue)
            hasher.combine(cell.isEstimated ? 1 : 0)
            for plan in cell.breakpoints {
                hasher.combine(plan.breakpoint)
                hasher.combine(plan.titleLines)
                hasher.combine(plan.descriptionLines)
                hasher.combine(plan.collapsedLines)
                hasher.combine(Int(truncatingIfNeeded: plan.collapsedHeight.bitPattern))
                hasher.combine(Int(truncatingIfNeeded: plan.expandedHeight.bitPattern))
            }
        } else {
            hasher.combine("no cell")
        }
        let templateValues = metadata.templateValues
        guard !templateValues.isEmpty else { return }
        for (name, value) in templateValues.sorted(by: { $0.key < $1.key }) {
            hasher.combine(name)
            hasher.combine(value)
        }
    }
}
