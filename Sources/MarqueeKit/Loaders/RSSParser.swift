import Foundation

/// RSS 2.0 and RSS 1.0 (RDF) with the Media RSS, Dublin Core and content modules.
enum RSSParser {
    /// RSS 1.0: `<rdf:RDF>` whose items stand beside the channel, in the RSS 1.0 namespace.
    static func parseRDF(
        _ root: XMLTreeElement, display: String, localImage: LocalImageResolver?, intro: IntroMaker = FeedIntro.text(of:)
    ) throws(BuildError) -> ParsedFeed {
        let ns = FeedNamespace.rss1
        let channel = root.child("channel", ns)
        let link = channel?.child("link", ns).flatMap { URL(string: $0.trimmedText) }
        let title = FeedText.plainTitle(channel?.child("title", ns)?.text ?? "")
        let items = FeedItems.made(root.children("item", ns), localImage: localImage) {
            item(from: $0, feedTitle: title, base: link, localImage: $1, intro: intro, namespace: ns)
        }
        return ParsedFeed(title: title, link: link, items: items)
    }

    static func parse(
        _ root: XMLTreeElement, display: String, localImage: LocalImageResolver?, intro: IntroMaker = FeedIntro.text(of:)
    ) throws(BuildError) -> ParsedFeed {
        guard let channel = root.child("channel", FeedNamespace.none) else {
            throw BuildError(file: display, place: .lineColumn(line: root.line, column: 1), "this RSS document has no <channel>.")
        }
        let link = channel.child("link", FeedNamespace.none).flatMap { URL(string: $0.trimmedText) }
        let title = FeedText.plainTitle(channel.child("title", FeedNamespace.none)?.text ?? "")
        let items = FeedItems.made(channel.children("item", FeedNamespace.none), localImage: localImage) {
            item(from: $0, feedTitle: title, base: link, localImage: $1, intro: intro)
        }
        return ParsedFeed(title: title, link: link, items: items)
    }

    static func item(
        from element: XMLTreeElement, feedTitle: String, base: URL?, localImage: LocalImageResolver?, intro: IntroMaker = FeedIntro.text(of:),
        namespace: String = FeedNamespace.none
    ) -> Item {
        let groups = element.mediaChildren("group")
        func media(_ name: String) -> [XMLTreeElement] {
            element.mediaChildren(name) + groups.flatMap { $0.mediaChildren(name) }
        }
        let plain = namespace
        let link = FeedText.absoluteLink(element.child("link", plain)?.text, base: base)
        let itemBase = link.flatMap(URL.init(string:)) ?? base

        var title = FeedText.plainTitle(element.child("title", plain)?.text ?? "")
        if title.isEmpty { title = FeedText.plainTitle(media("title").first?.text ?? "") }

        // The body: the richest description the item has.
        func markup(_ element: XMLTreeElement?, defaultHTML: Bool) -> Markup? {
            guard let element, !element.trimmedText.isEmpty else { return nil }
            let type = element.attributes["type"]?.lowercased()
            let isHTML = type == "html" || (type == nil && defaultHTML)
            return isHTML ? .html(element.text, base: itemBase) : .text(element.trimmedText)
        }
        let mediaText = markup(media("text").first, defaultHTML: false)
        let mediaDescription = markup(media("description").first, defaultHTML: false)
        let encoded = markup(element.child("encoded", FeedNamespace.content), defaultHTML: true)
        let description = markup(element.child("description", plain), defaultHTML: true)
        let body = encoded ?? mediaText ?? mediaDescription ?? description ?? .text("")
        let introSource = mediaText ?? mediaDescription ?? description

        var author = media("credit").first { ($0.attributes["role"] ?? "author") == "author" && URLPolicy.scheme(of: $0.trimmedText) == nil }?.trimmedText
        if author?.isEmpty ?? true { author = element.child("creator", FeedNamespace.dublinCore)?.trimmedText }
        if author?.isEmpty ?? true { author = element.child("author", plain)?.trimmedText }

        let date = (element.child("pubDate", plain) ?? element.child("date", FeedNamespace.dublinCore)).flatMap { FeedDate.parse($0.text) }

        var images = ImageCollector(base: itemBase, localImage: localImage)
        images.addMediaRSS(of: element)
        for enclosure in element.children("enclosure", plain) {
            let type = enclosure.attributes["type"]?.lowercased() ?? ""
            let url = enclosure.attributes["url"] ?? ""
            if type.hasPrefix("image/") || (type.isEmpty && FeedText.isImageURL(url)) {
                images.add(url, thumbnail: false)
            }
        }
        images.add(element.child("image", FeedNamespace.iTunes)?.attributes["href"], thumbnail: false)
        images.addFirstImage(in: body)

        var tags = element.children("category", plain).map(\.trimmedText)
        tags += media("category").map { $0.attributes["label"] ?? $0.trimmedText }
        tags += media("keywords").flatMap { $0.text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }

        let guid = element.child("guid", plain)?.trimmedText ?? element.attributes["rdf:about"] ?? element.attributes["about"]
        let id = [guid, link].compactMap { $0 }.first { !$0.isEmpty }
            ?? "hash-" + StableHash.hex(feedTitle, title, element.child("description", plain)?.text ?? "")
        var item = Item(
            id: id, source: feedTitle, title: title, link: link, body: body, images: images.images,
            author: author, date: date, tags: Array(Set(tags.filter { !$0.isEmpty })).sorted())
        item.intro = introSource.map(intro) ?? ""
        return item
    }
}

/// Plain text of a description, for the intro.
package enum FeedIntro {
    static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// ``text(of:)``, remembered in `memo` by a hash of the description: making the plain text of
    /// an HTML description parses it (gumbo), and a large feed is read whole on every build.
    package static func remembered(in memo: BuildMemo) -> IntroMaker {
        { markup in
            let kind: String, source: String
            switch markup {
            case .text: return text(of: markup)
            case .html(let html, _): (kind, source) = ("html", html)
            case .markdown(let markdown, _): (kind, source) = ("markdown", markdown)
            }
            var key = StableHasher("feed-intro-1")
            key.combine(kind)
            key.combine(source)
            return memo.value(for: key.value) { text(of: markup) }
        }
    }

    /// The description as plain text, on one line.
    package static func text(of markup: Markup) -> String {
        switch markup {
        case .text(let text): return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        case .html(let html, _): return TextBlocks.plainText(fromHTML: html)
        case .markdown(let markdown, _): return TextBlocks.plainText(fromHTML: MarkdownRenderer.render(markdown) { _, _ in nil })
        }
    }
}
