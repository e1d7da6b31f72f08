import CCmark
import Foundation

/// The elements and text that cmark's HTML renderer writes for a document, read straight from
/// cmark's tree into a ``TextBlockBuilder``: what the builder would get from parsing that HTML,
/// so that the layout stage can measure a Markdown description without parsing its HTML.
///
/// Only what the builder reads is handed over: each element's role (a paragraph, a list item,
/// bold, …) and the text, no attributes.
/// Whitespace that the renderer writes between blocks is left out, because text collapsing drops
/// it at every place it can appear. Raw HTML is left out as safe mode replaces it with a comment.
/// The fuzz target `markdown` checks that the result equals the reparsed HTML's blocks.
enum MarkdownTree {
    /// Trees nested deeper than this are not read (nil); the HTML is parsed instead, where the
    /// parser's own depth limit applies.
    static let maximumDepth = 100

    /// The text blocks of `document`, or nil when it nests deeper than ``maximumDepth``.
    static func textBlocks(of document: OpaquePointer) -> [TextBlock]? {
        var builder = TextBlockBuilder()
        guard walkChildren(of: document, depth: 0, style: TextBlockBuilder.Style(), into: &builder) else { return nil }
        return builder.finish()
    }

    /// False when the tree is too deep.
    private static func walkChildren(
        of node: OpaquePointer, depth: Int, style: TextBlockBuilder.Style, into builder: inout TextBlockBuilder
    ) -> Bool {
        guard depth < maximumDepth else { return false }
        var child = cmark_node_first_child(node)
        while let current = child {
            guard walk(current, depth: depth + 1, style: style, into: &builder) else { return false }
            child = cmark_node_next(current)
        }
        return true
    }

    private static func walk(
        _ node: OpaquePointer, depth: Int, style: TextBlockBuilder.Style, into builder: inout TextBlockBuilder
    ) -> Bool {
        /// An element of `role` holding the node's children.
        func container(_ role: TextBlockBuilder.Role) -> Bool {
            var isShallow = true
            builder.element(role, style) { builder, style in
                isShallow = walkChildren(of: node, depth: depth, style: style, into: &builder)
            }
            return isShallow
        }
        switch cmark_node_get_type(node) {
        case CMARK_NODE_TEXT: appendLiteral(of: node, style, into: &builder)
        case CMARK_NODE_CODE: builder.element(.inline, style) { builder, style in appendLiteral(of: node, style, into: &builder) }
        case CMARK_NODE_SOFTBREAK: builder.append("\n".utf8, style)
        case CMARK_NODE_LINEBREAK: builder.element(.lineBreak, style) { _, _ in }
        case CMARK_NODE_CODE_BLOCK:
            builder.element(.preformatted, style) { builder, style in
                builder.element(.inline, style) { builder, style in appendLiteral(of: node, style, into: &builder) }
            }
        case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE: break
        case CMARK_NODE_THEMATIC_BREAK: builder.element(.thematicBreak, style) { _, _ in }
        // The alt text goes into an attribute, which is not laid out.
        case CMARK_NODE_IMAGE: builder.element(.skipped, style) { _, _ in }
        case CMARK_NODE_PARAGRAPH:
            // Paragraphs of tight list items are written without <p>.
            if let list = cmark_node_parent(node).flatMap(cmark_node_parent), cmark_node_get_type(list) == CMARK_NODE_LIST,
               cmark_node_get_list_tight(list) != 0 {
                return walkChildren(of: node, depth: depth, style: style, into: &builder)
            }
            return container(.paragraph)
        case CMARK_NODE_HEADING: return container(.heading)
        case CMARK_NODE_BLOCK_QUOTE: return container(.paragraph)
        case CMARK_NODE_LIST: return container(.list)
        case CMARK_NODE_ITEM: return container(.listItem)
        case CMARK_NODE_EMPH: return container(.inline)
        case CMARK_NODE_STRONG: return container(.strong)
        case CMARK_NODE_LINK: return container(.inline)
        default: return walkChildren(of: node, depth: depth, style: style, into: &builder)
        }
        return true
    }

    /// True when every byte is printable ASCII, a tab or a line feed. One pass without early
    /// exits, which the compiler turns into vector instructions.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var found: UInt8 = 0
        for byte in bytes {
            let printable: UInt8 = byte &- 0x20 < 0x5F ? 1 : 0
            found |= (printable | (byte == 0x0A ? 1 : 0) | (byte == 0x09 ? 1 : 0)) ^ 1
        }
        return found == 0
    }

    /// Hands a node's text to the builder, as the HTML parser would read it back (most text
    /// passes as it is, without being copied into a string first).
    private static func appendLiteral(of node: OpaquePointer, _ style: TextBlockBuilder.Style, into builder: inout TextBlockBuilder) {
        guard let pointer = cmark_node_get_literal(node) else { return }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
        // Printable ASCII, tabs and line feeds (most text) pass as they are.
        if isPlain(bytes) {
            builder.append(bytes, style)
        } else {
            builder.append(literal(of: String(decoding: bytes, as: UTF8.self)).utf8, style)
        }
    }

    /// Text as the HTML parser reads it back: CR LF and CR become LF, and control characters
    /// and noncharacters become U+FFFD (gumbo does so; browsers keep some of them).
    private static func literal(of text: String) -> String {
        var text = text
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
