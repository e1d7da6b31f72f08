/// A run of text in one style, as the layout engine measures it.
public struct TextRun: Sendable, Equatable {
    /// The text; `"\n"` is a forced line break.
    public var text: String
    /// True for bold text (`strong`, `b`, headings), measured with the bold face.
    public var bold: Bool

    /// Creates a run.
    public init(_ text: String, bold: Bool = false) {
        self.text = text
        self.bold = bold
    }
}

/// One block of a description (a paragraph, a list item, preformatted text), with its runs.
/// `"\n"` inside a run is a forced line break.
public struct TextBlock: Sendable, Equatable {
    /// How a block is laid out.
    public enum Kind: Sendable, Equatable {
        case paragraph
        /// A list item at a nesting level (1 for a top-level list).
        case listItem(level: Int)
        /// Preformatted text: spaces kept, lines broken only at `"\n"` and where they overflow.
        case preformatted
    }

    /// How the block is laid out.
    public var kind: Kind
    /// The block's text in runs of one style.
    public var runs: [TextRun]

    /// Creates a block.
    public init(kind: Kind, runs: [TextRun]) {
        self.kind = kind
        self.runs = runs
    }

    /// The block's text without styles.
    public var plainText: String { runs.map(\.text).joined() }
}

/// Turns safe HTML into the blocks of text the browser would lay out, with whitespace collapsed
/// as CSS `white-space: normal` does.
public enum TextBlocks {
    static let blockElements: Set<String> = [
        "p", "div", "blockquote", "ul", "ol", "li", "dl", "dt", "dd", "pre", "table", "tr", "figure",
        "figcaption", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "caption", "thead", "tbody", "tfoot",
    ]

    /// The blocks of `html`.
    public static func blocks(fromHTML html: String) -> [TextBlock] {
        blocks(from: HTMLParser.parseFragment(html))
    }

    /// The blocks of a parsed HTML fragment.
    public static func blocks(from nodes: [HTMLNode]) -> [TextBlock] {
        var builder = Builder()
        builder.walk(nodes, bold: false, listLevel: 0, preformatted: false)
        builder.finishBlock()
        return builder.blocks
    }

    /// The plain text of `html`, blocks separated by a space, whitespace collapsed.
    public static func plainText(fromHTML html: String) -> String {
        plainText(of: blocks(fromHTML: html))
    }

    /// The plain text of `blocks`, separated by a space.
    public static func plainText(of blocks: [TextBlock]) -> String {
        blocks.map { $0.plainText.replacingOccurrences(of: "\n", with: " ") }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    private struct Builder {
        var blocks: [TextBlock] = []
        var runs: [TextRun] = []
        var kind: TextBlock.Kind = .paragraph
        var lastWasSpace = true

        mutating func walk(_ nodes: [HTMLNode], bold: Bool, listLevel: Int, preformatted: Bool) {
            for node in nodes {
                switch node {
                case .text(let text):
                    append(text, bold: bold, preformatted: preformatted)
                case .element(let name, _, let children):
                    switch name {
                    case "br":
                        appendRaw("\n", bold: bold)
                        lastWasSpace = true
                    case "img", "script", "style":
                        continue
                    case "li":
                        finishBlock()
                        kind = .listItem(level: max(1, listLevel))
                        walk(children, bold: bold, listLevel: listLevel, preformatted: preformatted)
                        finishBlock()
                    case "ul", "ol":
                        finishBlock()
                        walk(children, bold: bold, listLevel: listLevel + 1, preformatted: preformatted)
                        finishBlock()
                    case "pre":
                        finishBlock()
                        kind = .preformatted
                        walk(children, bold: bold, listLevel: listLevel, preformatted: true)
                        finishBlock()
                    default:
                        let isBlock = blockElements.contains(name)
                        if isBlock {
                            finishBlock()
                            // A paragraph inside a list item (a "loose" list) keeps the item's indent.
                            if listLevel > 0 { kind = .listItem(level: listLevel) }
                        }
                        let isBold = bold || name == "strong" || name == "b" || name == "th" || name.first == "h" && name.count == 2
                        walk(children, bold: isBold, listLevel: listLevel, preformatted: preformatted)
                        if isBlock { finishBlock() }
                    }
                }
            }
        }

        mutating func append(_ text: String, bold: Bool, preformatted: Bool) {
            if preformatted {
                appendRaw(text, bold: bold)
                return
            }
            // Byte by byte: the collapsible characters are all ASCII, so UTF-8 sequences pass intact.
            var collapsed: [UInt8] = []
            collapsed.reserveCapacity(text.utf8.count)
            for byte in text.utf8 {
                if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C {
                    if !lastWasSpace { collapsed.append(0x20) }
                    lastWasSpace = true
                } else {
                    collapsed.append(byte)
                    lastWasSpace = false
                }
            }
            appendRaw(String(decoding: collapsed, as: UTF8.self), bold: bold)
        }

        mutating func appendRaw(_ text: String, bold: Bool) {
            guard !text.isEmpty else { return }
            if let last = runs.last, last.bold == bold {
                runs[runs.count - 1].text += text
            } else {
                runs.append(TextRun(text, bold: bold))
            }
        }

        mutating func finishBlock() {
            // Trim the trailing collapsible space, as the browser hangs it at the line end.
            while let last = runs.last, kind != .preformatted, last.text.hasSuffix(" ") || last.text.hasSuffix("\n") {
                runs[runs.count - 1].text.removeLast()
                if runs[runs.count - 1].text.isEmpty { runs.removeLast() }
            }
            if kind == .preformatted, let last = runs.last, last.text.hasSuffix("\n") {
                runs[runs.count - 1].text.removeLast()
            }
            if !runs.isEmpty { blocks.append(TextBlock(kind: kind, runs: runs)) }
            runs = []
            kind = .paragraph
            lastWasSpace = true
        }
    }
}
