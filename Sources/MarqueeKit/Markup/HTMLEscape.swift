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

    private static func escape(_ string: String, quotes: Bool) -> String {
        var needsWork = false
        for byte in string.utf8 where byte == 0x26 || byte == 0x3C || byte == 0x3E || (quotes && (byte == 0x22 || byte == 0x27)) {
            needsWork = true
            break
        }
        guard needsWork else { return string }
        var result = ""
        result.reserveCapacity(string.utf8.count + 16)
        for scalar in string.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            case "'" where quotes: result += "&#39;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
