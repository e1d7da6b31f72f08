import Foundation
import Mustache

/// A theme's templates, ready to render pages: compiled by ``TemplateCompiler`` and rendered
/// over typed ``TemplateValue``s straight into bytes, or, when any template uses Mustache beyond
/// that subset, rendered by swift-mustache. Either way a page comes out the same (the tests
/// compare the two).
///
/// Why: swift-mustache looks every name up through `Any` and a ladder of protocol casts, splits
/// dotted names on each lookup and returns a `String` per tag, which made rendering the larger
/// part of a full build.
struct PageTemplates: Sendable {
    private let program: TemplateProgram?
    private let mustache: MustacheTemplates

    /// `texts` are the templates by name, as `library` (swift-mustache) parsed them.
    init(texts: [String: String], library: MustacheLibrary) {
        self.init(program: Self.program(texts), mustache: MustacheTemplates(library))
    }

    /// The templates `texts` compiled and laid out; nil when one of them uses Mustache beyond
    /// the compiled subset (the pages are then rendered by swift-mustache).
    static func program(_ texts: [String: String]) -> TemplateProgram? {
        var compiled: [String: [TemplateNode]] = [:]
        for (name, text) in texts {
            guard let nodes = try? TemplateCompiler.compile(text) else { return nil }
            compiled[name] = nodes
        }
        return TemplateProgram(compiled)
    }

    /// `program` is `mustache`'s templates as ``program(_:)`` made them.
    init(program: TemplateProgram?, mustache: MustacheTemplates) {
        self.program = program
        self.mustache = mustache
    }

    /// True when the compiled renderer is in use (every template is within its subset).
    var isCompiled: Bool { program != nil }

    /// The same templates, always rendered by swift-mustache.
    var renderedBySwiftMustache: PageTemplates { PageTemplates(program: nil, mustache: mustache) }

    /// Renders the template `name` with `values` and appends the result to `output`; false when
    /// there is no such template.
    func render(_ name: String, _ values: TemplateObject, into output: inout [UInt8]) -> Bool {
        guard let program else {
            guard let text = mustache.library.render(TemplateValue.object(values).mustacheValue, withTemplate: name) else { return false }
            output += text.utf8
            return true
        }
        guard let instructions = program.template(named: name) else { return false }
        program.withContents { contents in
            var rendering = TemplateRendering(program: program, contents: contents, stack: [.object(values)], output: output)
            output = []  // `rendering` holds the only reference, so appending never copies.
            rendering.run(instructions, indentation: nil)
            output = rendering.output
        }
        return true
    }
}

/// One rendering of a ``TemplateProgram``: the stack of values that sections entered, and the
/// bytes written so far. Follows swift-mustache's rules: a name is looked up from the innermost
/// value outwards; only objects have named values; `false`, nothing and empty lists skip a
/// section; text and numbers print as themselves and flags as `true` or `false`.
///
/// The program is read through its ``TemplateProgram/Contents``, valid while
/// ``PageTemplates/render(_:_:into:)`` runs.
private struct TemplateRendering {
    let program: TemplateProgram
    let contents: TemplateProgram.Contents
    var stack: [TemplateValue]
    var output: [UInt8]
    /// Partials inside partials; past ``maximumDepth`` a partial renders nothing (a template
    /// that includes itself would otherwise never end).
    private var depth = 0
    private static let maximumDepth = 100

    init(program: TemplateProgram, contents: TemplateProgram.Contents, stack: [TemplateValue], output: [UInt8]) {
        self.program = program
        self.contents = contents
        self.stack = stack
        self.output = output
    }

    /// Runs the instructions in `range`, each with its body.
    mutating func run(_ range: Range<Int>, indentation: String?) {
        var next = range.lowerBound
        guard let indentation, !indentation.isEmpty else {
            while next < range.upperBound { next = step(at: next, indentation: indentation) }
            return
        }
        // Inside a partial that stood alone on an indented line: whatever an instruction writes
        // after a line break of this rendering's own output is indented.
        let start = output.count
        while next < range.upperBound {
            let before = output.count
            next = step(at: next, indentation: indentation)
            if output.count > before, endsWithLineFeed(from: start, to: before) {
                output.insert(contentsOf: indentation.utf8, at: before)
            }
        }
    }

    /// True when `output[start..<end]` ends with a line feed that is a character of its own
    /// (not the second half of CR LF, which swift-mustache reads as one character).
    private func endsWithLineFeed(from start: Int, to end: Int) -> Bool {
        guard end > start, output[end - 1] == 0x0A else { return false }
        return end - 1 == start || output[end - 2] != 0x0D
    }

    /// Runs the instruction at `index` (with its body, for a section); returns the index of
    /// the instruction after it.
    private mutating func step(at index: Int, indentation: String?) -> Int {
        switch contents.code[index] {
        case .text(let start, let end):
            output.append(contentsOf: UnsafeBufferPointer(rebasing: contents.text[start..<end]))
        case .value(let name, let escaped):
            guard let value = lookUp(name) else { break }
            write(value, escaped: escaped)
        case .section(let name, let end, let inverted):
            let body = index + 1..<end
            let value = lookUp(name)
            if inverted {
                renderInverted(body, for: value, indentation: indentation)
            } else {
                renderSection(body, for: value, indentation: indentation)
            }
            return body.upperBound
        case .partial(let template, let partialIndentation):
            guard template >= 0, depth < Self.maximumDepth else { break }
            depth += 1
            let inner = partialIndentation < 0 ? indentation : (indentation ?? "") + program.indentations[partialIndentation]
            run(program.templates[template], indentation: inner)
            depth -= 1
        }
        return index + 1
    }

    private mutating func renderSection(_ body: Range<Int>, for value: TemplateValue?, indentation: String?) {
        switch value {
        case nil, .flag(false):
            return
        case .flag(true):
            run(body, indentation: indentation)
        case .list(let elements):
            for element in elements { run(body, inside: element, indentation: indentation) }
        case .some(let value):
            run(body, inside: value, indentation: indentation)
        }
    }

    private mutating func renderInverted(_ body: Range<Int>, for value: TemplateValue?, indentation: String?) {
        switch value {
        case nil, .flag(false):
            run(body, indentation: indentation)
        case .list(let elements) where elements.isEmpty:
            run(body, inside: .list([]), indentation: indentation)
        default:
            return
        }
    }

    private mutating func run(_ body: Range<Int>, inside value: TemplateValue, indentation: String?) {
        stack.append(value)
        run(body, indentation: indentation)
        stack.removeLast()
    }

    private func lookUp(_ nameIndex: Int) -> TemplateValue? {
        let name = contents.names[nameIndex]
        var part = name.parts.lowerBound
        let end = name.parts.upperBound
        var value: TemplateValue
        switch name.scope {
        case .current:
            return stack.last
        case .innermost:
            value = stack[stack.count - 1]
        case .enclosing:
            guard part < end else { return stack.last }
            let first = contents.keys[part]
            part += 1
            var found: TemplateValue?
            for level in stack.indices.reversed() {
                found = stack[level].child(first)
                if found != nil { break }
            }
            guard let found else { return nil }
            value = found
        }
        while part < end {
            guard let child = value.child(contents.keys[part]) else { return nil }
            value = child
            part += 1
        }
        return value
    }

    private mutating func write(_ value: TemplateValue, escaped: Bool) {
        switch value {
        case .text(let text):
            if escaped { HTMLEscape.appendAttribute(text, to: &output) } else { output += text.utf8 }
        case .utf8(let bytes):
            if escaped { bytes.withUnsafeBufferPointer { HTMLEscape.appendAttribute($0, to: &output) } } else { output += bytes }
        case .flag(let flag):
            output += (flag ? "true" : "false").utf8
        case .number(let number):
            output += String(number).utf8
        case .list, .object:
            // Printed like Swift's dictionary and array literals, names in order (a debugging
            // aid, not HTML; see ``TemplateValue/printableValue``).
            let text = String(describing: value.printableValue)
            if escaped { HTMLEscape.appendAttribute(text, to: &output) } else { output += text.utf8 }
        }
    }
}

extension TemplateValue {
    /// The value named `name` inside an object; other values have no named values.
    fileprivate func child(_ name: TemplateKey) -> TemplateValue? {
        guard case .object(let object) = self else { return nil }
        return object[name]
    }
}
