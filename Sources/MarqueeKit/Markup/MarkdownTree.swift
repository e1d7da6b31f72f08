import CCmark

/// The elements and text that cmark's HTML renderer writes for a document, read straight from
/// cmark's tree: the tree the HTML parser would build from that HTML, so that the layout stage
/// can measure a Markdown description without parsing its HTML again.
///
/// Only what ``TextBlocks`` reads is kept: element names and text, no attributes. Whitespace
/// that the renderer writes between blocks is left out, because text collapsing drops it at
/// every place it can appear. Raw HTML is left out as safe mode replaces it with a comment.
/// The fuzz target `markdown` checks that the result equals the reparsed HTML's blocks.
enum MarkdownTree {
    /// Trees nested deeper than this are not read (nil); the HTML is parsed instead, where the
    /// parser's own depth limit applies.
    static let maximumDepth = 100

    /// The HTML nodes of `document`, or nil when it nests deeper than ``maximumDepth``.
    static func htmlNodes(of document: OpaquePointer) -> [HTMLNode]? {
        children(of: document, depth: 0)
    }

    private static func children(of node: OpaquePointer, depth: Int) -> [HTMLNode]? {
        guard depth < maximumDepth else { return nil }
        var nodes: [HTMLNode] = []
        var child = cmark_node_first_child(node)
        while let current = child {
            guard let converted = htmlNodes(for: current, depth: depth + 1) else { return nil }
            nodes += converted
            child = cmark_node_next(current)
        }
        return nodes
    }

    private static func htmlNodes(for node: OpaquePointer, depth: Int) -> [HTMLNode]? {
        func element(_ name: String) -> [HTMLNode]? {
            children(of: node, depth: depth).map { [.element(name: name, attributes: [], children: $0)] }
        }
        switch cmark_node_get_type(node) {
        case CMARK_NODE_TEXT, CMARK_NODE_CODE:
            let text = literal(of: node)
            return cmark_node_get_type(node) == CMARK_NODE_CODE ? [.element(name: "code", attributes: [], children: [.text(text)])] : [.text(text)]
        case CMARK_NODE_SOFTBREAK:
            return [.text("\n")]
        case CMARK_NODE_LINEBREAK:
            return [.element(name: "br", attributes: [], children: [])]
        case CMARK_NODE_CODE_BLOCK:
            return [.element(name: "pre", attributes: [], children: [.element(name: "code", attributes: [], children: [.text(literal(of: node))])])]
        case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE:
            return []
        case CMARK_NODE_THEMATIC_BREAK:
            return [.element(name: "hr", attributes: [], children: [])]
        case CMARK_NODE_IMAGE:
            // The alt text goes into an attribute, which is not laid out.
            return [.element(name: "img", attributes: [], children: [])]
        case CMARK_NODE_PARAGRAPH:
            // Paragraphs of tight list items are written without <p>.
            if let list = cmark_node_parent(node).flatMap(cmark_node_parent), cmark_node_get_type(list) == CMARK_NODE_LIST,
               cmark_node_get_list_tight(list) != 0 {
                return children(of: node, depth: depth)
            }
            return element("p")
        case CMARK_NODE_HEADING: return element("h\(cmark_node_get_heading_level(node))")
        case CMARK_NODE_BLOCK_QUOTE: return element("blockquote")
        case CMARK_NODE_LIST: return element(cmark_node_get_list_type(node) == CMARK_ORDERED_LIST ? "ol" : "ul")
        case CMARK_NODE_ITEM: return element("li")
        case CMARK_NODE_EMPH: return element("em")
        case CMARK_NODE_STRONG: return element("strong")
        case CMARK_NODE_LINK: return element("a")
        default:
            return children(of: node, depth: depth)
        }
    }

    /// A node's text, with line ends as the HTML parser reads them (CR LF and CR become LF).
    private static func literal(of node: OpaquePointer) -> String {
        guard let pointer = cmark_node_get_literal(node) else { return "" }
        let text = String(cString: pointer)
        guard text.utf8.contains(0x0D) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }
}
