import Foundation

/// Removes the characters no page or feed of the site may carry, whatever an input held.
///
/// - Control characters other than tab and newline (NUL, ESC, DEL, C1 controls…): XML 1.0
///   forbids most of them outright, so one in a title would make `feed.xml` unreadable to every
///   subscriber, and a terminal or an editor may act on them. A carriage return is dropped (a
///   line ending `\r\n` becomes `\n`).
/// - Unicode noncharacters (U+FDD0…U+FDEF and every code point ending in FFFE or FFFF): not
///   for interchange, and U+FFFE and U+FFFF are forbidden in XML.
/// - With `removingBidiControls`, for short labels (titles, authors, tags): the embeddings,
///   overrides and isolates that reorder the text after them (U+202A…U+202E, U+2066…U+2069).
///   A right-to-left override in a title would otherwise turn the rest of a cell, or of a line
///   of the page, around. Right-to-left text itself is untouched.
enum CleanText {
    /// `text` without the characters above; `text` itself when it has none.
    static func clean(_ text: String, removingBidiControls: Bool = false) -> String {
        func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
            isForbidden(scalar.value) || (removingBidiControls && isBidiControl(scalar.value))
        }
        // Most text has no byte that could start such a character: told without decoding it.
        guard mayStartForbiddenCharacter(text.utf8.span, orBidiControl: removingBidiControls),
              text.unicodeScalars.contains(where: isRemoved)
        else { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.lazy.filter { !isRemoved($0) })
        return String(scalars)
    }

    /// UTF-8 `bytes` without the characters ``clean(_:removingBidiControls:)`` removes (bidi
    /// controls kept): the last guard on every text file the build writes. `bytes` itself when
    /// it has none, which one pass over the bytes tells.
    static func cleanUTF8(_ bytes: Data) -> Data {
        guard holdsForbiddenCharacter(bytes.span) else { return bytes }
        return Data(clean(String(decoding: bytes, as: UTF8.self)).utf8)
    }

    /// Whether valid UTF-8 `bytes` encode a character ``isForbidden(_:)`` names, read from the
    /// bytes themselves: the guard runs over every page, most of which hold none. Runs of bytes
    /// are first checked for any byte that may start one, in a loop without branches that the
    /// compiler turns into vector instructions; only a run that has one (a page title's `·`
    /// starts with such a byte) is read character by character.
    private static func holdsForbiddenCharacter(_ bytes: Span<UInt8>) -> Bool {
        var start = 0
        while start < bytes.count {
            let end = min(start + 256, bytes.count)
            if mayStartForbiddenCharacter(bytes.extracting(start..<end)), holdsForbiddenCharacter(bytes, startingIn: start..<end) {
                return true
            }
            start = end
        }
        return false
    }

    /// Whether any of `bytes` is a control character other than tab and newline, or the first
    /// byte of U+0080…U+00BF, U+F000…U+FFFF or a supplementary character; with
    /// `orBidiControl`, of U+2000…U+2FFF too.
    private static func mayStartForbiddenCharacter(_ bytes: Span<UInt8>, orBidiControl: Bool = false) -> Bool {
        let bidiLead: UInt8 = orBidiControl ? 0xE2 : 0xC2
        var found: UInt8 = 0
        for index in bytes.indices {
            let byte = bytes[index]
            found |= ((byte < 0x20 ? 1 : 0) & (byte != 0x09 ? 1 : 0) & (byte != 0x0A ? 1 : 0)) | (byte == 0x7F ? 1 : 0)
                | (byte == 0xC2 ? 1 : 0) | (byte == bidiLead ? 1 : 0) | (byte == 0xEF ? 1 : 0) | (byte >= 0xF0 ? 1 : 0)
        }
        return found != 0
    }

    /// Whether a forbidden character starts at one of the positions in `range` of `bytes`.
    private static func holdsForbiddenCharacter(_ bytes: Span<UInt8>, startingIn range: Range<Int>) -> Bool {
        let count = bytes.count
        for index in range {
            switch bytes[index] {
            case 0x09, 0x0A:
                break
            case 0..<0x20, 0x7F:
                return true
            case 0xC2:  // U+0080…U+00BF: the C1 controls are U+0080…U+009F
                if index + 1 < count, bytes[index + 1] < 0xA0 { return true }
            case 0xEF:  // U+F000…U+FFFF: U+FDD0…U+FDEF, U+FFFE and U+FFFF
                if index + 2 < count {
                    let second = bytes[index + 1], third = bytes[index + 2]
                    if (second == 0xB7 && (0x90...0xAF).contains(third)) || (second == 0xBF && third >= 0xBE) { return true }
                }
            case 0xF0...0xF4:  // a supplementary plane: its last two code points, U+xFFFE and U+xFFFF
                if index + 3 < count, bytes[index + 1] & 0x0F == 0x0F, bytes[index + 2] == 0xBF, bytes[index + 3] >= 0xBE { return true }
            default:
                break
            }
        }
        return false
    }

    /// A control character other than tab and newline, or a noncharacter.
    static func isForbidden(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A: return false
        case 0...0x1F, 0x7F...0x9F: return true
        case 0xFDD0...0xFDEF: return true
        default: return value & 0xFFFE == 0xFFFE
        }
    }

    /// An explicit embedding, override or isolate.
    static func isBidiControl(_ value: UInt32) -> Bool {
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}
