import Foundation
import Mustache

/// Renders a body template, wraps it in the `layout` template, and builds the values both see.
struct PageRenderer {
    let context: BuildContext
    let values: PageContext

    init(context: BuildContext) {
        self.context = context
        self.values = PageContext(context: context)
    }

    var theme: Theme { context.theme }

    /// Values every page's body template sees.
    func common(root: String) -> [String: Any] {
        ["site": values.site(root: root)]
    }

    func cell(_ item: Item, root: String) -> [String: Any] { values.cell(item, root: root) }
    func detail(_ item: Item, root: String) -> [String: Any] { values.detail(item, root: root) }

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

    /// Renders the page at `path` from `template` inside the layout and adds it to `output`, or
    /// keeps the previous build's copy when the page's inputs are the same as then. `inputs` is a
    /// digest of everything the page shows besides the site's settings (which the build state
    /// compares on its own): the digests of its items and its place among the pages. `values`
    /// makes the template's values, only when the page is rendered.
    func writePage(
        _ template: String, path: String, inputs: UInt64, title: String, description: String,
        image: ImageCandidate? = nil, root explicitRoot: String? = nil, into output: OutputSet,
        values bodyValues: () -> [String: Any]
    ) throws(BuildError) {
        let root = explicitRoot ?? SiteURL.relativeRoot(fromPage: path)
        var hasher = StableHasher("page-2")
        for text in [template, path, root, title, description, image?.url ?? ""] { hasher.combine(text) }
        hasher.combine(Int(truncatingIfNeeded: inputs))
        if output.reuse(path, digest: hasher.value) { return }
        let bodyValues = bodyValues()
        guard let body = theme.templates.render(bodyValues, withTemplate: template) else {
            throw BuildError(file: "Templates/\(template).mustache", "the template is missing.")
        }
        var layout = layoutValues(template, bodyValues, path: path, title: title, description: description, image: image, root: root)
        layout["content"] = TemplateText(body)
        guard let page = theme.templates.render(layout, withTemplate: "layout") else {
            throw BuildError(file: "Templates/layout.mustache", "the template is missing.")
        }
        try output.add(path, text: page, digest: hasher.value)
    }

    /// The values of the layout template, except the rendered body (`content`).
    private func layoutValues(
        _ template: String, _ bodyValues: [String: Any], path: String, title: String, description: String,
        image: ImageCandidate?, root: String
    ) -> [String: Any] {
        let assets = theme.assets
        var layout: [String: Any] = [
            "site": bodyValues["site"] ?? values.site(root: root),
            "title": TemplateText(title),
            "description": TemplateText(TextTruncation.truncate(description, to: 300)),
            "root": TemplateText(root),
            "stylesheet": TemplateText(root + assets.stylesheet),
            "script": TemplateText(root + assets.script),
            "filterScript": TemplateText(root + assets.filterScript),
            "fontPreload": TemplateText(root + assets.regularFont),
            "fontPreloadBold": TemplateText(root + assets.boldFont),
        ]
        if let canonical = absoluteURL(ofPage: path) {
            layout["canonical"] = TemplateText(canonical)
            var og: [String: Any] = [
                "url": TemplateText(canonical), "type": TemplateText(template == "item" ? "article" : "website"),
                "title": TemplateText(title), "description": TemplateText(description),
            ]
            if let image, let imageURL = absoluteURL(ofImage: image) {
                og["image"] = TemplateText(imageURL)
                og["card"] = TemplateText("summary_large_image")
            } else {
                og["card"] = TemplateText("summary")
            }
            layout["og"] = og
        }
        return layout
    }
}
