import Mustache

/// The property the `template` fuzz target (marquee-fuzz) checks: a template that swift-mustache
/// accepts renders the same with the compiled renderer (``PageTemplates``) as with swift-mustache.
package enum TemplateRenderingCheck {
    /// Both renderings of `template` when they differ; nil when they agree, when swift-mustache
    /// cannot parse the template, or when it uses Mustache beyond the compiled subset.
    ///
    /// The template may use the partials `item` and `lines`; it cannot name itself (its own
    /// name has a space), since swift-mustache would recurse without end.
    package static func difference(in template: String) -> (compiled: String, mustache: String)? {
        var templates = partials
        templates[name] = template
        guard let result = renderBothWays(templates, main: name, values: values), result.isCompiled,
              result.compiled != result.mustache
        else { return nil }
        return (result.compiled ?? "", result.mustache)
    }

    /// `templates` (as a site writes them; the pragma `Theme.load` puts in front is added here)
    /// rendered from `main` with `values`, by the compiled renderer (nil when there is no `main`)
    /// and by swift-mustache; nil when swift-mustache cannot parse one of them.
    static func renderBothWays(
        _ templates: [String: String], main: String, values: TemplateObject
    ) -> (compiled: String?, mustache: String, isCompiled: Bool)? {
        FastHTMLContentType.register()
        var library = MustacheLibrary()
        var texts: [String: String] = [:]
        for (name, template) in templates {
            let text = FastHTMLContentType.pragma + template
            guard let parsed = try? MustacheTemplate(string: text) else { return nil }
            library.register(parsed, named: name)
            texts[name] = text
        }
        let pages = PageTemplates(texts: texts, library: library)
        var compiled: [UInt8] = []
        let found = pages.render(main, values, into: &compiled)
        let mustache = library.render(TemplateValue.object(values).printableValue, withTemplate: main) ?? ""
        return (found ? String(decoding: compiled, as: UTF8.self) : nil, mustache, pages.isCompiled)
    }

    private static let name = "fuzzed template"

    private static let partials = [
        "item": "({{a}}{{#list}}<{{.}}>{{/list}})",
        "lines": "first {{a}}\n  {{#yes}}\n  second\n  {{/yes}}\n  {{> item}}\r\nlast",
    ]

    /// Every kind of value: text to escape, empty text, flags, numbers, lists and objects.
    private static let values: TemplateObject = [
        "a": .text("Tom & \"Jerry's\" <b>"), "b": .text(""), "yes": .flag(true), "no": .flag(false),
        "num": .number(42), "empty": .list([]), "body": .utf8(Array("<p>x&amp;y</p>".utf8)),
        "list": .list([.object(["a": .text("first"), "n": .number(1)]), .text("second"), .number(3)]),
        "obj": .object(["a": .text("obj.a"), "inner": .object(["b": .text("deep"), "list": .list([.text("x")])])]),
    ]
}
