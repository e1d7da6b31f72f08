/// Cutting plain text to a length for intros and meta descriptions.
public enum TextTruncation {
    /// `text` if it has at most `limit` characters; otherwise cut at the last word boundary
    /// within the limit, followed by "…".
    public static func truncate(_ text: String, to limit: Int) -> String {
        // Characters take at least a byte: short texts need no counting, long ones only up to the limit.
        guard text.utf8.count > limit, text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex).map({ $0 < text.endIndex }) == true else { return text }
        let prefix = text.prefix(limit)
        var cut = prefix.endIndex
        if let space = prefix.lastIndex(where: { $0 == " " || $0 == "\n" }), prefix.distance(from: prefix.startIndex, to: space) > limit / 2 {
            cut = space
        }
        var result = String(prefix[..<cut])
        while let last = result.last, last == " " || last == "," || last == ";" || last == ":" || last == "-" {
            result.removeLast()
        }
        return result + "…"
    }
}
