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
        var nodes: [HTMLNode] = []
        return appendChildren(of: node, depth: depth, to: &nodes) ? nodes : nil
    }

    /// False when the tree is too deep.
    private static func appendChildren(of node: OpaquePointer, depth: Int, to nodes: inout [HTMLNode]) -> Bool {
        guard depth < maximumDepth else { return false }
        var child = cmark_node_first_child(node)
        while let current = child {
            guard append(current, depth: depth + 1, to: &nodes) else { return false }
            child = cmark_node_next(current)
        }
        return true
    }

    private static func append(_ node: OpaquePointer, depth: Int, to nodes: inout [HTMLNode]) -> Bool {
        func element(_ name: String, _ children: [HTMLNode] = []) -> HTMLNode {
            .element(name: name, attributes: [], children: children)
        }
        func container(_ name: String) -> Bool {
            guard let children = children(of: node, depth: depth) else { return false }
            nodes.append(element(name, children))
            return true
        }
        switch cmark_node_get_type(node) {
        case CMARK_NODE_TEXT: nodes.append(.text(literal(of: node)))
        case CMARK_NODE_CODE: nodes.append(element("code", [.text(literal(of: node))]))
        case CMARK_NODE_SOFTBREAK: nodes.append(.text("\n"))
        case CMARK_NODE_LINEBREAK: nodes.append(element("br"))
        case CMARK_NODE_CODE_BLOCK: nodes.append(element("pre", [element("code", [.text(literal(of: node))])]))
        case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE: break
        case CMARK_NODE_THEMATIC_BREAK: nodes.append(element("hr"))
        // The alt text goes into an attribute, which is not laid out.
        case CMARK_NODE_IMAGE: nodes.append(element("img"))
        case CMARK_NODE_PARAGRAPH:
            // Paragraphs of tight list items are written without <p>.
            if let list = cmark_node_parent(node).flatMap(cmark_node_parent), cmark_node_get_type(list) == CMARK_NODE_LIST,
               cmark_node_get_list_tight(list) != 0 {
                return appendChildren(of: node, depth: depth, to: &nodes)
            }
            return container("p")
        case CMARK_NODE_HEADING: return container("h\(cmark_node_get_heading_level(node))")
        case CMARK_NODE_BLOCK_QUOTE: return container("blockquote")
        case CMARK_NODE_LIST: return container(cmark_node_get_list_type(node) == CMARK_ORDERED_LIST ? "ol" : "ul")
        case CMARK_NODE_ITEM: return container("li")
        case CMARK_NODE_EMPH: return container("em")
        case CMARK_NODE_STRONG: return container("strong")
        case CMARK_NODE_LINK: return container("a")
        default: return appendChildren(of: node, depth: depth, to: &nodes)
        }
        return true
    }

    /// A node's text as the HTML parser reads it back: CR LF and CR become LF, and control
    /// characters and noncharacters become U+FFFD (gumbo does so; browsers keep some of them).
    private static func literal(of node: OpaquePointer) -> String {
        guard let pointer = cmark_node_get_literal(node) else { return "" }
        var text = String(cString: pointer)
        // Printable ASCII, tabs and line feeds (most text) pass as they are.
        if text.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x09 }) { return text }
        if text.utf8.contains(0x0D) {
            text = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        }
        guard text.unicodeScalars.contains(where: isReplacedByTheParser) else { return text }
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { cleaned.append(isReplacedByTheParser(scalar) ? "\u{FFFD}" : scalar) }
        return String(cleaned)
    }

    private static func isReplacedByTheParser(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0C, 0x0D: return false
        case 0x01...0x1F, 0x7F...0x9F, 0xFDD0...0xFDEF: return true
        default: return scalar.value & 0xFFFE == 0xFFFE
        }
    }
}
