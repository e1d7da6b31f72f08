import Foundation

/// Turns every item's description into safe HTML: Markdown through cmark (safe mode), feed HTML
/// through the allow-list sanitizer, plain text escaped.
public struct MarkupPlugin: Plugin {
    public let name = "markup"
    /// Curly quotes and dashes in Markdown.
    public var smartPunctuation: Bool

    /// Creates the plugin.
    public init(smartPunctuation: Bool = true) {
        self.smartPunctuation = smartPunctuation
    }

    /// Leaves the items as they are.
    public func transformItems(_ items: inout [Item], in context: BuildContext) throws {
        let html = try items.concurrentMap { render($0.body, context: context) }
        for index in items.indices { items[index].bodyHTML = html[index] }
    }

    func render(_ markup: Markup, context: BuildContext) -> String {
        switch markup {
        case .text(let text):
            return text.isEmpty ? "" : "<p>" + HTMLEscape.text(text).replacingOccurrences(of: "\n", with: "<br>") + "</p>"
        case .html(let html, let base):
            return HTMLSanitizer(base: base).sanitize(html)
        case .markdown(let markdown, let base):
            return MarkdownRenderer.render(markdown, smartPunctuation: smartPunctuation) { url, role in
                resolveLocal(url, role: role, base: base, context: context)
            }
        }
    }

    /// URLs in local Markdown: web URLs pass the policy; relative images are copied into the site;
    /// other relative links point into the site.
    private func resolveLocal(_ raw: String, role: URLRole, base: URL?, context: BuildContext) -> String? {
        let url = URLPolicy.clean(raw)
        if URLPolicy.scheme(of: url) != nil || url.hasPrefix("//") {
            return URLPolicy.resolveWeb(url, role: role, base: nil)
        }
        if url.hasPrefix("#") { return url }
        guard role == .image, let base else { return nil }
        do {
            return SiteURL.rootMarker + (try context.localAssets.register(url, relativeTo: base))
        } catch {
            context.warn(BuildWarning(file: context.displayPath(base), "image in a description: \(error.message); it is left out."))
            return nil
        }
    }
}
