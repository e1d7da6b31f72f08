/// Escaping for text and attribute values written into HTML.
public enum HTMLEscape {
    /// Escapes `&`, `<` and `>` for text content.
    public static func text(_ string: String) -> String {
        escape(string, quotes: false)
    }

    /// Escapes `&`, `<`, `>`, `"` and `'` for a quoted attribute value.
    public static func attribute(_ string: String) -> String {
        escape(string, quotes: true)
    }

    /// Appends `string` to `output` as UTF-8, escaped as ``attribute(_:)`` escapes it.
    static func appendAttribute(_ string: String, to output: inout [UInt8]) {
        append(string.utf8.span, quotes: true, to: &output)
    }

    /// Appends UTF-8 `bytes` to `output`, escaped as ``attribute(_:)`` escapes text.
    static func appendAttribute(_ bytes: Span<UInt8>, to output: inout [UInt8]) {
        append(bytes, quotes: true, to: &output)
    }

    /// The one set of rules: `&`, `<`, `>` and, with `quotes`, `"` and `'` become references.
    /// The characters are ASCII, so UTF-8 passes intact.
    private static func append(_ bytes: Span<UInt8>, quotes: Bool, to output: inout [UInt8]) {
        output.append(bytes) { byte in
            switch byte {
            case 0x26: "&amp;"
            case 0x3C: "&lt;"
            case 0x3E: "&gt;"
            case 0x22 where quotes: "&quot;"
            case 0x27 where quotes: "&#39;"
            default: nil
            }
        }
    }

    private static func escape(_ string: String, quotes: Bool) -> String {
        guard string.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || (quotes && ($0 == 0x22 || $0 == 0x27)) }) else {
            return string
        }
        var result: [UInt8] = []
        result.reserveCapacity(string.utf8.count + 16)
        append(string.utf8.span, quotes: quotes, to: &result)
        return String(decoding: result, as: UTF8.self)
    }
}
