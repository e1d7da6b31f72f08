import Foundation

/// JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1).
enum JSONFeedParser {
    /// The feed in `data`.
    static func parse(_ data: Data, display: String, localImage: LocalImageResolver?, intro: IntroMaker = FeedIntro.text(of:)) throws(BuildError) -> ParsedFeed {
        let document: JSONValue
        do {
            document = try JSONParser.parse(data)
        } catch {
            throw BuildError(file: display, place: .lineColumn(line: error.line, column: error.column), error.message + ".")
        }
        return try parse(document, display: display, localImage: localImage, intro: intro)
    }

    /// The feed of a parsed `document`.
    private static func parse(_ document: JSONValue, display: String, localImage: LocalImageResolver?, intro: IntroMaker) throws(BuildError) -> ParsedFeed {
        guard case .string(let version)? = document["version"], version.contains("jsonfeed.org/version/") else {
            throw BuildError(file: display, place: .path("version"), "this JSON is not a JSON Feed (no \"version\": \"https://jsonfeed.org/version/1.1\"); for a movie list use `type: movies`.")
        }
        let title = string(document["title"]) ?? ""
        let link = string(document["home_page_url"]).flatMap { URLPolicy.resolveWeb($0, role: .link, base: nil) }.flatMap(URL.init(string:))
        let feedAuthor = authors(document)
        guard case .array(let entries)? = document["items"] else {
            throw BuildError(file: display, place: .path("items"), "a JSON Feed needs an \"items\" array.")
        }
        for (index, entry) in entries.enumerated() {
            guard case .object = entry else {
                throw BuildError(file: display, place: .path("items[\(index)]"), "expected an item object, found \(entry.kindName).")
            }
        }
        let items = FeedItems.made(count: entries.count, localImage: localImage) {
            item(entries[$0], feedTitle: title, base: link, feedAuthor: feedAuthor, localImage: $1, intro: intro)
        }
        return ParsedFeed(title: title, link: link, items: items)
    }

    static func item(
        _ entry: JSONValue, feedTitle: String, base: URL?, feedAuthor: String?, localImage: LocalImageResolver?,
        intro: IntroMaker = FeedIntro.text(of:)
    ) -> Item {
        let link = FeedText.absoluteLink(string(entry["url"]) ?? string(entry["external_url"]), base: base)
        let itemBase = link.flatMap(URL.init(string:)) ?? base
        let title = FeedText.plainTitle(string(entry["title"]) ?? "")
        let summary = string(entry["summary"]).map { Markup.text($0) }
        let body: Markup
        if let html = string(entry["content_html"]), !html.isEmpty {
            body = .html(html, base: itemBase)
        } else if let text = string(entry["content_text"]), !text.isEmpty {
            body = .text(text)
        } else {
            body = summary ?? .text("")
        }
        var images = ImageCollector(base: itemBase, localImage: localImage)
        images.add(string(entry["image"]), thumbnail: true)
        images.add(string(entry["banner_image"]), thumbnail: false)
        if case .array(let attachments)? = entry["attachments"] {
            for attachment in attachments where string(attachment["mime_type"])?.hasPrefix("image/") == true {
                images.add(string(attachment["url"]), thumbnail: false)
            }
        }
        images.addFirstImage(in: body)
        var tags: [String] = []
        if case .array(let values)? = entry["tags"] { tags = values.compactMap(string) }
        let id = string(entry["id"]) ?? (entry["id"].flatMap { if case .number(let n) = $0 { String(n) } else { nil } })
        var item = Item(
            id: [id, link].compactMap { $0 }.first { !$0.isEmpty } ?? "hash-" + StableHash.hex(feedTitle, title, string(entry["content_html"]) ?? ""),
            source: feedTitle, title: title, link: link, body: body, images: images.images,
            author: authors(entry) ?? feedAuthor,
            date: (string(entry["date_published"]) ?? string(entry["date_modified"])).flatMap(FeedDate.parse),
            tags: Array(Set(tags)).sorted())
        item.intro = intro(summary ?? body)
        return item
    }

    static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    /// `authors` (1.1) or `author` (1.0), names joined.
    static func authors(_ value: JSONValue) -> String? {
        var names: [String] = []
        if case .array(let list)? = value["authors"] { names = list.compactMap { string($0["name"]) } }
        if names.isEmpty, let name = string(value["author"]?["name"]) { names = [name] }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }
}
