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
        items.concurrentUpdate { item in
            let (html, textBlocks) = render(item.body, context: context)
            item.bodyHTML = html
            if case .markdown = item.body { item.markdownRendering = (html, smartPunctuation, textBlocks) }
        }
    }

    /// The HTML of `markup`, and for Markdown rendered now (not remembered) its text blocks, read
    /// from the same parse for the layout stage.
    func render(_ markup: Markup, context: BuildContext) -> (html: String, textBlocks: [TextBlock]?) {
        switch markup {
        case .text(let text):
            return (text.isEmpty ? "" : "<p>" + HTMLEscape.text(text).replacingOccurrences(of: "\n", with: "<br>") + "</p>", nil)
        case .html(let html, let base):
            let sanitized = context.memo.value(for: memoKey("html", html, base?.absoluteString)) {
                HTMLSanitizer(base: base).sanitize(html)
            }
            return (sanitized, nil)
        case .markdown(let markdown, let base):
            // The base as `absoluteString`, which a file URL stores: `path` decodes it anew on
            // every call (0.4 µs, 4 ms of a 10,000-item rebuild here and as much in the fingerprint).
            let key = memoKey("markdown", markdown, base?.absoluteString)
            if let known = context.memo.value(for: key) { return (known, nil) }
            // Local images are copied into the site as a side effect: such results are not reused.
            var touchedLocalFiles = false
            let rendered = MarkdownRenderer.renderWithTextBlocks(markdown, smartPunctuation: smartPunctuation) { url, role in
                resolveLocal(url, role: role, base: base, context: context, touchedLocalFiles: &touchedLocalFiles)
            }
            if !touchedLocalFiles { context.memo.store(rendered.html, for: key) }
            return rendered
        }
    }

    private func memoKey(_ kind: String, _ text: String, _ base: String?) -> UInt64 {
        var hasher = StableHasher("markup-1")
        hasher.combine(kind)
        hasher.combine(smartPunctuation ? 1 : 0)
        hasher.combine(base ?? "")
        hasher.combine(text)
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
