import Foundation

/// The property the `feed` fuzz target (marquee-fuzz) checks: a feed read cut at its items
/// (``XMLItemCut``, ``JSONFeedCut``: the way builds read feeds) reads exactly as a parse of the whole document
package enum FeedCutCheck {
    /// Both readings of `data` when they differ; nil when they agree.
    package static func difference(in data: Data) -> (cut: String, whole: String)? {
        let cut = describe { () throws(BuildError) in try FeedParser.parse(data, display: "feed.xml") }
        let whole = describe { () throws(BuildError) in try parsedWhole(data, display: "feed.xml") }
        return cut == whole ? nil : (cut, whole)
    }

    /// The feed parsed whole, never cut: what ``FeedParser/parse(_:display:intro:localImage:memo:)``
    /// reads when the document is not cut.
    static func parsedWhole(_ data: Data, display: String) throws(BuildError) -> ParsedFeed {
        if FeedParser.looksLikeHTML(data) {
            return try FeedParser.parse(data, display: display)
        }
        if FeedParser.firstSignificantByte(data) == UInt8(ascii: "{") {
            return try JSONFeedParser.parsedWhole(data, display: display, localImage: nil)
        }
        return try FeedParser.feed(from: XMLTree.parse(data, display: display), display: display, intro: FeedIntro.text(of:), localImage: nil, supply: nil)
    }

    /// A feed's title, link and every field of its items, or the error.
    private static func describe(_ read: () throws(BuildError) -> ParsedFeed) -> String {
        do {
            let feed = try read()
            return ([feed.title, feed.link?.absoluteString ?? "-"] + feed.items.map { FeedItemRecord.text(of: $0) ?? "unrecordable" })
                .joined(separator: "\n")
        } catch {
            return "error: \(error.description)"
        }
    }
}
