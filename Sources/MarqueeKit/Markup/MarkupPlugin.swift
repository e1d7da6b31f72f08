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

    /// Sets every item's `bodyHTML`. A description the last build rendered purely (from nothing
    /// but the description and the settings) is rendered again only when its HTML is read: a
    /// rebuild reads it only for the pages it makes again.
    public func transformItems(_ items: inout [Item], in context: BuildContext) throws {
        let keys = items.concurrentMap { memoKey(bodyDigest: $0.bodyDigest) }
        // Only pure renders are stored, so an entry under a key is all there is to know.
        let renderedPurely = context.memo.contains(keys)
        items.concurrentUpdate { index, item in
            let key = keys[index]
            let form = item.bodyForm
            // The HTML is the item's body made with the settings, or the HTML its digest names.
            let origin = item.originDigest
            if renderedPurely[index] {
                item.setBodyHTML(.renderedOnRead(smartPunctuation: smartPunctuation), digest: key)
                if form == .markdown { item.markdownRendering = (key, smartPunctuation, nil) }
                item.carryOrigin(origin, through: key)
                return
            }
            let rendered = render(item.body, context: context)
            // HTML made purely from the body and the settings is the same whenever its memo key
            // is: the key stands for it in later stages' keys and digests, and the memo says so
            // for the next build.
            if rendered.isPure { context.memo.store(true, for: key) }
            let digest = rendered.isPure ? key : Item.digest(ofHTML: rendered.html)
            item.setBodyHTML(.given(rendered.html), digest: digest)
            if form == .markdown { item.markdownRendering = (digest, smartPunctuation, rendered.textBlocks) }
            item.carryOrigin(origin, through: digest)
        }
    }

    /// The HTML of `markup`, and for Markdown its text blocks, read from the same parse for the
    /// layout stage. The HTML is pure when it depends on nothing but `markup` and the settings
    /// (it does not point at local files copied into the site).
    func render(_ markup: Markup, context: BuildContext) -> (html: String, textBlocks: [TextBlock]?, isPure: Bool) {
        guard case .markdown(let markdown, let base) = markup else {
            return (Self.pureHTML(of: markup, smartPunctuation: smartPunctuation), nil, true)
        }
        // Local images are copied into the site as a side effect: such results are not reused.
        var touchedLocalFiles = false
        let rendered = MarkdownRenderer.renderWithTextBlocks(markdown, smartPunctuation: smartPunctuation) { url, role in
            Self.resolve(url, role: role) { local in
                guard let base else { return nil }
                touchedLocalFiles = true
                do throws(LocalAssetProblem) {
                    return SiteURL.rootMarker + (try context.localAssets.register(local, relativeTo: base))
                } catch {
                    context.warn(BuildWarning(file: context.displayPath(base), "image in a description: \(error.message); it is left out."))
                    return nil
                }
            }
        }
        return (rendered.html, rendered.textBlocks, !touchedLocalFiles)
    }

    /// The HTML made of `markup` from nothing but it and the settings: a Markdown description's
    /// local images are left out (the markup stage renders those itself, and copies them).
    static func pureHTML(of markup: Markup, smartPunctuation: Bool) -> String {
        switch markup {
        case .text(let text):
            text.isEmpty ? "" : "<p>" + HTMLEscape.text(text).replacingOccurrences(of: "\n", with: "<br>") + "</p>"
        case .html(let html, let base):
            HTMLSanitizer(base: base).sanitize(html)
        case .markdown(let markdown, _):
            MarkdownRenderer.render(markdown, smartPunctuation: smartPunctuation) { url, role in resolve(url, role: role) { _ in nil } }
        }
    }

    /// What the HTML of a body depends on: the body (by its ``Item/bodyDigest``, which holds its
    /// form, text and base) and the settings.
    private func memoKey(bodyDigest: UInt64) -> UInt64 {
        var hasher = StableHasher("markup-3")
        hasher.combine(smartPunctuation ? 1 : 0)
        hasher.combine(Int(truncatingIfNeeded: bodyDigest))
        return hasher.value
    }

    /// URLs in local Markdown: web URLs pass the policy and fragments stay; a relative image
    /// is what `localImage` makes of it; other relative URLs are refused (nil).
    private static func resolve(_ raw: String, role: URLRole, localImage: (String) -> String?) -> String? {
        let url = URLPolicy.clean(raw)
        if URLPolicy.scheme(of: url) != nil || url.hasPrefix("//") {
            return URLPolicy.resolveWeb(url, role: role, base: nil)
        }
        if url.hasPrefix("#") { return url }
        return role == .image ? localImage(url) : nil
    }
}
