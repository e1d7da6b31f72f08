import Mustache

/// Text as swift-mustache is handed it when it renders a theme itself (see ``PageTemplates``):
/// renders and behaves in templates exactly like a `String` (sections, `{{.}}`, transforms such
/// as `uppercased(title)` or `sorted(tags)`), but answers swift-mustache's questions itself. For a
/// plain `String`, every `{{name}}` costs the renderer several failed dynamic casts (optional?
/// custom renderable?) and `String(describing:)`, and a lookup inside `{{#name}}` reflects the
/// string with `Mirror`; text passed this way skips those.
struct TemplateText: MustacheCustomRenderable, MustacheParent, MustacheTransformable, Comparable {
    let text: String

    init(_ text: String) { self.text = text }

    var renderText: String { text }
    var isNull: Bool { false }
    /// A string has no named children (a `String` reflected with `Mirror` shows none).
    func child(named: String) -> Any? { nil }
    func transform(_ name: String) -> Any? { text.transform(name) }

    static func < (left: TemplateText, right: TemplateText) -> Bool { left.text < right.text }
}
