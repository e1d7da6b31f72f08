import Foundation
import Mustache

/// A theme's templates, ready to render pages: compiled by ``TemplateCompiler`` and rendered
/// over typed ``TemplateValue``s straight into bytes, or, when any template uses Mustache beyond
/// that subset, rendered by swift-mustache. Either way a page comes out the same (the tests
/// compare the two).
///
/// Why: swift-mustache looks every name up through `Any` and a ladder of protocol casts, splits
/// dotted names on each lookup and returns a `String` per tag; that was over 40 % of a full
/// build's CPU time (BENCHMARKS.md, session 7).
struct PageTemplates: Sendable {
    private let compiled: [String: [TemplateNode]]?
    private let library: MustacheLibrary

    /// `texts` are the templates by name, as `library` (swift-mustache) parsed them.
    init(texts: [String: String], library: MustacheLibrary) {
        var compiled: [String: [TemplateNode]]? = [:]
        for (name, text) in texts {
            guard let nodes = try? TemplateCompiler.compile(text) else {
                compiled = nil
                break
            }
            compiled?[name] = nodes
        }
        self.init(compiled: compiled, library: library)
    }

    private init(compiled: [String: [TemplateNode]]?, library: MustacheLibrary) {
        self.compiled = compiled
        self.library = library
    }

    /// True when the compiled renderer is in use (every template is within its subset).
    var isCompiled: Bool { compiled != nil }

    /// The same templates, always rendered by swift-mustache.
    var renderedBySwiftMustache: PageTemplates { PageTemplates(compiled: nil, library: library) }

    /// Renders the template `name` with `values` and appends the result to `output`; false when
    /// there is no such template.
    func render(_ name: String, _ values: TemplateObject, into output: inout [UInt8]) -> Bool {
        guard let compiled else {
            guard let text = library.render(TemplateValue.object(values).mustacheValue, withTemplate: name) else { return false }
            output += text.utf8
            return true
        }
        guard let nodes = compiled[name] else { return false }
        var rendering = TemplateRendering(templates: compiled, stack: [.object(values)], output: output)
        output = []  // `rendering` holds the only reference, so appending never copies.
        rendering.render(nodes, indentation: nil)
        output = rendering.output
        return true
    }
}

/// One rendering of compiled templates: the stack of values that sections entered, and the bytes
/// written so far. Follows swift-mustache's rules: a name is looked up from the innermost value
/// outwards; only objects have named values; `false`, nothing and empty lists skip a section;
/// text and numbers print as themselves and flags as `true` or `false`.
private struct TemplateRendering {
    let templates: [String: [TemplateNode]]
    var stack: [TemplateValue]
    var output: [UInt8]
    /// Partials inside partials; past ``maximumDepth`` a partial renders nothing (a template
    /// that includes itself would otherwise never end).
    private var depth = 0
    private static let maximumDepth = 100

    init(templates: [String: [TemplateNode]], stack: [TemplateValue], output: [UInt8]) {
        self.templates = templates
        self.stack = stack
        self.output = output
    }

    mutating func render(_ nodes: [TemplateNode], indentation: String?) {
        guard let indentation, !indentation.isEmpty else {
            for node in nodes { render(node, indentation: indentation) }
            return
        }
        // Inside a partial that stood alone on an indented line: whatever a node writes after a
        // line break of this rendering's own output is indented.
        let start = output.count
        for node in nodes {
            let before = output.count
            render(node, indentation: indentation)
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

    private mutating func render(_ node: TemplateNode, indentation: String?) {
        switch node {
        case .text(let bytes):
            output += bytes
        case .value(let name, let escaped):
            guard let value = lookUp(name) else { return }
            write(value, escaped: escaped)
        case .section(let name, let body, let inverted):
            let value = lookUp(name)
            if inverted {
                renderInverted(body, for: value, indentation: indentation)
            } else {
                renderSection(body, for: value, indentation: indentation)
            }
        case .partial(let name, let partialIndentation):
            guard let partial = templates[name], depth < Self.maximumDepth else { return }
            depth += 1
            render(partial, indentation: partialIndentation.map { (indentation ?? "") + $0 } ?? indentation)
            depth -= 1
        }
    }

    private mutating func renderSection(_ body: [TemplateNode], for value: TemplateValue?, indentation: String?) {
        switch value {
        case nil, .flag(false):
            return
        case .flag(true):
            render(body, indentation: indentation)
        case .list(let elements):
            for element in elements { render(body, inside: element, indentation: indentation) }
        case .some(let value):
            render(body, inside: value, indentation: indentation)
        }
    }

    private mutating func renderInverted(_ body: [TemplateNode], for value: TemplateValue?, indentation: String?) {
        switch value {
        case nil, .flag(false):
            render(body, indentation: indentation)
        case .list(let elements) where elements.isEmpty:
            render(body, inside: .list([]), indentation: indentation)
        default:
            return
        }
    }

    private mutating func render(_ body: [TemplateNode], inside value: TemplateValue, indentation: String?) {
        stack.append(value)
        render(body, indentation: indentation)
        stack.removeLast()
    }

    private func lookUp(_ name: TemplateName) -> TemplateValue? {
        var value: TemplateValue
        var parts = name.parts[...]
        switch name.scope {
        case .current:
            return stack.last
        case .innermost:
            value = stack[stack.count - 1]
        case .enclosing:
            guard let first = parts.popFirst() else { return stack.last }
            var found: TemplateValue?
            for level in stack.indices.reversed() {
                found = stack[level].child(first)
                if found != nil { break }
            }
            guard let found else { return nil }
            value = found
        }
        for part in parts {
            guard let child = value.child(part) else { return nil }
            value = child
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
