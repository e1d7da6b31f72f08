import Foundation

/// A feed reduced to what the gallery needs, whatever its format.
public struct ParsedFeed: Sendable {
    /// The feed's own title, used as the source name when the config gives none.
    public var title: String
    /// The feed's home page, the base for its relative links.
    public var link: URL?
    /// The feed's items, in the feed's order.
    public var items: [Item]
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

    static func isImageURL(_ url: String) -> Bool {
        let path = (URL(string: url)?.path ?? url).lowercased()
        return LocalAssets.imageExtensions.contains { path.hasSuffix("." + $0) }
    }
}
