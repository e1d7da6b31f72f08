import Foundation

/// Reads a feed file. The format is detected from the content, not the file name.
public struct FeedSource: Plugin {
    public let name: String
    public let file: URL
    /// The name shown for the feed's items; nil uses the feed's own title.
    public let displayName: String?
    public let limit: Int?

    public init(file: URL, displayName: String? = nil, limit: Int? = nil) {
        self.name = "feed"
        self.file = file
        self.displayName = displayName
        self.limit = limit
    }

    public func loadItems(in context: BuildContext) async throws -> [Item] {
        let display = context.displayPath(file)
        let data = try InputFile.read(file, display: display)
        let folder = file.deletingLastPathComponent()
        var feed = try FeedParser.parse(data, display: display) { reference in
            // Relative image paths in a local feed name files beside it.
            guard URLPolicy.scheme(of: reference) == nil, !reference.hasPrefix("/") else { return nil }
            return try? context.localAssets.register(reference, relativeTo: folder)
        }
        let sourceName = displayName ?? (feed.title.isEmpty ? file.deletingPathExtension().lastPathComponent : feed.title)
        for index in feed.items.indices { feed.items[index].source = sourceName }
        return FeedParser.newestFirst(feed.items, limit: limit)
    }
}

/// Maps a relative image reference in a local feed to a path inside the site (nil: not local).
public typealias LocalImageResolver = @Sendable (String) -> String?

/// Detects a feed's format and parses it into a ``ParsedFeed``.
public enum FeedParser {
    public static func parse(_ data: Data, display: String, localImage: LocalImageResolver? = nil) throws(BuildError) -> ParsedFeed {
        if looksLikeHTML(data) {
            throw BuildError(file: display, place: .lineColumn(line: 1, column: 1), "this is an HTML page, not a feed; check the feed's address.")
        }
        if firstSignificantByte(data) == UInt8(ascii: "{") {
            return try JSONFeedParser.parse(data, display: display, localImage: localImage)
        }
        let root = try XMLTree.parse(data, display: display)
        switch (root.name, root.namespace) {
        case ("rss", FeedNamespace.none):
            return try RSSParser.parse(root, display: display, localImage: localImage)
        case ("RDF", FeedNamespace.rdf):
            return try RSSParser.parseRDF(root, display: display, localImage: localImage)
        case ("feed", FeedNamespace.atom):
            return try AtomParser.parse(root, display: display, localImage: localImage)
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
    public static func newestFirst(_ items: [Item], limit: Int?) -> [Item] {
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
