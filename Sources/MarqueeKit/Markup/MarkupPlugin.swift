import Foundation

/// Turns every item's description into safe HTML: Markdown through cmark (safe mode), feed HTML
/// through the allow-list sanitizer, plain text escaped.
public struct MarkupPlugin: Plugin {
    public let name = "markup"
    /// Loads no items.
    public func itemFiles(in context: BuildContext) -> [URL]? { [] }

    /// Curly quotes and dashes in Markdown.
    public var smartPunctuation: Bool

    /// Creates the plugin.
    public init(smartPunctuation: Bool = true) {
        self.smartPunctuation = smartPunctuation
    }

    /// Sets every item's `bodyHTML`; results for unchanged descriptions come from the memo of
    /// the last build (except Markdown that copies local images).
    public func transformItems(_ items: inout [Item], in context: BuildContext) throws {
        let keys = items.concurrentMap { memoKey(bodyDigest: $0.bodyDigest) }
        // Markdown and HTML made before: the memo holds it (plain text is quicker made again).
        // Left in the memo's bytes until a page shows it.
        let known = context.memo.values(MemoText.self, for: keys)
        items.concurrentUpdate { index, item in
            let key = keys[index]
            let form = item.bodyForm
            // The HTML is the item's body made with the settings, or the HTML its digest names.
            let origin = item.originDigest
            if form != .text, let known = known[index] {
                item.setBodyHTML(.remembered(known), digest: key)
                if form == .markdown { item.markdownRendering = (key, smartPunctuation, nil) }
                item.carryOrigin(origin, through: key)
                return
            }
            let rendered = render(item.body, key: key, context: context)
            // HTML made purely from the body and the settings is the same whenever its memo key
            // is: the key stands for it in later stages' keys and digests.
            let digest = rendered.isPure ? key : Item.digest(ofHTML: rendered.html)
            item.setBodyHTML(.given(rendered.html), digest: digest)
            if form == .markdown { item.markdownRendering = (digest, smartPunctuation, rendered.textBlocks) }
            item.carryOrigin(origin, through: digest)
        }
    }

    /// The HTML of `markup` made now (the memo did not have it), stored in the memo under `key`
    /// when pure, and for Markdown its text blocks, read from the same parse for the layout
    /// stage. The HTML is pure when it depends on nothing but `markup` and the settings (it does
    /// not point at local files copied into the site).
    func render(_ markup: Markup, key: UInt64, context: BuildContext) -> (html: String, textBlocks: [TextBlock]?, isPure: Bool) {
        switch markup {
        case .text(let text):
            return (text.isEmpty ? "" : "<p>" + HTMLEscape.text(text).replacingOccurrences(of: "\n", with: "<br>") + "</p>", nil, true)
        case .html(let html, let base):
            let sanitized = HTMLSanitizer(base: base).sanitize(html)
            context.memo.store(sanitized, for: key)
            return (sanitized, nil, true)
        case .markdown(let markdown, let base):
            // Local images are copied into the site as a side effect: such results are not reused.
            var touchedLocalFiles = false
            let rendered = MarkdownRenderer.renderWithTextBlocks(markdown, smartPunctuation: smartPunctuation) { url, role in
                resolveLocal(url, role: role, base: base, context: context, touchedLocalFiles: &touchedLocalFiles)
            }
            if !touchedLocalFiles { context.memo.store(rendered.html, for: key) }
            return (rendered.html, rendered.textBlocks, !touchedLocalFiles)
        }
    }

    /// What the HTML of a body depends on: the body (by its ``Item/bodyDigest``, which holds its
    /// form, text and base) and the settings.
    private func memoKey(bodyDigest: UInt64) -> UInt64 {
        var hasher = StableHasher("markup-2")
        hasher.combine(smartPunctuation ? 1 : 0)
        hasher.combine(Int(truncatingIfNeeded: bodyDigest))
        return hasher.value
    }

    /// URLs in local Markdown: web URLs pass the policy; relative images are copied into the site;
    /// other relative links point into the site.
    private func resolveLocal(_ raw: String, role: URLRole, base: URL?, context: BuildContext, touchedLocalFiles: inout Bool) -> String? {
        let url = URLPolicy.clean(raw)
        if URLPolicy.scheme(of: url) != nil || url.hasPrefix("//") {
            return URLPolicy.resolveWeb(url, role: role, base: nil)
        }
        if url.hasPrefix("#") { return url }
        guard role == .image, let base else { return nil }
        touchedLocalFiles = true
        do {
            return SiteURL.rootMarker + (try context.localAssets.register(url, relativeTo: base))
        } catch {
            context.warn(BuildWarning(file: context.displayPath(base), "image in a description: \(error.message); it is left out."))
            return nil
        }
    }
}
