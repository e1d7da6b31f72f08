/// A theme's compiled templates laid out flat for rendering: every template's ``TemplateNode``
/// tree becomes a run of ``Instruction``s in one array, literal text goes into one byte buffer,
/// names into one table, and partials are found by index when the program is made.
///
/// Why: the tree holds arrays and strings in every node, so each node the renderer visits
/// would be retained and released, once per node per page.
/// Instructions hold only numbers, so visiting one copies a few bytes and counts no references.
struct TemplateProgram: Sendable {
    /// One step of a template; numbers only.
    enum Instruction: Sendable {
        /// Literal text: `text[start..<end]`.
        case text(start: Int, end: Int)
        /// `{{name}}` (escaped) or `{{{name}}}` (as is): `names[name]`.
        case value(name: Int, escaped: Bool)
        /// A section or inverted section on `names[name]`; its body is the instructions after
        /// this one up to `end`, where rendering goes on.
        case section(name: Int, end: Int, inverted: Bool)
        /// `{{> name}}`: the template at `template` in ``templates`` (-1 when the theme has none
        /// of that name), with the indentation `indentations[indentation]` (-1 when the partial
        /// does not stand alone on its line).
        case partial(template: Int, indentation: Int)
    }

    /// A tag's name: how it is looked up, and its dotted parts as `keys[parts]`.
    struct Name: Sendable {
        let scope: TemplateName.Scope
        let parts: Range<Int>
    }

    private(set) var instructions: [Instruction] = []
    private(set) var text: [UInt8] = []
    private(set) var names: [Name] = []
    private(set) var keys: [TemplateKey] = []
    private(set) var indentations: [String] = []
    /// Each template's instructions, by template index.
    private(set) var templates: [Range<Int>] = []
    /// Template indices by name.
    private let templateIndex: [String: Int]

    /// Lays out `compiled`, the theme's templates by name.
    init(_ compiled: [String: [TemplateNode]]) {
        let names = compiled.keys.sorted()
        templateIndex = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        for name in names {
            let start = instructions.count
            append(compiled[name]!)
            templates.append(start..<instructions.count)
        }
    }

    /// The instructions of the template named `name`, if the theme has it.
    func template(named name: String) -> Range<Int>? {
        templateIndex[name].map { templates[$0] }
    }

    private mutating func append(_ nodes: [TemplateNode]) {
        for node in nodes {
            switch node {
            case .text(let bytes):
                let start = text.count
                text += bytes
                instructions.append(.text(start: start, end: text.count))
            case .value(let name, let escaped):
                instructions.append(.value(name: add(name), escaped: escaped))
            case .section(let name, let body, let inverted):
                let at = instructions.count
                let name = add(name)
                instructions.append(.section(name: name, end: 0, inverted: inverted))
                append(body)
                instructions[at] = .section(name: name, end: instructions.count, inverted: inverted)
            case .partial(let name, let indentation):
                var indentationIndex: Int = -1
                if let indentation {
                    indentationIndex = indentations.count
                    indentations.append(indentation)
                }
                instructions.append(.partial(template: templateIndex[name] ?? -1, indentation: indentationIndex))
            }
        }
    }

    private mutating func add(_ name: TemplateName) -> Int {
        let start = keys.count
        keys += name.parts
        names.append(Name(scope: name.scope, parts: start..<keys.count))
        return names.count - 1
    }
}
