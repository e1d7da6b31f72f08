import Foundation
import Mustache
import Testing
@testable import MarqueeKit

@Suite("Template values")
struct TemplateValueTests {
    /// Renders `template` with `values`, once as plain strings and once with every string made a
    /// ``TemplateText``, the way pages hand them to templates.
    func bothWays(_ template: String, _ values: [String: Any]) throws -> (plain: String, text: String) {
        func wrapped(_ value: Any) -> Any {
            switch value {
            case let text as String: TemplateText(text)
            case let list as [String]: list.map(TemplateText.init)
            case let object as [String: Any]: object.mapValues(wrapped)
            default: value
            }
        }
        let compiled = try MustacheTemplate(string: template)
        return (compiled.render(values), compiled.render(wrapped(values)))
    }

    /// Pages pass text as `TemplateText` (fewer dynamic casts in swift-mustache); a site's own
    /// templates must not be able to tell it from a `String`.
    @Test(arguments: [
        "{{v}}|{{{v}}}|{{#v}}[{{.}}]{{/v}}|{{^v}}none{{/v}}",
        "{{#v}}{{other}}-{{v}}{{/v}}|{{v.count}}|{{#v.count}}x{{/v.count}}",
        "{{uppercased(v)}}|{{lowercased(v)}}|{{capitalized(other)}}|{{reversed(v)}}|{{#empty(v)}}empty{{/empty(v)}}{{^empty(v)}}full{{/empty(v)}}",
        "{{#list}}{{.}},{{/list}}|{{#sorted(list)}}{{.}};{{/sorted(list)}}|{{first(list)}}|{{last(list)}}|{{count(list)}}",
        "{{#reversed(list)}}{{.}}{{/reversed(list)}}|{{#empty(none)}}no items{{/empty(none)}}|{{^none}}none{{/none}}",
        "{{meta.kind}}|{{#meta}}{{kind}}/{{v}}{{/meta}}|{{#sorted(meta)}}{{key}}={{value}};{{/sorted(meta)}}",
    ], ["<b>Tom & \"Jerry's\"</b>", ""])
    func textRendersLikeAString(template: String, value: String) throws {
        let values: [String: Any] = [
            "v": value, "other": "other text", "list": ["pear", "apple", value], "none": [String](),
            "meta": ["kind": "drama", "year": "1999"],
        ]
        let (plain, text) = try bothWays(template, values)
        #expect(text == plain)
        #expect(!plain.isEmpty)
    }
}
