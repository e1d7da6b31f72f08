import Foundation

/// Rewrites untrusted HTML from an allow-list of elements, attributes and URL schemes.
///
/// The input is parsed by a real HTML5 parser (``HTMLParser``), so the output is what a browser
/// would have seen, minus everything that can run code or load active content. See the README's
/// "Sanitizer allow-list" for the policy in prose.
package struct HTMLSanitizer: Sendable {
    /// Elements kept with their allowed attributes.
    package static let allowedElements: Set<String> = [
        "a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "dd", "del", "dfn", "div", "dl", "dt",
        "em", "figcaption", "figure", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s",
        "samp", "small", "span", "strong", "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time",
        "tr", "u", "ul", "var",
    ]
    /// Elements removed together with everything inside them.
    package static let droppedElements: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "noframes", "object", "embed", "applet", "noscript",
        "template", "svg", "math", "textarea", "select", "option", "title", "head", "link", "meta", "base",
        "audio", "video", "canvas", "map", "xmp", "plaintext", "noembed", "input", "param", "source", "track",
    ]
    /// Headings are turned into bold paragraphs, so a feed cannot break the page's outline.
    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    static let voidElements: Set<String> = ["br", "hr", "img"]
    /// Attributes any kept element may have.
    package static let globalAttributes: Set<String> = ["title", "lang", "dir"]
    /// Attributes particular elements may have, besides the global ones.
    package static let elementAttributes: [String: Set<String>] = [
        "a": ["href"], "img": ["src", "alt", "width", "height"], "td": ["colspan", "rowspan"],
        "th": ["colspan", "rowspan", "scope"], "ol": ["start"], "blockquote": ["cite"], "q": ["cite"],
        "time": ["datetime"], "abbr": ["title"],
    ]
    static let numericAttributes: Set<String> = ["width", "height", "colspan", "rowspan", "start"]

    /// The base that relative URLs resolve against (the feed's link or `xml:base`).
    package var base: URL?

    /// Creates a sanitizer that resolves relative URLs against `base`.
    package init(base: URL?) {
        self.base = base
    }

    /// Returns safe HTML for `html`.
    package func sanitize(_ html: String) -> String {
        var output = ""
        output.reserveCapacity(html.utf8.count)
        write(HTMLParser.parseFragment(html), into: &output)
        return output
    }

    private func write(_ nodes: [HTMLNode], into output: inout String) {
        for node in nodes {
            switch node {
            case .text(let text):
                output += HTMLEscape.text(text)
            case .element(let name, let attributes, let children):
                writeElement(name, attributes, children, into: &output)
            }
        }
    }

    private func writeElement(_ name: String, _ attributes: [HTMLAttribute], _ children: [HTMLNode], into output: inout String) {
        if Self.droppedElements.contains(name) { return }
        if Self.headings.contains(name) {
            output += "<p><strong>"
            write(children, into: &output)
            output += "</strong></p>"
            return
        }
        guard Self.allowedElements.contains(name) else {
            write(children, into: &output)  // unknown or disallowed wrapper: keep its content
            return
        }
        var kept: [(String, String)] = []
        let allowed = Self.elementAttributes[name, default: []]
        for attribute in attributes where Self.globalAttributes.contains(attribute.name) || allowed.contains(attribute.name) {
            switch attribute.name {
            case "href", "cite":
                if let url = URLPolicy.resolveWeb(attribute.value, role: .link, base: base) { kept.append((attribute.name, url)) }
            case "src":
                if let url = URLPolicy.resolveWeb(attribute.value, role: .image, base: base) { kept.append(("src", url)) }
            case "dir":
                if ["ltr", "rtl", "auto"].contains(attribute.value.lowercased()) { kept.append(("dir", attribute.value.lowercased())) }
            case let numeric where Self.numericAttributes.contains(numeric):
                let value = attribute.value.trimmingCharacters(in: .whitespaces)
                if (1...5).contains(value.count), value.allSatisfy(\.isASCII), Int(value) != nil { kept.append((numeric, value)) }
            default:
                kept.append((attribute.name, attribute.value))
            }
        }
        if name == "img" {
            guard kept.contains(where: { $0.0 == "src" }) else { return }
            if !kept.contains(where: { $0.0 == "alt" }) { kept.append(("alt", "")) }
            kept.append(("loading", "lazy"))
            kept.append(("decoding", "async"))
        }
        if name == "a", kept.contains(where: { $0.0 == "href" }) {
            kept.append(("rel", "noopener nofollow ugc"))
        }
        output += "<" + name
        for (attributeName, value) in kept {
            output += " \(attributeName)=\"\(HTMLEscape.attribute(value))\""
        }
        output += ">"
        if Self.voidElements.contains(name) { return }
        write(children, into: &output)
        output += "</\(name)>"
    }
}
