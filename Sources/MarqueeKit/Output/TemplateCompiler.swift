/// One piece of a compiled template.
indirect enum TemplateNode: Sendable {
    /// Literal text, as UTF-8.
    case text([UInt8])
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (as is).
    case value(TemplateName, escaped: Bool)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(TemplateName, [TemplateNode], inverted: Bool)
    /// `{{> name}}`; a partial alone on its line indents every line it renders by the
    /// whitespace before it.
    case partial(String, indentation: String?)
}

/// A name in a tag, split at its dots once, when the template is compiled.
struct TemplateName: Sendable {
    enum Scope: Sendable {
        /// `{{.}}`: the innermost value.
        case current
        /// `{{.name}}`: looked up in the innermost value only.
        case innermost
        /// `{{name}}`: the first part is looked up from the innermost value outwards.
        case enclosing
    }

    let scope: Scope
    let parts: [TemplateKey]

    init(_ name: String) {
        scope = name == "." ? .current : name.first == "." ? .innermost : .enclosing
        parts = name.split(separator: ".").map { TemplateKey(String($0)) }
    }
}

/// Compiles Mustache templates into ``TemplateNode``s, for the subset of Mustache that
/// ``PageTemplates`` renders itself: text, variables (escaped and not), dotted names, sections,
/// inverted sections, comments, partials and Marquee's own content-type pragma.
///
/// Written by hand because swift-mustache keeps its parsed tokens to itself. It only ever sees
/// text that swift-mustache has already parsed without error, and follows swift-mustache's rules
/// for whitespace exactly (a section, comment or partial tag alone on its line takes the line
/// with it), character by character as swift-mustache reads them; the tests render with both
/// and compare. Anything else (transforms, inheritance, dynamic partials, other delimiters or
/// pragmas) throws ``Unsupported``, and the theme is then rendered by swift-mustache.
struct TemplateCompiler {
    /// The template uses Mustache that ``PageTemplates`` leaves to swift-mustache.
    struct Unsupported: Error {}

    private let text: [Character]
    private var position = 0
    /// True at the start of a line: a tag here may stand alone on its line.
    private var atLineStart = true

    /// The nodes of `template`.
    static func compile(_ template: String) throws(Unsupported) -> [TemplateNode] {
        var compiler = TemplateCompiler(text: Array(template))
        return try compiler.nodes(closing: nil)
    }

    private init(text: [Character]) {
        self.text = text
    }

    private var current: Character? { position < text.count ? text[position] : nil }

    /// Nodes up to the end of the template, or up to and including `{{/section}}`.
    private mutating func nodes(closing section: String?) throws(Unsupported) -> [TemplateNode] {
        var nodes: [TemplateNode] = []
        /// Spaces and tabs at the start of the current line, held back until it is known whether
        /// a tag stands alone on the line.
        var indentation = ""
        func flushIndentation() {
            if !indentation.isEmpty { nodes.append(.text(Array(indentation.utf8))) }
            indentation = ""
        }
        while position < text.count {
            if atLineStart { indentation = read(while: { $0 == " " || $0 == "\t" }) }
            let literal = readUntilTagOrLineBreak()
            if let lineBreak = current, lineBreak.isNewline {
                nodes.append(.text(Array((indentation + literal + String(lineBreak)).utf8)))
                atLineStart = true
                position += 1
                continue
            }
            if !literal.isEmpty {
                nodes.append(.text(Array((indentation + literal).utf8)))
                indentation = ""
                atLineStart = false
            }
            guard let kind = current else { break }
            var standsAlone = false
            switch kind {
            case "#", "^":
                position += 1
                let name = try tagName()
                if endsStandaloneLine() {
                    standsAlone = true
                } else {
                    flushIndentation()
                }
                atLineStart = standsAlone
                let body = try self.nodes(closing: name)
                nodes.append(.section(TemplateName(name), body, inverted: kind == "^"))
            case "/":
                position += 1
                guard try tagName() == section else { throw Unsupported() }
                if !endsStandaloneLine() { flushIndentation() }
                return nodes
            case "!":
                position += 1
                try skipComment()
                standsAlone = endsStandaloneLine()
            case "{":
                flushIndentation()
                position += 1
                let name = try tagName()
                guard current == "}" else { throw Unsupported() }
                position += 1
                nodes.append(.value(TemplateName(name), escaped: false))
            case "&":
                flushIndentation()
                position += 1
                nodes.append(.value(TemplateName(try tagName()), escaped: false))
            case ">":
                position += 1
                _ = read(while: \.isWhitespace)
                let name = read(while: { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || "._-?()/".contains($0) })
                _ = read(while: \.isWhitespace)
                guard !name.isEmpty, !name.contains("("), !name.contains(")"), readCloseDelimiter() else { throw Unsupported() }
                // The line's indentation is written either way; a partial alone on its line
                // also indents the lines after its first.
                let partialIndentation = indentation
                flushIndentation()
                if endsStandaloneLine() {
                    standsAlone = true
                    nodes.append(.partial(name, indentation: partialIndentation))
                } else {
                    nodes.append(.partial(name, indentation: nil))
                }
            case "%":
                position += 1
                try readPragma()
                standsAlone = endsStandaloneLine()
            case "<", "$", "=":
                throw Unsupported()
            default:
                flushIndentation()
                nodes.append(.value(TemplateName(try tagName()), escaped: true))
            }
            atLineStart = standsAlone
        }
        guard section == nil else { throw Unsupported() }
        return nodes
    }

    @discardableResult
    private mutating func read(while belongs: (Character) -> Bool) -> String {
        let start = position
        while let character = current, belongs(character) { position += 1 }
        return String(text[start..<position])
    }

    /// Text up to a line break (not read) or up to and including `{{`.
    private mutating func readUntilTagOrLineBreak() -> String {
        var literal = ""
        while let character = current {
            if character == "\n" || character == "\r\n" { break }
            if character == "{" {
                if position + 1 < text.count, text[position + 1] == "{" {
                    position += 2
                    break
                }
            }
            literal.append(character)
            position += 1
        }
        return literal
    }

    private mutating func readCloseDelimiter() -> Bool {
        guard position + 1 < text.count, text[position] == "}", text[position + 1] == "}" else { return false }
        position += 2
        return true
    }

    /// The name in a tag and its closing `}}`; transforms (`name(value)`) are not supported.
    private mutating func tagName() throws(Unsupported) -> String {
        _ = read(while: \.isWhitespace)
        let name = read(while: { $0.isASCII && ($0.isLetter || $0.isNumber) || ".-_?*".contains($0) })
        _ = read(while: \.isWhitespace)
        guard readCloseDelimiter() else { throw Unsupported() }
        return name
    }

    private mutating func skipComment() throws(Unsupported) {
        while position + 1 < text.count {
            if text[position] == "}" && text[position + 1] == "}" {
                position += 2
                return
            }
            position += 1
        }
        throw Unsupported()
    }

    /// Only the pragma every theme template starts with (``FastHTMLContentType``), whose
    /// escaping the renderer always uses.
    private mutating func readPragma() throws(Unsupported) {
        let start = position
        while position + 1 < text.count, !(text[position] == "}" && text[position + 1] == "}") { position += 1 }
        let body = String(text[start..<position]).filter { !$0.isWhitespace }
        guard readCloseDelimiter(), body == "CONTENT_TYPE:" + FastHTMLContentType.name else { throw Unsupported() }
    }

    /// True, with the rest of the line read, when the tag just read stands alone on its line: it
    /// started a line (after spaces and tabs) and only spaces and tabs follow it up to the line
    /// break or the end.
    private mutating func endsStandaloneLine() -> Bool {
        guard atLineStart else { return false }
        if position == text.count { return true }
        var end = position
        while end < text.count, text[end] == " " || text[end] == "\t" { end += 1 }
        guard end < text.count, text[end].isNewline else { return false }
        position = end + 1
        return true
    }
}
