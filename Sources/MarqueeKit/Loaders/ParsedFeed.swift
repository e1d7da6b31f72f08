import Foundation
import Synchronization

/// A feed reduced to what the gallery needs, whatever its format.
package struct ParsedFeed: Sendable {
    /// The feed's own title, used as the source name when the config gives none.
    package var title: String
    /// The feed's home page, the base for its relative links.
    package var link: URL?
    /// The feed's items, in the feed's order.
    package var items: [Item]

    /// A feed with these items.
    package init(title: String, link: URL?, items: [Item]) {
        self.title = title
        self.link = link
        self.items = items
    }
}

/// Makes a feed's items on every core, in the feed's order.
enum FeedItems {
    /// `make(index, localImage)` for every index below `count`, spread over every core.
    ///
    /// A local image's copy is named in the order images are registered, so an item whose making
    /// asks `localImage` anything is made again afterwards with the real resolver, one such item
    /// after another in the feed's order: the names come out as a one-core read makes them.
    static func made(
        count: Int, localImage: LocalImageResolver?, _ make: @Sendable (_ index: Int, _ localImage: LocalImageResolver?) -> Item
    ) -> [Item] {
        let drafts = Array(0..<count).concurrentMap { index in drafted(localImage: localImage) { make(index, $0) } }
        return drafts.indices.map { drafts[$0].askedForLocalImage ? make($0, localImage!) : drafts[$0].item }
    }

    /// The items of `elements` (elements of the document's tree), as ``made(count:localImage:_:)`` makes them.
    static func made(
        _ elements: [XMLTreeElement], localImage: LocalImageResolver?,
        _ make: @Sendable (_ element: XMLTreeElement, _ localImage: LocalImageResolver?) -> Item
    ) -> [Item] {
        made(count: elements.count, localImage: localImage) { make(elements[$0], $1) }
    }

    /// `make(resolver)`, where the resolver (when there is a real one) only notes that it was asked.
    private static func drafted(localImage: LocalImageResolver?, _ make: (LocalImageResolver?) -> Item) -> (item: Item, askedForLocalImage: Bool) {
        guard localImage != nil else { return (make(nil), false) }
        let asked = Atomic(false)
        let item = make { _ in
            asked.store(true, ordering: .relaxed)
            return nil
        }
        return (item, asked.load(ordering: .relaxed))
    }
}

/// Helpers shared by the feed formats.
enum FeedText {
    /// A title that may hold HTML (`<b>Title</b>`, `Caf&eacute;`) reduced to plain text.
    static func plainTitle(_ raw: String) -> String {
        let collapsed = raw.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\r\n" }).joined(separator: " ")
        guard collapsed.contains("<") || collapsed.contains("&") else { return collapsed }
        let looksLikeMarkup = collapsed.range(of: "<[a-zA-Z/!]", options: .regularExpression) != nil || collapsed.contains("&")
        return looksLikeMarkup ? TextBlocks.plainText(fromHTML: collapsed) : collapsed
    }

    /// Resolves a link against a base; nil for empty or unusable links.
    static func absoluteLink(_ raw: String?, base: URL?) -> String? {
        guard let raw, !raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return URLPolicy.resolveWeb(raw, role: .link, base: base)
    }

    static func int(_ text: String?) -> Int? {
        guard let text, let value = Int(text.trimmingCharacters(in: .whitespaces)), value > 0, value < 100_000 else { return nil }
        return value
    }

    /// An image reference resolved: a relative path through `localImage` (a local feed's files),
    /// anything else, or a path `localImage` does not take, against `base` as a web address.
    static func image(_ raw: String, base: URL?, localImage: LocalImageResolver?) -> String? {
        let local = URLPolicy.scheme(of: raw) == nil && !raw.hasPrefix("/") ? localImage?(raw) : nil
        return local ?? URLPolicy.resolveWeb(raw, role: .image, base: base)
    }

    static func isImageURL(_ url: String) -> Bool {
        let path = (URL(string: url)?.path ?? url).lowercased()
        return LocalAssets.imageExtensions.contains { path.hasSuffix("." + $0) }
    }
}

/// Collects an item's image candidates, resolved and without repeats.
struct ImageCollector {
    private(set) var images: [ImageCandidate] = []
    /// The base relative image URLs resolve against.
    let base: URL?
    /// Maps relative paths of a local feed to files beside it.
    let localImage: LocalImageResolver?

    init(base: URL?, localImage: LocalImageResolver?) {
        self.base = base
        self.localImage = localImage
    }

    mutating func add(_ url: String?, width: String? = nil, height: String? = nil, thumbnail: Bool) {
        guard let url, let resolved = FeedText.image(url, base: base, localImage: localImage),
              !images.contains(where: { $0.url == resolved })
        else { return }
        images.append(ImageCandidate(url: resolved, width: FeedText.int(width), height: FeedText.int(height), isThumbnail: thumbnail))
    }

    /// An image stated smaller than this on either side is not shown in a cell: the default
    /// theme's image box.
    static let smallestCellImage = Int(ThemeMetrics().imageBox)

    /// The first image of `body`'s HTML, for an item the feed gave no image: many blogs put their
    /// pictures only there. Tracking pixels and icons (stated smaller than a cell's image box)
    /// are skipped.
    mutating func addFirstImage(in body: Markup) {
        guard images.isEmpty, case .html(let html, _) = body, html.range(of: "<img", options: .caseInsensitive) != nil else { return }
        func firstImage(in nodes: [HTMLNode]) -> [HTMLAttribute]? {
            for node in nodes {
                guard case .element(let name, let attributes, let children) = node else { continue }
                if name == "img", isLargeEnough(attributes), attributes.contains(where: { $0.name == "src" }) { return attributes }
                if let found = firstImage(in: children) { return found }
            }
            return nil
        }
        func isLargeEnough(_ attributes: [HTMLAttribute]) -> Bool {
            ["width", "height"].allSatisfy { side in
                guard let stated = attributes.first(where: { $0.name == side }).flatMap({ Int($0.value.trimmingCharacters(in: .whitespaces)) }) else { return true }
                return stated >= Self.smallestCellImage
            }
        }
        guard let attributes = firstImage(in: HTMLParser.parseFragment(html)) else { return }
        let value = { (name: String) in attributes.first { $0.name == name }?.value }
        add(value("src"), width: value("width"), height: value("height"), thumbnail: false)
    }

    /// Media RSS thumbnails, then image `media:content`, of an item or entry (also inside `media:group`).
    mutating func addMediaRSS(of element: XMLTreeElement) {
        let groups = element.mediaChildren("group")
        for thumbnail in element.mediaChildren("thumbnail") + groups.flatMap({ $0.mediaChildren("thumbnail") }) {
            add(thumbnail.attributes["url"], width: thumbnail.attributes["width"], height: thumbnail.attributes["height"], thumbnail: true)
        }
        // The content a group marks `isDefault` comes first: with no sizes stated, the first is used.
        let contents = element.mediaChildren("content") + groups.flatMap({ $0.mediaChildren("content") })
        for content in contents.filter({ $0.attributes["isDefault"] == "true" }) + contents.filter({ $0.attributes["isDefault"] != "true" }) {
            let medium = content.attributes["medium"]?.lowercased()
            let type = content.attributes["type"]?.lowercased() ?? ""
            let url = content.attributes["url"] ?? ""
            guard medium == "image" || type.hasPrefix("image/") || (medium == nil && type.isEmpty && FeedText.isImageURL(url)) else { continue }
            add(url, width: content.attributes["width"], height: content.attributes["height"], thumbnail: false)
        }
    }
}
