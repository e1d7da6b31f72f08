import Foundation

/// Where a feed comes from.
package enum FeedLocation: Sendable {
    /// A local file: a problem with it fails the build.
    case file(URL)
    /// An http(s) URL: a problem with it is a warning, and the last good copy is used.
    case remote(URL)
}

/// Reads a feed from a file or over HTTP. The format is detected from the content.
package struct FeedSource: Plugin {
    package let name = "feed"
    /// Where the feed is.
    package let location: FeedLocation
    /// The name shown for the feed's items; nil uses the feed's own title.
    package let displayName: String?
    /// At most this many items, newest first.
    package let limit: Int?
    /// Fetches remote feeds; needed for `.remote` locations.
    package let fetcher: FeedFetcher?

    /// Creates a source; remote locations need a `fetcher`.
    package init(location: FeedLocation, displayName: String? = nil, limit: Int? = nil, fetcher: FeedFetcher? = nil) {
        self.location = location
        self.displayName = displayName
        self.limit = limit
        self.fetcher = fetcher
    }

    /// A local feed's file; nil for a remote feed, which may change at any time.
    package func itemFiles(in context: BuildContext) -> [URL]? {
        if case .file(let file) = location { return [file] }
        return nil
    }

    package func loadItems(in context: BuildContext) async throws -> [Item] {
        var feed: ParsedFeed
        let fallbackName: String
        let intro = FeedIntro.remembered(in: context.memo)
        switch location {
        case .file(let file):
            let display = context.displayPath(file)
            let data = Data(try InputFile.read(file, display: display))
            let folder = file.deletingLastPathComponent()
            // Relative image paths in a local feed name files beside it.
            feed = try FeedParser.parse(data, display: display, intro: intro, localImage: { reference in
                try? context.localAssets.register(reference, relativeTo: folder, processed: true)
            })
            fallbackName = file.deletingPathExtension().lastPathComponent
        case .remote(let url):
            let display = url.absoluteString
            let document = RemoteDocument(url: url, fetcher: fetcher)
            let (remote, fetch) = await document.load(in: context, read: { body throws(BuildError) in
                try FeedParser.parse(body, display: display, intro: intro)
            })
            document.record(fetch, items: min(remote?.items.count ?? 0, limit ?? Int.max), in: context)
            guard let remote else { return [] }
            feed = remote
            fallbackName = url.host ?? url.absoluteString
        }
        let sourceName = displayName ?? (feed.title.isEmpty ? fallbackName : feed.title)
        // Taken out of the feed, not copied: an item another array still held would copy all
        // its fields to take the name below.
        var items = feed.items
        feed.items = []
        // The source's name is set on every item, which keeps its origin (if it had one) with the name added.
        var name = StableHasher("feed-source")
        name.combine(sourceName)
        let nameDigest = name.value
        for index in items.indices {
            let origin = items[index].originDigest
            items[index].source = sourceName
            items[index].carryOrigin(origin, through: nameDigest)
        }
        return FeedParser.newestFirst(items, limit: limit)
    }
}

/// Maps a relative image reference in a local feed (no scheme, not starting with `/`: the
/// parsers ask about no other) to a path inside the site; nil when it names no usable file. It
/// may be called from several threads at once.
package typealias LocalImageResolver = @Sendable (String) -> String?

/// Makes an item's intro, plain text, from the description it is taken from (see ``FeedIntro``).
package typealias IntroMaker = @Sendable (Markup) -> String

/// Detects a feed's format and parses it into a ``ParsedFeed``.
package enum FeedParser {
    /// Parses a feed of any supported format; `localImage` maps relative image paths of local feeds,
    /// and `intro` makes the items' intros (a build passes one that remembers them in its memo).
    package static func parse(
        _ data: Data, display: String, intro: @escaping IntroMaker = FeedIntro.text(of:), localImage: LocalImageResolver? = nil
    ) throws(BuildError) -> ParsedFeed {
        if looksLikeHTML(data) {
            throw BuildError(file: display, place: .lineColumn(line: 1, column: 1), "this is an HTML page, not a feed; check the feed's address.")
        }
        if firstSignificantByte(data) == UInt8(ascii: "{") {
            return try JSONFeedParser.parse(data, display: display, localImage: localImage, intro: intro)
        }
        let root = try XMLTree.parse(data, display: display)
        switch (root.name, root.namespace) {
        case ("rss", FeedNamespace.none):
            return try RSSParser.parse(root, display: display, localImage: localImage, intro: intro)
        case ("RDF", FeedNamespace.rdf):
            return try RSSParser.parseRDF(root, display: display, localImage: localImage, intro: intro)
        case ("feed", FeedNamespace.atom):
            return try AtomParser.parse(root, display: display, localImage: localImage, intro: intro)
        case ("html", _), ("HTML", _):
            throw BuildError(file: display, place: .lineColumn(line: root.line, column: 1), "this is an HTML page, not a feed; check the feed's address.")
        default:
            throw BuildError(
                file: display, place: .lineColumn(line: root.line, column: 1),
                "the root element <\(root.name)> is not a feed format Marquee reads (RSS 2.0 <rss>, RSS 1.0 <rdf:RDF>, Atom <feed>, or JSON Feed).")
        }
    }

    /// The first byte that is not whitespace or a byte-order mark.
    static func firstSignificantByte(_ data: Data) -> UInt8? {
        var bytes = data.prefix(4096)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
    }

    /// True when the document starts like a web page (`<!DOCTYPE html`, `<html`).
    static func looksLikeHTML(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(512), as: UTF8.self)
            .trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(["\u{FEFF}"])).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }

    /// Items sorted newest first (undated items keep their order, after dated ones), cut to `limit`.
    package static func newestFirst(_ items: [Item], limit: Int?) -> [Item] {
        let sorted = items.enumerated().sorted { lhs, rhs in
            switch (lhs.element.date, rhs.element.date) {
            case let (a?, b?) where a != b: return a > b
            case (.some, nil): return true
            case (nil, .some): return false
            default: return lhs.offset < rhs.offset
            }
        }.map(\.element)
        return Array(sorted.prefix(limit ?? Int.max))
    }
}
