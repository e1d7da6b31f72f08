import Foundation

// How an item stores its fields, and what the built-in stages keep beside them so that a rebuild
// redoes only what changed: descriptions left in the bytes they were read from, the digests the
// stages key their memo on, and the item's origin. None of it is public; a plugin sees the plain
// fields of `Item.swift`.

extension Item {
    /// The stored fields, each documented on the property that reads it (the public ones in
    /// `Item.swift`).
    struct Fields: Sendable {
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
        var cell: StoredCell?
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

    /// `bodyHTML` as stored: as set, or made from `body` each time it is read. A rebuild gives
    /// the second to every description the last build rendered from nothing but the description
    /// and the settings (``MarkupPlugin/pureHTML(of:smartPunctuation:)``): it renders only
    /// the descriptions of the pages it makes again, and the memo keeps no copy of the site's HTML.
    enum StoredHTML: Sendable {
        case given(String)
        case renderedOnRead(smartPunctuation: Bool)
    }

    /// `cell` as stored: as set, or planned from the last build's line counts each time it is
    /// read (see ``RememberedCell``).
    enum StoredCell: Sendable {
        case given(CellPlan)
        case plannedOnRead(RememberedCell)
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

    /// Renders `bodyHTML` now and keeps it, for a stage that reads every item's HTML more than
    /// once. The item is what it was, with its digests and origin.
    mutating func keepBodyHTML() {
        guard case .renderedOnRead = fields.bodyHTML else { return }
        let html = bodyHTML
        rewrite { $0.bodyHTML = .given(html) }
    }

    /// Has `cell` planned from `remembered` on each read.
    mutating func planCellOnRead(_ remembered: RememberedCell) {
        change { $0.cell = .plannedOnRead(remembered) }
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

    /// True while `body` is still in the bytes it was read from, not yet decoded (for tests).
    var bodyIsUndecoded: Bool {
        switch fields.body {
        case .given: false
        case .undecodedMarkdown: true
        }
    }

    /// True while `cell` is planned on each read (for tests).
    var cellIsPlannedOnRead: Bool {
        if case .plannedOnRead = fields.cell { true } else { false }
    }

    /// True while `bodyHTML` is made from `body` on each read (for tests).
    var bodyHTMLIsRenderedOnRead: Bool {
        switch fields.bodyHTML {
        case .given: false
        case .renderedOnRead: true
        }
    }
}
