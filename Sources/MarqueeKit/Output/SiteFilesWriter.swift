import Foundation

/// The files static hosts and crawlers look for: `404.html`, `robots.txt`, `.nojekyll` (GitHub
/// Pages), `sitemap.xml` (with a `base_url`), and `search.json`, the small index behind the
/// gallery's filter box. Runs after the page writer, since the sitemap lists its pages.
public struct SiteFilesWriter: Plugin {
    public let name = "site-files"
    /// Loads no items.
    public func itemFiles(in context: BuildContext) -> [URL]? { [] }

    static let searchIndexPath = "search.json"

    /// Creates the plugin with its default settings.
    public init() {}

    public func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws {
        let renderer = PageRenderer(context: context)
        try output.add(".nojekyll", Data())

        // 404.html is served at any depth, so its links start from the site's absolute path.
        let basePath = context.config.baseURL?.path ?? "/"
        let root = basePath.hasSuffix("/") ? basePath : basePath + "/"
        // Made from the site's settings alone: no inputs of its own.
        try renderer.writePage(
            "404", path: "404.html", inputs: 0, title: "Page not found · \(context.config.title)", description: "", root: root, into: output
        ) {
            var values = renderer.common(root: root)
            values["heading"] = .text("Page not found")
            return values
        }

        var robots = "User-agent: *\nAllow: /\n"
        if let base = context.config.baseURL {
            robots += "Sitemap: \(base.absoluteString)sitemap.xml\n"
            try output.add("sitemap.xml", text: sitemap(output.paths.filter { OutputFile.isPage($0) && $0 != "404.html" }, renderer: renderer))
        }
        try output.add("robots.txt", text: robots)

        // Written by hand: JSONSerialization took a tenth of a 10,000-item build.
        var json = "["
        for (index, item) in items.enumerated() {
            if index > 0 { json += "," }
            json += "{"
            if let author = item.author { json += "\"a\":" + Self.jsonString(author) + "," }
            json += "\"s\":" + Self.jsonString(item.source) + ",\"t\":" + Self.jsonString(item.title)
            json += ",\"u\":\"items/" + item.slug + "/\"}"
        }
        try output.add(Self.searchIndexPath, text: json + "]")
    }

    /// A JSON string literal.
    static func jsonString(_ text: String) -> String {
        // Most titles and names need no escape at all.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "<") }) {
            return "\"" + text + "\""
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "<": result += "\\u003c"  // keeps "</script>" out of the file, should it ever be inlined
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
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
