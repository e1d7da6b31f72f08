/// A run of text in one style, as the layout engine measures it.
package struct TextRun: Sendable, Equatable {
    /// The text; `"\n"` is a forced line break.
    package var text: String
    /// True for bold text (`strong`, `b`, headings), measured with the bold face.
    package var bold: Bool

    /// Creates a run.
    package init(_ text: String, bold: Bool = false) {
        self.text = text
        self.bold = bold
    }
}

/// One block of a description (a paragraph, a list item, preformatted text), with its runs.
/// `"\n"` inside a run is a forced line break.
package struct TextBlock: Sendable, Equatable {
    /// How a block is laid out.
    package enum Kind: Sendable, Equatable {
        case paragraph
        /// A list item at a nesting level (1 for a top-level list).
        case listItem(level: Int)
        /// Preformatted text: spaces kept, lines broken only at `"\n"` and where they overflow.
        case preformatted
    }

    /// How the block is laid out.
    package var kind: Kind
    /// The block's text in runs of one style.
    package var runs: [TextRun]

    /// Creates a block.
    package init(kind: Kind, runs: [TextRun]) {
        self.kind = kind
        self.runs = runs
    }

    /// The block's text without styles.
    package var plainText: String { runs.map(\.text).joined() }
}

/// Turns safe HTML into the blocks of text the browser would lay out, with whitespace collapsed
/// as CSS `white-space: normal` does.
package enum TextBlocks {
    /// The blocks of `html`.
    package static func blocks(fromHTML html: String) -> [TextBlock] {
        blocks(from: HTMLParser.parseFragment(html))
    }

    /// The blocks of a parsed HTML fragment.
    package static func blocks(from nodes: [HTMLNode]) -> [TextBlock] {
        var builder = TextBlockBuilder()
        walk(nodes, style: TextBlockBuilder.Style(), into: &builder)
        return builder.finish()
    }

    private static func walk(_ nodes: [HTMLNode], style: TextBlockBuilder.Style, into builder: inout TextBlockBuilder) {
        for node in nodes {
            switch node {
            case .text(let text):
                builder.append(text.utf8, style)
            case .element(let name, _, let children):
                builder.element(name, style) { builder, style in walk(children, style: style, into: &builder) }
            }
        }
    }

    /// The plain text of `html`, blocks separated by a space, whitespace collapsed.
    package static func plainText(fromHTML html: String) -> String {
        plainText(of: blocks(fromHTML: html))
    }

    /// The plain text of `blocks`, separated by a space.
    package static func plainText(of blocks: [TextBlock]) -> String {
        blocks.map { $0.plainText.replacingOccurrences(of: "\n", with: " ") }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
