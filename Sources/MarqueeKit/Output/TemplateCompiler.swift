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

/// A mistake in a template, or Mustache that Marquee does not render, at a line and column.
package struct TemplateSyntaxError: Error, Equatable {
    package let message: String
    package let line: Int
    package let column: Int
}

/// Compiles Mustache templates into ``TemplateNode``s. Marquee renders this part of Mustache:
/// text, variables (escaped and not), dotted names, `{{.}}`, sections, inverted sections,
/// comments and partials, with the specification's rules for standalone lines and indented
/// partials (the official spec's tests for these run in the test suite). Anything else (set
/// delimiters, lambdas, inheritance, dynamic names, pragmas, a library's transforms) is an error
/// naming what the template used.
///
/// Written by hand because one engine renders every page, and the renderer over typed values
/// (``PageTemplates``) needs the templates as its own tree; the Mustache packages in reach keep
/// their parsed tokens to themselves.
struct TemplateCompiler {
    private let text: [Character]
    private var position = 0
    /// True at the start of a line: a tag here may stand alone on its line.
    private var atLineStart = true

    /// The nodes of `template`.
    static func compile(_ template: String) throws(TemplateSyntaxError) -> [TemplateNode] {
        var compiler = TemplateCompiler(text: Array(template))
        return try compiler.nodes(closing: nil)
    }

    private init(text: [Character]) {
        self.text = text
    }

    private var current: Character? { position < text.count ? text[position] : nil }

    /// Nodes up to the end of the template, or up to and including the `{{/name}}` that closes
    /// `section` (opened at `opening`, the index of its `{{`).
    private mutating func nodes(closing section: (name: String, opening: Int)?) throws(TemplateSyntaxError) -> [TemplateNode] {
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
            let tag = position - 2
            var standsAlone = false
            switch kind {
            case "#", "^":
                position += 1
                let name = try tagName(in: tag)
                if endsStandaloneLine() {
                    standsAlone = true
                } else {
                    flushIndentation()
                }
                atLineStart = standsAlone
                let body = try self.nodes(closing: (name, tag))
                nodes.append(.section(TemplateName(name), body, inverted: kind == "^"))
            case "/":
                position += 1
                let name = try tagName(in: tag)
                guard let section else { throw error(at: tag, "`{{/\(name)}}` closes a section that was never opened") }
                guard name == section.name else {
                    let (line, column) = place(of: section.opening)
                    throw error(at: tag, "`{{/\(name)}}` cannot close `{{#\(section.name)}}`, opened at \(line):\(column)")
                }
                if !endsStandaloneLine() { flushIndentation() }
                return nodes
            case "!":
                position += 1
                try skipComment(from: tag)
                standsAlone = endsStandaloneLine()
            case "{":
                flushIndentation()
                position += 1
                let name = try tagName(in: tag)
                guard current == "}" else { throw error(at: tag, "`{{{\(name)}}` needs a third `}` to close it") }
                position += 1
                nodes.append(.value(TemplateName(name), escaped: false))
            case "&":
                flushIndentation()
                position += 1
                nodes.append(.value(TemplateName(try tagName(in: tag)), escaped: false))
            case ">":
                position += 1
                let name = try tagName(in: tag, partial: true)
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
            case "=":
                throw error(at: tag, "changing the delimiters (`{{=`) is not supported")
            case "<", "$":
                throw error(at: tag, "template inheritance (`{{<` and `{{$`) is not supported; use partials (`{{> name}}`)")
            case "%":
                throw error(at: tag, "pragmas (`{{%`) are not supported")
            case "*":
                throw error(at: tag, "dynamic names (`{{*`) are not supported")
            default:
                flushIndentation()
                nodes.append(.value(TemplateName(try tagName(in: tag)), escaped: true))
            }
            atLineStart = standsAlone
        }
        if let section {
            throw error(at: section.opening, "`{{#\(section.name)}}` is never closed with `{{/\(section.name)}}`")
        }
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
            if character.isNewline { break }
            if character == "{", position + 1 < text.count, text[position + 1] == "{" {
                position += 2
                break
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

    /// The name in the tag that starts at `tag`, and its closing `}}`. A name is letters, digits
    /// and `.-_?`; a partial's may also hold `/`.
    private mutating func tagName(in tag: Int, partial: Bool = false) throws(TemplateSyntaxError) -> String {
        _ = read(while: \.isWhitespace)
        let name = read(while: { $0.isASCII && ($0.isLetter || $0.isNumber) || ".-_?".contains($0) || partial && $0 == "/" })
        _ = read(while: \.isWhitespace)
        if readCloseDelimiter() {
            guard !name.isEmpty else { throw error(at: tag, "the tag names nothing") }
            return name
        }
        switch current {
        case nil:
            throw error(at: tag, "the tag is never closed with `}}`")
        case "(":
            throw error(at: tag, "`\(name)(…)` calls a transform, which Marquee's templates do not support")
        case let other?:
            throw error(at: tag, "a name in a tag is letters, digits and `.-_?`, not `\(other)`")
        }
    }

    private mutating func skipComment(from tag: Int) throws(TemplateSyntaxError) {
        while position + 1 < text.count {
            if text[position] == "}" && text[position + 1] == "}" {
                position += 2
                return
            }
            position += 1
        }
        throw error(at: tag, "the comment is never closed with `}}`")
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

    /// The line and column (from 1, in characters) of the character at `index`.
    private func place(of index: Int) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for (offset, character) in text[..<min(index, text.count)].enumerated() where character.isNewline {
            line += 1
            lineStart = offset + 1
        }
        return (line, index - lineStart + 1)
    }

    private func error(at index: Int, _ message: String) -> TemplateSyntaxError {
        let (line, column) = place(of: index)
        return TemplateSyntaxError(message: message, line: line, column: column)
    }
}
