import Foundation

/// The files static hosts and crawlers look for: `404.html`, `robots.txt`, `.nojekyll` (GitHub
/// Pages), `sitemap.xml` (with a `base_url`), and `search.json`, the small index behind the
/// gallery's filter box. Runs after the page writer, since the sitemap lists its pages.
public struct SiteFilesWriter: Plugin {
    public let name = "site-files"
    static let searchIndexPath = "search.json"

    /// Creates the plugin with its default settings.
    public init() {}

    public func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws {
        let renderer = PageRenderer(context: context)
        try output.add(".nojekyll", Data())

        // 404.html is served at any depth, so its links start from the site's absolute path.
        let basePath = context.config.baseURL?.path ?? "/"
        let root = basePath.hasSuffix("/") ? basePath : basePath + "/"
        var values = renderer.common(root: root)
        values["heading"] = "Page not found"
        try output.add("404.html", text: try renderer.page(
            "404", values, path: "404.html", title: "Page not found · \(context.config.title)", description: "", root: root))

        var robots = "User-agent: *\nAllow: /\n"
        if let base = context.config.baseURL {
            robots += "Sitemap: \(base.absoluteString)sitemap.xml\n"
            try output.add("sitemap.xml", text: sitemap(output.files.filter { $0.isPage && $0.path != "404.html" }.map(\.path), renderer: renderer))
        }
        try output.add("robots.txt", text: robots)

        let index: [[String: String]] = items.map { item in
            var entry = ["t": item.title, "s": item.source, "u": "items/\(item.slug)/"]
            if let author = item.author { entry["a"] = author }
            return entry
        }
        let json = try JSONSerialization.data(withJSONObject: index, options: [.sortedKeys, .withoutEscapingSlashes])
        try output.add(Self.searchIndexPath, json)
    }

    private func sitemap(_ pages: [String], renderer: PageRenderer) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for page in pages.sorted() {
            guard let url = renderer.absoluteURL(ofPage: page) else { continue }
            xml += "  <url><loc>\(HTMLEscape.text(url))</loc></url>\n"
        }
        return xml + "</urlset>\n"
    }
}
