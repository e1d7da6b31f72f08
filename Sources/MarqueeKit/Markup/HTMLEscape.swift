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
        var string = string
        string.withUTF8 { append($0, quotes: true, to: &output) }
    }

    /// Appends UTF-8 `bytes` to `output`, escaped as ``attribute(_:)`` escapes text.
    static func appendAttribute(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        append(bytes, quotes: true, to: &output)
    }

    /// The one set of rules: `&`, `<`, `>` and, with `quotes`, `"` and `'` become references;
    /// runs without them are copied whole. The characters are ASCII, so UTF-8 passes intact.
    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, quotes: Bool, to output: inout [UInt8]) {
        var runStart = 0
        for index in bytes.indices {
            let replacement: StaticString
            switch bytes[index] {
            case 0x26: replacement = "&amp;"
            case 0x3C: replacement = "&lt;"
            case 0x3E: replacement = "&gt;"
            case 0x22 where quotes: replacement = "&quot;"
            case 0x27 where quotes: replacement = "&#39;"
            default: continue
            }
            output += UnsafeBufferPointer(rebasing: bytes[runStart..<index])
            replacement.withUTF8Buffer { output += $0 }
            runStart = index + 1
        }
        output += UnsafeBufferPointer(rebasing: bytes[runStart...])
    }

    private static func escape(_ string: String, quotes: Bool) -> String {
        guard string.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || (quotes && ($0 == 0x22 || $0 == 0x27)) }) else {
            return string
        }
        var string = string
        var result: [UInt8] = []
        result.reserveCapacity(string.utf8.count + 16)
        string.withUTF8 { append($0, quotes: quotes, to: &result) }
        return String(decoding: result, as: UTF8.self)
    }
}
