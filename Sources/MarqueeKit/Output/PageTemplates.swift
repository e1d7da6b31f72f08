import Foundation

/// A theme's templates, ready to render pages: compiled by ``TemplateCompiler`` and rendered
/// over typed ``TemplateValue``s straight into bytes.
///
/// Why not a Mustache package's renderer: those look every name up through `Any` and a ladder of
/// protocol casts, split dotted names on each lookup and return a `String` per tag, which made
/// rendering the larger part of a full build, and the speed goals failed with it.
package struct PageTemplates: Sendable {
    private let program: TemplateProgram

    /// Templates already compiled and laid out.
    init(program: TemplateProgram) {
        self.program = program
    }

    /// The templates `texts` (by name) compiled; the error names the template that does not
    /// compile.
    package static func compiled(_ texts: [String: String]) throws(NamedTemplateError) -> PageTemplates {
        var compiled: [String: [TemplateNode]] = [:]
        for (name, text) in texts {
            do {
                compiled[name] = try TemplateCompiler.compile(text)
            } catch {
                throw NamedTemplateError(name: name, error: error)
            }
        }
        return PageTemplates(program: TemplateProgram(compiled))
    }

    /// A template that did not compile, and why.
    package struct NamedTemplateError: Error {
        package let name: String
        package let error: TemplateSyntaxError
    }

    /// Renders the template `name` with `values` and appends the result to `output`; false when
    /// there is no such template.
    package func render(_ name: String, _ values: TemplateObject, into output: inout [UInt8]) -> Bool {
        render(name, value: .object(values), into: &output)
    }

    /// Renders the template `name` with `value` as the outermost value (any kind of value, as
    /// the Mustache specification's tests give them).
    package func render(_ name: String, value: TemplateValue, into output: inout [UInt8]) -> Bool {
        guard let instructions = program.template(named: name) else { return false }
        var rendering = TemplateRendering(program: program, stack: [value], output: output)
        output = []  // `rendering` holds the only reference, so appending never copies.
        rendering.run(instructions, indentation: nil)
        output = rendering.output
        return true
    }
}

/// One rendering of a ``TemplateProgram``: the stack of values that sections entered, and the
/// bytes written so far. Follows the Mustache specification: a name is looked up from the
/// innermost value outwards; only objects have named values; `false`, nothing and empty lists
/// skip a section; text and numbers print as themselves, flags as `true` or `false`, and lists
/// and objects print nothing.
private struct TemplateRendering {
    let program: TemplateProgram
    var stack: [TemplateValue]
    var output: [UInt8]
    /// Partials inside partials; past ``maximumDepth`` a partial renders nothing (a template
    /// that includes itself would otherwise never end).
    private var depth = 0
    private static let maximumDepth = 100

    init(program: TemplateProgram, stack: [TemplateValue], output: [UInt8]) {
        self.program = program
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
    /// (not the second half of CR LF, which the compiler reads as one line break).
    private func endsWithLineFeed(from start: Int, to end: Int) -> Bool {
        guard end > start, output[end - 1] == 0x0A else { return false }
        return end - 1 == start || output[end - 2] != 0x0D
    }

    /// Runs the instruction at `index` (with its body, for a section); returns the index of
    /// the instruction after it.
    private mutating func step(at index: Int, indentation: String?) -> Int {
        switch program.instructions[index] {
        case .text(let start, let end):
            output += program.text[start..<end]
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
        let name = program.names[nameIndex]
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
            let first = program.keys[part]
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
            guard let child = value.child(program.keys[part]) else { return nil }
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
            if escaped { HTMLEscape.appendAttribute(bytes.span, to: &output) } else { output += bytes }
        case .flag(let flag):
            output += (flag ? "true" : "false").utf8
        case .number(let number):
            output += String(number).utf8
        case .list, .object:
            break
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
