/// Collects the blocks of text that a browser lays out, from elements and text handed to it in
/// document order: by ``TextBlocks`` from parsed HTML, and by ``MarkdownTree`` straight from
/// cmark's tree. One set of rules for both, so that Markdown and its HTML measure the same.
///
/// Whitespace collapses as CSS `white-space: normal` does, except in `pre`.
struct TextBlockBuilder {
    /// What the text inside an element inherits.
    struct Style {
        var bold = false
        var listLevel = 0
        var preformatted = false
    }

    static let blockElements: Set<String> = [
        "p", "div", "blockquote", "ul", "ol", "li", "dl", "dt", "dd", "pre", "table", "tr", "figure",
        "figcaption", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "caption", "thead", "tbody", "tfoot",
    ]

    private var blocks: [TextBlock] = []
    /// The text of the block being built, as UTF-8, and where each of its runs starts.
    private var bytes: [UInt8] = []
    private var runStarts: [(offset: Int, bold: Bool)] = []
    private var kind: TextBlock.Kind = .paragraph
    private var lastWasSpace = true

    /// How an element's content is laid out, which is all the builder needs of its name.
    enum Role {
        case lineBreak
        /// Not laid out as text (images, scripts, styles).
        case skipped
        case listItem
        case list
        case preformatted
        /// Any other element: a block or not, bold or not.
        case other(isBlock: Bool, isBold: Bool)

        /// The role of the element named `name` (lowercase).
        init(_ name: String) {
            switch name {
            case "br": self = .lineBreak
            case "img", "script", "style": self = .skipped
            case "li": self = .listItem
            case "ul", "ol": self = .list
            case "pre": self = .preformatted
            default:
                self = .other(
                    isBlock: TextBlockBuilder.blockElements.contains(name),
                    isBold: name == "strong" || name == "b" || name == "th" || name.first == "h" && name.utf8.count == 2)
            }
        }

        /// `p`, `blockquote`
        static let paragraph = Role.other(isBlock: true, isBold: false)
        /// `h1`…`h6`
        static let heading = Role.other(isBlock: true, isBold: true)
        /// `hr` (bold by the name rule, like the headings; it holds no text)
        static let thematicBreak = Role.other(isBlock: true, isBold: true)
        /// `strong`, `b`
        static let strong = Role.other(isBlock: false, isBold: true)
        /// `em`, `a`, `code` and other inline elements
        static let inline = Role.other(isBlock: false, isBold: false)
    }

    /// Takes an element named `name` (lowercase); `content` hands its children over, in the
    /// style they inherit.
    mutating func element(_ name: String, _ style: Style, content: (inout TextBlockBuilder, Style) -> Void) {
        element(Role(name), style, content: content)
    }

    /// Takes an element of a known role (cmark's nodes map to roles without naming them).
    mutating func element(_ role: Role, _ style: Style, content: (inout TextBlockBuilder, Style) -> Void) {
        var inner = style
        switch role {
        case .lineBreak:
            appendRaw("\n".utf8, bold: style.bold)
            lastWasSpace = true
        case .skipped:
            return
        case .listItem:
            finishBlock()
            kind = .listItem(level: max(1, style.listLevel))
            content(&self, style)
            finishBlock()
        case .list:
            finishBlock()
            inner.listLevel += 1
            content(&self, inner)
            finishBlock()
        case .preformatted:
            finishBlock()
            kind = .preformatted
            inner.preformatted = true
            content(&self, inner)
            finishBlock()
        case .other(let isBlock, let isBold):
            if isBlock {
                finishBlock()
                // A paragraph inside a list item (a "loose" list) keeps the item's indent.
                if style.listLevel > 0 { kind = .listItem(level: style.listLevel) }
            }
            inner.bold = style.bold || isBold
            content(&self, inner)
            if isBlock { finishBlock() }
        }
    }

    /// Takes text (valid UTF-8) in `style`.
    mutating func append(_ text: some Collection<UInt8>, _ style: Style) {
        guard !text.isEmpty else { return }
        if style.preformatted {
            appendRaw(text, bold: style.bold)
            return
        }
        startRun(bold: style.bold)
        // Most text has nothing to collapse: it is copied in one go.
        if Self.hasNothingToCollapse(text, afterSpace: lastWasSpace) {
            bytes.append(contentsOf: text)
            lastWasSpace = bytes.last == 0x20
            return
        }
        // Byte by byte: the collapsible characters are all ASCII, so UTF-8 sequences pass intact.
        bytes.reserveCapacity(bytes.count + text.count)
        for byte in text {
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C {
                if !lastWasSpace { bytes.append(0x20) }
                lastWasSpace = true
            } else {
                bytes.append(byte)
                lastWasSpace = false
            }
        }
    }

    /// True when collapsing whitespace leaves `text` as it is: its only whitespace is single
    /// spaces, and it does not start with one after a space. One pass without early exits, which
    /// the compiler turns into vector instructions.
    static func hasNothingToCollapse(_ text: some Collection<UInt8>, afterSpace: Bool) -> Bool {
        guard var previous = text.first else { return true }
        /// 1 for tab, line feed, form feed and carriage return.
        func otherWhitespace(_ byte: UInt8) -> UInt8 { (byte &- 0x09 < 5 ? 1 : 0) & (byte != 0x0B ? 1 : 0) }
        var found = otherWhitespace(previous) | (previous == 0x20 && afterSpace ? 1 : 0)
        for byte in text.dropFirst() {
            found |= otherWhitespace(byte) | ((byte == 0x20 ? 1 : 0) & (previous == 0x20 ? 1 : 0))
            previous = byte
        }
        return found == 0
    }

    /// The blocks, once every element and text has been handed over.
    mutating func finish() -> [TextBlock] {
        finishBlock()
        return blocks
    }

    private mutating func appendRaw(_ text: some Collection<UInt8>, bold: Bool) {
        guard !text.isEmpty else { return }
        startRun(bold: bold)
        bytes.append(contentsOf: text)
    }

    /// Starts a run unless the last one has the same style.
    private mutating func startRun(bold: Bool) {
        // A run that got no text gives way to the next.
        if let last = runStarts.last, last.offset == bytes.count { runStarts.removeLast() }
        if let last = runStarts.last, last.bold == bold { return }
        runStarts.append((bytes.count, bold))
    }

    private mutating func finishBlock() {
        // Trim the trailing collapsible space, as the browser hangs it at the line end. A
        // preformatted block loses its last line feed only; a run that held just that stays,
        // empty, so that the block still takes its line.
        var keepsEmptyLastRun = false
        if kind == .preformatted {
            if bytes.last == 0x0A {
                bytes.removeLast()
                keepsEmptyLastRun = true
            }
        } else {
            while let last = bytes.last, last == 0x20 || last == 0x0A { bytes.removeLast() }
        }
        var runs: [TextRun] = []
        runs.reserveCapacity(runStarts.count)
        for (index, start) in runStarts.enumerated() {
            let end = min(index + 1 < runStarts.count ? runStarts[index + 1].offset : bytes.count, bytes.count)
            guard start.offset < end || (keepsEmptyLastRun && index == runStarts.count - 1) else { continue }
            runs.append(TextRun(String(decoding: bytes[min(start.offset, end)..<end], as: UTF8.self), bold: start.bold))
        }
        if !runs.isEmpty { blocks.append(TextBlock(kind: kind, runs: runs)) }
        bytes.removeAll(keepingCapacity: true)
        runStarts.removeAll(keepingCapacity: true)
        kind = .paragraph
        lastWasSpace = true
    }
}
