/// Cutting plain text to a length for intros and meta descriptions.
package enum TextTruncation {
    /// `text` if it has at most `limit` characters; otherwise cut at the last word boundary
    /// within the limit, followed by "…".
    package static func truncate(_ text: String, to limit: Int) -> String {
        // Characters take at least a byte: short texts need no counting.
        guard text.utf8.count > limit else { return text }
        // Where the first limit + 1 bytes are ASCII but for CR (which pairs with LF), each byte is
        // a character: they are cut as bytes (counting characters finds every grapheme boundary).
        if limit >= 0, let cut = truncateASCII(Array(text.utf8.prefix(limit + 1)), to: limit) { return cut }
        return truncateByCharacters(text, to: limit)
    }

    /// ``truncate(_:to:)`` counting characters, for any text.
    static func truncateByCharacters(_ text: String, to limit: Int) -> String {
        guard text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex).map({ $0 < text.endIndex }) == true else { return text }
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

    /// ``truncate(_:to:)`` of text longer than `limit` bytes, given its first `limit + 1` bytes,
    /// when they are ASCII other than CR; nil for any other text.
    private static func truncateASCII(_ utf8: [UInt8], to limit: Int) -> String? {
        guard utf8.count > limit, !utf8[...limit].contains(where: { $0 >= 0x80 || $0 == 0x0D }) else { return nil }
        var cut = limit
        if let space = utf8[..<limit].lastIndex(where: { $0 == UInt8(ascii: " ") || $0 == 0x0A }), space > limit / 2 {
            cut = space
        }
        func isTrailing(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "-"): true
            default: false
            }
        }
        while cut > 0, isTrailing(utf8[cut - 1]) { cut -= 1 }
        return String(decoding: utf8[..<cut], as: UTF8.self) + "…"
    }
}
