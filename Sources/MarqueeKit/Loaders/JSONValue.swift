import Foundation

/// A JSON document, parsed strictly (RFC 8259: no trailing commas, no comments).
///
/// Written by hand rather than using Foundation's `JSONSerialization` because that parser
/// accepts trailing commas and reports neither line nor column, and users need both.
package enum JSONValue: Sendable, Equatable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)): return a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        case (.array(let a), .array(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    /// The value of `key` in an object (the last one when a key repeats).
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// A short name of the value's kind, for error messages ("a number", "an object").
    package var kindName: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}

/// A syntax error with its position.
package struct JSONSyntaxError: Error, Sendable, Equatable {
    /// 1-based line of the problem.
    package let line: Int
    /// 1-based column (in characters) of the problem.
    package let column: Int
    /// What is wrong, for the user.
    package let message: String
}

/// The strict JSON parser behind ``JSONValue``.
package struct JSONParser {
    /// Arrays and objects nested deeper than this are refused.
    package static let maximumDepth = 256


    /// The document's bytes, up to where the value parsed ends (always from the document's start,
    /// so that positions count from there).
    private let bytes: ArraySlice<UInt8>
    private var index = 0

    /// Parses a whole document.
    package static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes: [UInt8](data))
    }

    /// Parses a whole document.
    static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes[...])
        return try parser.parseDocument()
    }

    /// The value that spans exactly `range` of `bytes` (blanks around it allowed), parsed as an
    /// element of a container nested `containerDepth` deep (2 for the elements of the array in
    /// `{"movies": […]}`), so that the depth limit is the whole document's. Positions in a thrown
    /// error count from the start of `bytes`.
    static func value(in bytes: [UInt8], range: Range<Int>, containerDepth: Int) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes[..<range.upperBound], index: range.lowerBound)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: containerDepth)
        parser.skipWhitespace()
        if parser.index < range.upperBound { throw parser.error("unexpected \(parser.describeCurrent()) after the end of the JSON value") }
        return value
    }

    /// The string whose opening quote is at `offset` of `bytes`; nil when there is no valid
    /// string there.
    static func string(at offset: Int, in bytes: [UInt8]) -> String? {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
        var parser = JSONParser(bytes: bytes[...], index: offset)
        return try? parser.parseString()
    }

    private init(bytes: ArraySlice<UInt8>, index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        if index >= bytes.count { throw error("the file is empty; expected a JSON value") }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count { throw error("unexpected \(describeCurrent()) after the end of the JSON value") }
        return value
    }

    private func error(_ message: String) -> JSONSyntaxError {
        var line = 1
        var lineStart = 0
        var offset = 0
        let end = min(index, bytes.count)
        while offset < end {
            if bytes[offset] == 0x0A { line += 1; lineStart = offset + 1 }
            offset += 1
        }
        // Columns count characters, not bytes.
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, Self.isBlank(bytes[index]) { index += 1 }
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()); expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("unexpected \(describeCurrent()); expected \(word)") }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > Self.maximumDepth { throw error("objects and arrays are nested more than \(Self.maximumDepth) deep") }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { throw error("trailing comma before '}'; remove the last comma") }
                throw error("unexpected \(describeCurrent()); expected a key in double quotes")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("unexpected \(describeCurrent()); expected ':' after the key \"\(key)\"") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("unexpected \(describeCurrent()); expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > Self.maximumDepth { throw error("objects and arrays are nested more than \(Self.maximumDepth) deep") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw error("trailing comma before ']'; remove the last comma") }
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw error("unexpected \(describeCurrent()); expected ',' or ']'")
        }
    }

    /// JSON's whitespace.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        let start = index
        skipPlainText()
        // Fast path: no escapes, the string is the bytes between the quotes.
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let string = try decodeUTF8(bytes[start..<index])
            index += 1
            return string
        }
        // With escapes: the bytes are collected and decoded once, at the closing quote.
        var text = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string = try decodeUTF8(text[...])
                index += 1
                return string
            }
            if byte < 0x20 { throw error("control character inside a string; escape it (for a new line write \\n)") }
            if byte != UInt8(ascii: "\\") {
                let runStart = index
                skipPlainText()
                text.append(contentsOf: bytes[runStart..<index])
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    let low = try parseHex4()
                    if (0xDC00...0xDFFF).contains(low) { code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) }
                }
                text.append(contentsOf: UTF8.encode(Unicode.Scalar(code) ?? "\u{FFFD}")!)
            default:
                index -= 1
                throw error("invalid escape \\\(Character(Unicode.Scalar(escape))) in a string")
            }
        }
        throw error("unexpected end of file inside a string; close it with \"")
    }

    /// Moves `index` to the next quote, backslash or control character (or the end), sixteen
    /// bytes at a time while none of them is one (descriptions are long runs of plain text).
    private mutating func skipPlainText() {
        index = Self.endOfPlainText(in: bytes.span, from: index)
    }

    /// ``skipPlainText()``'s search, from `start`.
    private static func endOfPlainText(in span: Span<UInt8>, from start: Int) -> Int {
        let quotes = SIMD16<UInt8>(repeating: 0x22), backslashes = SIMD16<UInt8>(repeating: 0x5C)
        let spaces = SIMD16<UInt8>(repeating: 0x20)
        var index = start
        while index + 16 <= span.count {
            let chunk = span.chunk(at: index)
            if any((chunk .== quotes) .| (chunk .== backslashes) .| (chunk .< spaces)) { break }
            index += 16
        }
        while index < span.count {
            let byte = span[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            index += 1
        }
        return index
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else { throw error("expected four hex digits after \\u") }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private func decodeUTF8(_ bytes: ArraySlice<UInt8>) throws(JSONSyntaxError) -> String {
        guard let string = Self.string(validatingUTF8: bytes) else { throw error("the text is not valid UTF-8; save the file as UTF-8") }
        return string
    }

    /// The bytes as a string; nil when they are not valid UTF-8.
    static func string(validatingUTF8 bytes: ArraySlice<UInt8>) -> String? {
        guard let text = try? UTF8Span(validating: bytes.span) else { return nil }
        return String(copying: text)
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ parser: inout JSONParser) -> Int {
            var count = 0
            while parser.index < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index]) {
                parser.index += 1
                count += 1
            }
            return count
        }
        let integerStart = index
        guard digits(&self) > 0 else { throw error("invalid number") }
        if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 { throw error("numbers may not start with 0") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("expected digits after the decimal point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("expected digits in the exponent") }
        }
        return Double(String(decoding: bytes[start..<index], as: UTF8.self)) ?? 0
    }
}
