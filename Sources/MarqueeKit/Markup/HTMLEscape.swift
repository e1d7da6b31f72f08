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

    /// Appends `string` to `output` as UTF-8, escaped as ``attribute(_:)`` escapes it; runs
    /// without special characters are copied whole.
    static func appendAttribute(_ string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { appendAttribute($0, to: &output) }
    }

    /// Appends UTF-8 `bytes` to `output`, escaped as ``attribute(_:)`` escapes text.
    static func appendAttribute(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var runStart = 0
        for index in bytes.indices {
            let replacement: StaticString
            switch bytes[index] {
            case 0x26: replacement = "&amp;"
            case 0x3C: replacement = "&lt;"
            case 0x3E: replacement = "&gt;"
            case 0x22: replacement = "&quot;"
            case 0x27: replacement = "&#39;"
            default: continue
            }
            output += UnsafeBufferPointer(rebasing: bytes[runStart..<index])
            replacement.withUTF8Buffer { output += $0 }
            runStart = index + 1
        }
        output += UnsafeBufferPointer(rebasing: bytes[runStart...])
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
