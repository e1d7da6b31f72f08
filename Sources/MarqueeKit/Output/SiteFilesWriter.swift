import Foundation

/// The files static hosts and crawlers look for: `404.html`, `robots.txt`, `.nojekyll` (GitHub
/// Pages), `_headers` (the pages' security policy, for Netlify and Cloudflare Pages),
/// `sitemap.xml` (with a `base_url`), and `search.json`, the small index behind the
/// gallery's filter box. Runs after the page writer, since the sitemap lists its pages.
package struct SiteFilesWriter: Plugin {
    package let name = "site-files"
    /// Loads no items.
    package func itemFiles(in context: BuildContext) -> [URL]? { [] }

    static let searchIndexPath = "search.json"

    /// Creates the plugin with its default settings.
    package init() {}

    package func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws {
        let renderer = PageRenderer(context: context)
        try output.add(".nojekyll", Data())

        // 404.html is served at any depth, so its links start from the site's absolute path.
        let basePath = context.config.baseURL?.path ?? "/"
        let root = basePath.hasSuffix("/") ? basePath : basePath + "/"
        // Made from the site's settings alone: no inputs of its own.
        try renderer.writePage("404", path: "404.html", inputs: 0, root: root, into: output) {
            PageHead(title: "Page not found · \(context.config.title)", description: "")
        } values: {
            var values = renderer.common(root: root)
            values["heading"] = .text("Page not found")
            return values
        }

        var robots = "User-agent: *\nAllow: /\n"
        if let base = context.config.baseURL {
            robots += "Sitemap: \(base.absoluteString)sitemap.xml\n"
            // The sitemap changes only with the pages it lists (and the address, which the build
            // state compares on its own): a rebuild that adds no page keeps the file without
            // making it again.
            let pages = output.paths.filter { OutputFile.isPage($0) && $0 != "404.html" }
            var inputs = StableHasher("sitemap")
            for page in pages { inputs.combine(page) }
            if !output.reuse("sitemap.xml", digest: inputs.value) {
                try output.add("sitemap.xml", text: sitemap(pages, renderer: renderer), digest: inputs.value)
            }
        }
        try output.add("robots.txt", text: robots)
        try output.add("_headers", text: context.theme.contentSecurityPolicy.headersFile)

        // The index changes only with these fields of the items: a rebuild after a description
        // was edited keeps the file without making it again. Each item's are hashed on every core.
        let itemInputs = items.concurrentMap { item in
            var inputs = StableHasher()
            inputs.combine(item.author ?? "\u{0}")
            inputs.combine(item.source)
            inputs.combine(item.title)
            inputs.combine(item.slug)
            return inputs.value
        }
        var inputs = StableHasher("search-index")
        for itemInput in itemInputs { inputs.combine(Int(truncatingIfNeeded: itemInput)) }
        if !output.reuse(Self.searchIndexPath, digest: inputs.value) {
            try output.add(Self.searchIndexPath, Data(Self.searchIndex(of: items)), digest: inputs.value)
        }
    }

    /// `search.json`: `[{"a": author, "s": source, "t": title, "u": "items/slug/"}, …]`. Written
    /// by hand, byte by byte: the format is four string fields, and JSONSerialization would first
    /// build a Foundation object for every item of the site.
    static func searchIndex(of items: [Item]) -> [UInt8] {
        var json: [UInt8] = [UInt8(ascii: "[")]
        json.reserveCapacity(items.count * 96)
        for (index, item) in items.enumerated() {
            json += index > 0 ? #",{"#.utf8 : "{".utf8
            if let author = item.author {
                json += #""a":"#.utf8
                appendJSONString(author, to: &json)
                json.append(UInt8(ascii: ","))
            }
            json += #""s":"#.utf8
            appendJSONString(item.source, to: &json)
            json += #","t":"#.utf8
            appendJSONString(item.title, to: &json)
            json += #","u":"items/"#.utf8
            json += item.slug.utf8
            json += #"/"}"#.utf8
        }
        json.append(UInt8(ascii: "]"))
        return json
    }

    /// Appends `text` as a JSON string literal. Bytes of multi-byte characters are all 0x80 or
    /// above, so escaping byte by byte leaves them whole.
    static func appendJSONString(_ text: String, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "\""))
        json.append(text.utf8.span) { byte in
            switch byte {
            case UInt8(ascii: "\""): #"\""#
            case UInt8(ascii: "\\"): #"\\"#
            case UInt8(ascii: "\n"): #"\n"#
            case UInt8(ascii: "\r"): #"\r"#
            case UInt8(ascii: "\t"): #"\t"#
            // Keeps "</script>" out of the file, should it ever be inlined.
            case UInt8(ascii: "<"): #"\u003c"#
            case ..<0x20: #"\u00"# + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
            default: nil
            }
        }
        json.append(UInt8(ascii: "\""))
    }

    /// The sitemap of `pages`, in their order.
    private func sitemap(_ pages: [String], renderer: PageRenderer) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for page in pages {
            guard let url = renderer.absoluteURL(ofPage: page) else { continue }
            xml += "  <url><loc>\(HTMLEscape.text(url))</loc></url>\n"
        }
        return xml + "</urlset>\n"
    }
}
