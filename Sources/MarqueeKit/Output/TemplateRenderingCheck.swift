import Mustache

/// The property the `template` fuzz target (marquee-fuzz) checks: a template that swift-mustache
/// accepts renders the same with the compiled renderer (``PageTemplates``) as with swift-mustache.
/// Not public API: `@_spi(Fuzzing) import MarqueeKit` to use it.
@_spi(Fuzzing)
public enum TemplateRenderingCheck {
    /// Both renderings of `template` when they differ; nil when they agree, when swift-mustache
    /// cannot parse the template, or when it uses Mustache beyond the compiled subset.
    ///
    /// The template may use the partials `item` and `lines`; it cannot name itself (its own
    /// name has a space), since swift-mustache would recurse without end.
    public static func difference(in template: String) -> (compiled: String, mustache: String)? {
        MustacheContentTypes.register(FastHTMLContentType(), named: FastHTMLContentType.name)
        var texts = partials
        texts[name] = template
        var library = MustacheLibrary()
        for (name, text) in texts {
            guard let parsed = try? MustacheTemplate(string: FastHTMLContentType.pragma + text) else { return nil }
            library.register(parsed, named: name)
            texts[name] = FastHTMLContentType.pragma + text
        }
        let pages = PageTemplates(texts: texts, library: library)
        guard pages.isCompiled else { return nil }
        var compiled: [UInt8] = []
        _ = pages.render(name, values, into: &compiled)
        let mustache = library.render(TemplateValue.object(values).mustacheValue, withTemplate: name) ?? ""
        let text = String(decoding: compiled, as: UTF8.self)
        return text == mustache ? nil : (text, mustache)
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
