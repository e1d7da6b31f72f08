import Foundation
import Mustache

/// Writes the gallery (`index.html`) and one detail page per item (`items/<slug>/index.html`)
/// with the theme's Mustache templates.
public struct PageWriter: Plugin {
    public let name = "pages"

    public init() {}

    public func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws {
        let pages = PageContext(context: context)
        let renderer = PageRenderer(theme: context.theme, context: context)

        let galleryRoot = SiteURL.relativeRoot(fromPage: "index.html")
        let gallery: [String: Any] = [
            "site": pages.site(root: galleryRoot),
            "items": items.map { pages.cell($0, root: galleryRoot) },
            "expand": context.config.expand.rawValue,
            "count": items.count,
        ]
        try output.add("index.html", text: try renderer.page(
            "gallery", gallery, title: context.config.title, description: context.config.description, root: galleryRoot))

        for item in items {
            let path = "items/\(item.slug)/index.html"
            let root = SiteURL.relativeRoot(fromPage: path)
            let values: [String: Any] = ["site": pages.site(root: root), "item": pages.detail(item, root: root)]
            try output.add(path, text: try renderer.page(
                "item", values, title: "\(item.title) · \(context.config.title)", description: item.intro, root: root))
        }
    }
}

/// Renders a body template and wraps it in the `layout` template.
struct PageRenderer {
    let theme: Theme
    let context: BuildContext

    func page(_ template: String, _ values: [String: Any], title: String, description: String, root: String) throws(BuildError) -> String {
        guard let body = theme.templates.render(values, withTemplate: template) else {
            throw BuildError(file: "Templates/\(template).mustache", "the template is missing.")
        }
        let layout: [String: Any] = [
            "site": values["site"] ?? [:],
            "title": title,
            "description": description,
            "root": root,
            "content": body,
            "stylesheet": root + AssetWriter.stylesheetPath,
            "script": root + AssetWriter.scriptPath,
            "fontPreload": root + AssetWriter.fontPath(bold: false),
            "fontPreloadBold": root + AssetWriter.fontPath(bold: true),
        ]
        guard let page = theme.templates.render(layout, withTemplate: "layout") else {
            throw BuildError(file: "Templates/layout.mustache", "the template is missing.")
        }
        return page
    }
}
