import Foundation

/// Atom 1.0 (RFC 4287), with `xml:base` on feed, entry and content, text/html/xhtml constructs,
/// and Media RSS thumbnails.
enum AtomParser {
    static let ns = FeedNamespace.atom

    static func parse(
        _ root: XMLTreeElement, display: String, localImage: LocalImageResolver?, intro: IntroMaker = FeedIntro.text(of:)
    ) throws(BuildError) -> ParsedFeed {
        let feedBase = base(of: root, parent: nil)
        let link = alternateLink(root, base: feedBase).flatMap(URL.init(string:))
        let title = root.child("title", ns).map(textConstruct) ?? ""
        let feedAuthor = root.child("author", ns)?.child("name", ns)?.trimmedText
        let items = FeedItems.made(root.children("entry", ns), localImage: localImage) {
            entry($0, feedTitle: title, feedBase: feedBase ?? link, feedAuthor: feedAuthor, localImage: $1, intro: intro)
        }
        return ParsedFeed(title: title, link: link, items: items)
    }

    static func entry(
        _ element: XMLTreeElement, feedTitle: String, feedBase: URL?, feedAuthor: String?, localImage: LocalImageResolver?,
        intro: IntroMaker = FeedIntro.text(of:)
    ) -> Item {
        let entryBase = base(of: element, parent: feedBase)
        let link = alternateLink(element, base: entryBase)
        let title = element.child("title", ns).map(textConstruct) ?? ""

        func markup(_ construct: XMLTreeElement?) -> Markup? {
            guard let construct else { return nil }
            let contentBase = base(of: construct, parent: entryBase)
            switch construct.attributes["type"]?.lowercased() ?? "text" {
            case "html", "text/html":
                return construct.trimmedText.isEmpty ? nil : .html(construct.text, base: contentBase)
            case "xhtml", "application/xhtml+xml":
                let html = XHTMLSerializer.innerHTML(of: construct.child("div", "http://www.w3.org/1999/xhtml") ?? construct)
                return html.isEmpty ? nil : .html(html, base: contentBase)
            default:
                return construct.trimmedText.isEmpty ? nil : .text(construct.trimmedText)
            }
        }
        let summary = markup(element.child("summary", ns))
        let content = markup(element.child("content", ns))
        let mediaDescription = element.mediaChild("description").flatMap { FeedIntro.nonEmpty($0.trimmedText) }.map { Markup.text($0) }

        var images = ImageCollector(base: entryBase, localImage: localImage)
        images.addMediaRSS(of: element)
        for enclosure in element.children("link", ns) where enclosure.attributes["rel"] == "enclosure" {
            let type = enclosure.attributes["type"]?.lowercased() ?? ""
            if type.hasPrefix("image/") || (type.isEmpty && FeedText.isImageURL(enclosure.attributes["href"] ?? "")) {
                images.add(enclosure.attributes["href"], thumbnail: false)
            }
        }
        images.addFirstImage(in: content ?? summary ?? .text(""))

        let authors = element.children("author", ns).compactMap { $0.child("name", ns)?.trimmedText }.filter { !$0.isEmpty }
        let date = (element.child("published", ns) ?? element.child("updated", ns)).flatMap { FeedDate.parse($0.text) }
        let tags = element.children("category", ns).compactMap { $0.attributes["label"] ?? $0.attributes["term"] }
        let id = element.child("id", ns)?.trimmedText
        var item = Item(
            id: [id, link].compactMap { $0 }.first { !$0.isEmpty } ?? "hash-" + StableHash.hex(feedTitle, title, element.text),
            source: feedTitle, title: title, link: link,
            body: content ?? summary ?? mediaDescription ?? .text(""), images: images.images,
            author: authors.isEmpty ? feedAuthor : authors.joined(separator: ", "), date: date,
            tags: Array(Set(tags)).sorted())
        item.intro = (summary ?? mediaDescription ?? content).map(intro) ?? ""
        return item
    }

    /// A text construct (`type="text|html|xhtml"`) as plain text.
    static func textConstruct(_ element: XMLTreeElement) -> String {
        switch element.attributes["type"]?.lowercased() {
        case "html": return TextBlocks.plainText(fromHTML: element.text)
        case "xhtml": return FeedText.plainTitle(element.text)
        default: return element.text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        }
    }

    /// The element's `xml:base` resolved against its parent's base.
    static func base(of element: XMLTreeElement, parent: URL?) -> URL? {
        guard let value = element.attributes["xml:base"] ?? element.attributes["base"], !value.isEmpty else { return parent }
        guard let resolved = URLPolicy.resolveWeb(value, role: .link, base: parent) else { return parent }
        return URL(string: resolved) ?? parent
    }

    static func alternateLink(_ element: XMLTreeElement, base: URL?) -> String? {
        let links = element.children("link", ns)
        let alternate = links.first { ($0.attributes["rel"] ?? "alternate") == "alternate" && ($0.attributes["type"] ?? "text/html").contains("html") }
            ?? links.first { ($0.attributes["rel"] ?? "alternate") == "alternate" }
        return FeedText.absoluteLink(alternate?.attributes["href"], base: base)
    }
}

/// Writes parsed XHTML content back as markup for the sanitizer (which re-parses it as HTML).
enum XHTMLSerializer {
    static let voidElements: Set<String> = ["br", "hr", "img", "area", "base", "col", "embed", "input", "link", "meta", "source", "track", "wbr"]

    static func innerHTML(of element: XMLTreeElement) -> String {
        var output = ""
        for part in element.content {
            switch part {
            case .text(let text):
                output += HTMLEscape.text(text)
            case .element(let child):
                output += "<\(child.name)"
                for (name, value) in child.attributes.sorted(by: { $0.key < $1.key }) where !name.contains(":") {
                    output += " \(name)=\"\(HTMLEscape.attribute(value))\""
                }
                output += ">"
                if !(voidElements.contains(child.name) && child.content.isEmpty) {
                    output += innerHTML(of: child) + "</\(child.name)>"
                }
            }
        }
        return output
    }
}
