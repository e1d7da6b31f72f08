import CGumbo

/// A parsed HTML fragment, as the HTML5 parser (gumbo) built it. Comments are dropped.
package indirect enum HTMLNode: Sendable, Equatable {
    case element(name: String, attributes: [HTMLAttribute], children: [HTMLNode])
    case text(String)
}

/// An attribute of an element, its name lowercased.
package struct HTMLAttribute: Sendable, Equatable {
    /// The attribute's name, lowercased.
    package var name: String
    /// The attribute's value, entities decoded.
    package var value: String

    /// Creates an attribute.
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Parses HTML with Debian's libgumbo, an HTML5-conformant parser: the tree is the one a browser
/// would build, whatever the markup's mistakes.
package enum HTMLParser {
    /// Elements nested deeper than this are flattened (their text kept) to bound recursion.
    package static let maximumDepth = 200

    /// Parses `html` as the content of a `<body>` and returns its children.
    package static func parseFragment(_ html: String) -> [HTMLNode] {
        var html = html
        return html.withUTF8 { buffer -> [HTMLNode] in
            guard let base = buffer.baseAddress else { return [] }
            var options = kGumboDefaultOptions
            options.max_errors = 0
            let output = base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                gumbo_parse_with_options(&options, $0, buffer.count)
            }
            guard let output else { return [] }
            defer { gumbo_destroy_output(&options, output) }
            guard let body = findBody(output.pointee.root) else { return [] }
            var nodes: [HTMLNode] = []
            appendChildren(of: body, depth: 0, to: &nodes)
            return nodes
        }
    }

    private static func findBody(_ root: UnsafeMutablePointer<GumboNode>?) -> UnsafeMutablePointer<GumboNode>? {
        guard let root, root.pointee.type == GUMBO_NODE_ELEMENT else { return nil }
        let children = root.pointee.v.element.children
        for index in 0..<Int(children.length) {
            let child = children.data[index]!.assumingMemoryBound(to: GumboNode.self)
            if child.pointee.type == GUMBO_NODE_ELEMENT, child.pointee.v.element.tag == GUMBO_TAG_BODY {
                return child
            }
        }
        return nil
    }

    private static func appendChildren(of node: UnsafeMutablePointer<GumboNode>, depth: Int, to nodes: inout [HTMLNode]) {
        let children = node.pointee.v.element.children
        for index in 0..<Int(children.length) {
            let child = children.data[index]!.assumingMemoryBound(to: GumboNode.self)
            switch child.pointee.type {
            case GUMBO_NODE_TEXT, GUMBO_NODE_WHITESPACE, GUMBO_NODE_CDATA:
                nodes.append(.text(String(cString: child.pointee.v.text.text)))
            case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE:
                if depth >= maximumDepth {
                    nodes.append(.text(flattenedText(of: child)))
                    continue
                }
                var kids: [HTMLNode] = []
                appendChildren(of: child, depth: depth + 1, to: &kids)
                nodes.append(.element(name: tagName(child), attributes: attributes(child), children: kids))
            default:
                continue  // comments, documents
            }
        }
    }

    /// The text of a subtree, collected without recursion (the subtree may be very deep).
    private static func flattenedText(of root: UnsafeMutablePointer<GumboNode>) -> String {
        var text = ""
        var stack = [root]
        while let node = stack.popLast() {
            switch node.pointee.type {
            case GUMBO_NODE_TEXT, GUMBO_NODE_WHITESPACE, GUMBO_NODE_CDATA:
                text += String(cString: node.pointee.v.text.text)
            case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE:
                let children = node.pointee.v.element.children
                for index in stride(from: Int(children.length) - 1, through: 0, by: -1) {
                    stack.append(children.data[index]!.assumingMemoryBound(to: GumboNode.self))
                }
            default:
                continue
            }
        }
        return text
    }

    private static func tagName(_ node: UnsafeMutablePointer<GumboNode>) -> String {
        let element = node.pointee.v.element
        if element.tag != GUMBO_TAG_UNKNOWN, let name = gumbo_normalized_tagname(element.tag) {
            return String(cString: name)
        }
        var piece = element.original_tag
        gumbo_tag_from_original_text(&piece)
        guard let data = piece.data, piece.length > 0 else { return "unknown" }
        let bytes = UnsafeRawBufferPointer(start: data, count: piece.length)
        return String(decoding: bytes, as: UTF8.self).lowercased()
    }

    private static func attributes(_ node: UnsafeMutablePointer<GumboNode>) -> [HTMLAttribute] {
        let vector = node.pointee.v.element.attributes
        var result: [HTMLAttribute] = []
        result.reserveCapacity(Int(vector.length))
        for index in 0..<Int(vector.length) {
            let attribute = vector.data[index]!.assumingMemoryBound(to: GumboAttribute.self)
            result.append(HTMLAttribute(
                name: String(cString: attribute.pointee.name).lowercased(),
                value: String(cString: attribute.pointee.value)))
        }
        return result
    }
}
