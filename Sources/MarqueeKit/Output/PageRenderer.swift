import Foundation

/// What the layout shows of a page besides its body: its title, the description for search
/// engines and link previews, and the image for those previews.
struct PageHead {
    var title: String
    var description: String
    var image: ImageCandidate? = nil
}

/// Renders a body template, wraps it in the `layout` template, and builds the values both see.
struct PageRenderer {
    let context: BuildContext
    let values: PageContext
    /// The site's values as seen from pages up to four folders deep, which is every page but
    /// `404.html`: made once, not once per page.
    private let siteValues: [(root: String, values: TemplateValue)]

    init(context: BuildContext) {
        let values = PageContext(context: context)
        self.context = context
        self.values = values
        siteValues = (0...4).map { depth in
            let root = String(repeating: "../", count: depth)
            return (root, .object(values.site(root: root)))
        }
    }

    var theme: Theme { context.theme }

    /// The site's values as seen from a page whose way to the site root is `root`.
    func site(root: String) -> TemplateValue {
        siteValues.first { $0.root == root }?.values ?? .object(values.site(root: root))
    }

    /// Values every page's body template sees.
    func common(root: String) -> TemplateObject {
        ["site": site(root: root)]
    }

    func cell(_ item: Item, root: String, eager: Bool = false) -> TemplateObject { values.cell(item, root: root, eager: eager) }

    /// How many of `items`, shown from the top of a page, start within the first screen of a
    /// phone (by their predicted heights at the narrowest breakpoint): their images load at
    /// once, the others' only as they come near.
    func cellsOnFirstScreen(_ items: ArraySlice<Item>) -> Int {
        let metrics = theme.metrics
        var top = 0.0, count = 0
        for item in items {
            guard top < metrics.firstScreenHeight else { break }
            count += 1
            top += (item.cell?.breakpoints.first?.collapsedHeight ?? metrics.imageBox + 2 * metrics.cellPadding) + metrics.cellGap
        }
        return count
    }
    func detail(_ item: Item, root: String) -> TemplateObject { values.detail(item, root: root) }

    /// The absolute URL of a page (its folder for `index.html`), when the site has a `base_url`.
    func absoluteURL(ofPage path: String) -> String? {
        guard let base = context.config.baseURL?.absoluteString else { return nil }
        return base + (path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path)
    }

    /// The absolute URL of an image, for OpenGraph.
    func absoluteURL(ofImage image: ImageCandidate) -> String? {
        if URLPolicy.scheme(of: image.url) != nil { return image.url }
        return context.config.baseURL.map { $0.absoluteString + image.url }
    }

    private static let pageNamespace = StableHasher("page-3")

    /// Renders the page at `path` from `template` inside the layout and adds it to `output`, or
    /// keeps the previous build's copy when the page's inputs are the same as then. `inputs` is a
    /// digest of everything the page shows besides the site's settings (which the build state
    /// compares on its own): the digests of its items and its place among the pages. `head` and
    /// `values` make the layout's title, description and image and the template's values, only
    /// when the page is rendered (most pages of a rebuild are kept, and making a title alone was
    /// an allocation per page).
    func writePage(
        _ template: String, path: String, inputs: UInt64, root explicitRoot: String? = nil, into output: OutputSet,
        head: () -> PageHead, values bodyValues: () -> TemplateObject
    ) throws(BuildError) {
        let root = explicitRoot ?? SiteURL.relativeRoot(fromPage: path)
        var hasher = Self.pageNamespace
        hasher.combine(template)
        hasher.combine(path)
        hasher.combine(root)
        hasher.combine(Int(truncatingIfNeeded: inputs))
        if output.reuse(path, digest: hasher.value) { return }
        let head = head()
        let bodyValues = bodyValues()
        var body: [UInt8] = []
        body.reserveCapacity(8192)
        guard theme.pages.render(template, bodyValues, into: &body) else {
            throw BuildError(file: "Templates/\(template).mustache", "the template is missing.")
        }
        var layout = layoutValues(template, bodyValues, path: path, head: head, root: root)
        layout["content"] = .utf8(body)
        var page: [UInt8] = []
        page.reserveCapacity(body.count + 4096)
        guard theme.pages.render("layout", layout, into: &page) else {
            throw BuildError(file: "Templates/layout.mustache", "the template is missing.")
        }
        try output.add(path, Data(page), digest: hasher.value)
    }

    /// The values of the layout template, except the rendered body (`content`).
    private func layoutValues(_ template: String, _ bodyValues: TemplateObject, path: String, head: PageHead, root: String) -> TemplateObject {
        let (title, description, image) = (head.title, head.description, head.image)
        let assets = theme.assets
        var layout: TemplateObject = [
            "site": bodyValues["site"] ?? site(root: root),
            "title": .text(title),
            "description": .text(TextTruncation.truncate(description, to: 300)),
            "root": .text(root),
            "contentSecurityPolicy": .text(theme.contentSecurityPolicy.value),
            "stylesheet": .text(root + assets.stylesheet),
            "script": .text(root + assets.script),
            "filterScript": .text(root + assets.filterScript),
            "fontPreload": .text(root + assets.regularFont),
            "fontPreloadBold": .text(root + assets.boldFont),
        ]
        if let canonical = absoluteURL(ofPage: path) {
            layout["canonical"] = .text(canonical)
            var og: TemplateObject = [
                "url": .text(canonical), "type": .text(template == "item" ? "article" : "website"),
                "title": .text(title), "description": .text(description),
            ]
            if let image, let imageURL = absoluteURL(ofImage: image) {
                og["image"] = .text(imageURL)
                og["card"] = .text("summary_large_image")
            } else {
                og["card"] = .text("summary")
            }
            layout["og"] = .object(og)
        }
        return layout
    }
}
