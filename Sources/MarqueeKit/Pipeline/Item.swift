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
    /// The description as the source gave it. (A movie or feed item that did not change since
    /// the last build keeps its description in the list's or the memo's bytes and decodes it on
    /// each read: a plugin that reads it several times should keep it in a local.)
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
    /// The description as safe HTML, filled in by the markup stage. (On a rebuild, HTML the last
    /// build made stays in the memo's bytes and is copied out on each read, like `body`.)
    public var bodyHTML: String {
        get {
            switch fields.bodyHTML {
            case .given(let html): html
            case .remembered(let html): html.text
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
    /// How the gallery shows the item, filled in by the layout stage.
    public var cell: CellPlan? {
        get { fields.cell }
        set { change { $0.cell = newValue } }
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
    /// The ``bodyHTMLDigest`` of the HTML the markup stage made of a Markdown `body`, with its
    /// setting and, when it parsed the Markdown in this build, the text blocks read from that
    /// parse: while `bodyHTML` is still that HTML, its text is read from these blocks or the
    /// Markdown (faster than parsing the HTML).
    var markdownRendering: MarkdownRendering? {
        get { fields.markdownRendering }
        set { change { $0.markdownRendering = newValue } }
    }
    /// A hash of everything the item was made from, when its loader knows one (a movie's bytes
    /// and what else its item depends on): equal origins make equal items, so the build's
    /// fingerprint and the page digests take it instead of hashing the fields. Any change to the
    /// item clears it, unless a built-in stage carries it through the change
    /// (``carryOrigin(_:through:)``).
    var originDigest: UInt64? { fields.originDigest }
    /// ``bodyDigest``, once recorded in this build; cleared when `body` changes.
    private var knownBodyDigest: UInt64? { fields.bodyDigest }
    /// What ``bodyHTMLDigest`` is, when the stage that set `bodyHTML` knew it; cleared when
    /// `bodyHTML` changes.
    private var knownBodyHTMLDigest: UInt64? { fields.bodyHTMLDigest }

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

    /// The stored fields, each documented on the property above that reads it.
    private struct Fields: Sendable {
        var id: String
        var source: String
        var title: String
        var link: String?
        var intro: String
        var body: StoredBody
        var bodyHTML: StoredHTML
        var images: [ImageCandidate]
        var author: String?
        var date: Date?
        var tags: [String]
        var slug: String
        var cell: CellPlan?
        var badges: [String]
        var metadata: ItemMetadata
        var markdownRendering: MarkdownRendering?
        var bodyDigest: UInt64?
        var bodyHTMLDigest: UInt64?
        var originDigest: UInt64?
    }

    /// What ``markdownRendering`` holds.
    typealias MarkdownRendering = (htmlDigest: UInt64, smartPunctuation: Bool, textBlocks: [TextBlock]?)

    /// `body` as stored: as given, or a description still in the bytes it was read from (see
    /// ``init(id:source:title:link:intro:storedBody:bodyDigest:images:author:date:tags:originDigest:)``):
    /// a movie's Markdown in its JSON file.
    enum StoredBody: Sendable {
        case given(Markup)
        case undecodedMarkdown(JSONText, base: URL?)
    }

    /// `bodyHTML` as stored: as set, or as the memo holds it (see ``MemoText``): a rebuild
    /// copies out only the HTML of the pages it makes again.
    enum StoredHTML: Sendable {
        case given(String)
        case remembered(MemoText)
    }

    /// The fields, in Swift's own copy-on-write box: an array of one. Items are copied into
    /// every stage, listing and page, and a copy then shares the fields (one reference); a stage
    /// changing an item that nothing else holds changes it in place.
    private var storage: [Fields]
    private var fields: Fields { storage[0] }

    /// Changes the fields: the item no longer is what its origin made (``originDigest``).
    private mutating func change(_ body: (inout Fields) -> Void) {
        rewrite { fields in
            body(&fields)
            fields.originDigest = nil
        }
    }

    /// Changes the fields, keeping the origin.
    private mutating func rewrite(_ body: (inout Fields) -> Void) {
        body(&storage[0])
    }
}

extension Item {
    /// The title as one line of text with its badges, as the cell shows it.
    public var titleLine: String {
        badges.isEmpty ? title : ([title] + badges).joined(separator: " ")
    }

    /// A hash of `body` (its form, text and base): equal for equal bodies.
    ///
    /// Descriptions are most of a large site's bytes, and several stages key on them (the
    /// fingerprint, the markup stage's memo): ``recordBodyDigest()`` keeps the digest on the
    /// item, so that a build hashes each description once.
    var bodyDigest: UInt64 {
        knownBodyDigest ?? Self.digest(of: body)
    }

    /// ``bodyDigest`` of an item whose `body` is `body`.
    static func digest(of body: Markup) -> UInt64 {
        var hasher = StableHasher("body")
        switch body {
        case .markdown(let text, let base): hasher.combine("m"); hasher.combine(text); hasher.combine(base?.absoluteString ?? "")
        case .html(let text, let base): hasher.combine("h"); hasher.combine(text); hasher.combine(base?.absoluteString ?? "")
        case .text(let text): hasher.combine("t"); hasher.combine(text)
        }
        return hasher.value
    }

    /// The form of `body`, read without copying its text and base.
    var bodyForm: BodyForm {
        switch fields.body {
        case .given(.markdown), .undecodedMarkdown: .markdown
        case .given(.html): .html
        case .given(.text): .text
        }
    }

    /// The forms of ``Markup``.
    enum BodyForm: Sendable { case markdown, html, text }

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

    /// Gives the item an origin again after a built-in stage changed it, when it had one
    /// (`previous`, read before the change): the stage's result must depend only on the item as
    /// it was, the site's settings (which every compared build shares) and `step`, a hash of
    /// anything else the stage took (a memo key, a slug's suffix). Equal origins then still make
    /// equal items, and the pages of the ten thousand items an edit leaves alone are compared by
    /// one number each instead of by every field.
    mutating func carryOrigin(_ previous: UInt64?, through step: UInt64) {
        guard let previous else { return }
        var hasher = StableHasher()
        hasher.combine(Int(truncatingIfNeeded: previous))
        hasher.combine(Int(truncatingIfNeeded: step))
        rewrite { $0.originDigest = hasher.value }
    }

    /// True while `body` is still in the bytes it was read from, not yet decoded (for tests).
    var bodyIsUndecoded: Bool {
        switch fields.body {
        case .given: false
        case .undecodedMarkdown: true
        }
    }

    /// True while `bodyHTML` is still in the memo's bytes (for tests).
    var bodyHTMLIsRemembered: Bool {
        switch fields.bodyHTML {
        case .given: false
        case .remembered: true
        }
    }

    /// Works out ``bodyDigest`` and keeps it on the item until `body` changes. The item is what
    /// it was, and keeps its ``originDigest``.
    mutating func recordBodyDigest() {
        guard knownBodyDigest == nil else { return }
        let digest = bodyDigest
        rewrite { $0.bodyDigest = digest }
    }

    /// A key for `bodyHTML`: equal keys mean equal HTML (but for hash collisions; equal HTML
    /// made in different ways may have different keys, which costs at most a page rendered
    /// again). The markup stage gives the HTML it makes the key it made it under (the same
    /// body and settings make the same HTML), so a build does not hash the site's HTML again
    /// for the intros', the layout's memo keys and the page digests; HTML set any other way
    /// is hashed here.
    var bodyHTMLDigest: UInt64 {
        knownBodyHTMLDigest ?? Self.digest(ofHTML: bodyHTML)
    }

    /// The ``bodyHTMLDigest`` of HTML set by a plugin.
    static func digest(ofHTML html: String) -> UInt64 {
        var hasher = StableHasher("html")
        hasher.combine(html)
        return hasher.value
    }

    /// Sets `bodyHTML` with its ``bodyHTMLDigest`` (nil: the digest is its text's hash).
    mutating func setBodyHTML(_ html: StoredHTML, digest: UInt64?) {
        change {
            $0.bodyHTML = html
            $0.bodyHTMLDigest = digest
        }
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

    /// The blocks of text in `bodyHTML`: those the markup stage read while rendering it, or read
    /// again from the Markdown it was made from, unless a plugin has changed the HTML since;
    /// parsed from the HTML otherwise.
    var bodyTextBlocks: [TextBlock] {
        if let rendering = markdownRendering, rendering.htmlDigest == bodyHTMLDigest, case .markdown(let markdown, _) = body {
            if let blocks = rendering.textBlocks { return blocks }
            if let blocks = MarkdownRenderer.textBlocks(of: markdown, smartPunctuation: rendering.smartPunctuation) { return blocks }
        }
        return TextBlocks.blocks(fromHTML: bodyHTML)
    }
}
