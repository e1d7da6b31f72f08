/// A value as page templates see it: plain data, built by ``PageContext`` and rendered by
/// ``PageTemplates``. Typed, so that rendering needs no dynamic casts.
enum TemplateValue: Sendable {
    /// Text; `{{name}}` escapes it, `{{{name}}}` writes it as is.
    case text(String)
    /// Text held as UTF-8 bytes, such as a page body rendered for the layout: the same as
    /// ``text(_:)`` to templates, without making a `String` of it.
    case utf8([UInt8])
    /// A flag for sections: `{{#isImage}}…{{/isImage}}`; renders as `true` or `false`.
    case flag(Bool)
    /// A number; renders in decimal.
    case number(Int)
    /// A list; a section renders once per element.
    case list([TemplateValue])
    /// Named values; `{{name}}` and `{{a.b}}` look into it.
    case object(TemplateObject)

    /// The value as swift-mustache is handed it when a theme is rendered by swift-mustache itself
    /// (see ``PageTemplates``): text as ``TemplateText``, lists as `[Any]`, objects as
    /// `[String: Any]`.
    var mustacheValue: Any {
        switch self {
        case .text(let text): TemplateText(text)
        case .utf8(let bytes): TemplateText(String(decoding: bytes, as: UTF8.self))
        case .flag(let flag): flag
        case .number(let number): number
        case .list(let list): list.map(\.mustacheValue)
        case .object(let object): object.mapValues(\.mustacheValue)
        }
    }
}

/// Named template values.
typealias TemplateObject = [String: TemplateValue]

extension Sequence<String> {
    /// The strings as a template list of text.
    var templateList: TemplateValue { .list(map(TemplateValue.text)) }
}
