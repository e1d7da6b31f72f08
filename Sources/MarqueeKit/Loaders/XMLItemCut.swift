import Foundation

/// A prepared XML feed (``XMLTree/prepared(_:display:)``) cut at its items, so that the items
/// can be parsed on every core, and those whose bytes the last build read taken from the memo.
///
/// The items are the elements named `item` or `entry` (without a prefix) that are children of
/// the root or of one of its children: where RSS 2.0 (`rss` › `channel` › `item`), RSS 1.0
/// (`rdf:RDF` › `item`) and Atom (`feed` › `entry`) keep them. The skeleton is the document with
/// each of them emptied but for ``marker`` and its number, so that its parse is the document's
/// tree with stand-ins; which of them are items of the feed is still decided by the format's
/// parser, with the namespaces libxml2 resolved. Items side by side with the same start tag
/// (most of a feed's), with nothing but white space between them, share one stand-in: its parse
/// is one element however many items a feed holds. A document the scanner is not sure of
/// (a doctype, an unclosed comment or tag, nesting near the limit) is not cut, and is parsed
/// whole.
struct XMLItemCut: Sendable {
    /// The document with each run of items replaced by one stand-in: the first item's start and
    /// end tags around ``standInPrefix`` and the items' numbers (`7`, or `7-42` for a run).
    let skeleton: Data
    /// The bytes of each item element (start tag to end tag) in ``document``, in order.
    let pieces: [Range<Int>]
    /// The ``FeedFrame`` of the bytes outside the items.
    let frameDigest: UInt64
    /// The namespace declarations (` xmlns="…"`, ` xmlns:media="…"`) in scope around the items,
    /// for a wrapper under which items parsed apart resolve their names as in the document.
    let declarations: [UInt8]
    /// The prepared document.
    let document: Data

    /// Starts a stand-in's text, which the numbers follow: a private-use character and a number
    /// drawn for this cut. A document cannot know it, so none of its own elements is taken for a
    /// stand-in (one whose text claimed every item's numbers would otherwise stand for all of
    /// them, as often as the document repeats it).
    let standInPrefix: String

    /// Cuts `document`; nil when it has no items or is not cut (it is then parsed whole).
    init?(_ document: Data) {
        let prefix = "\u{E000}" + String(UInt64.random(in: .min ... .max), radix: 36) + ":"
        guard let scan = document.withUnsafeBytes({ Self.scan($0.bindMemory(to: UInt8.self), standInPrefix: Array(prefix.utf8)) }),
              !scan.pieces.isEmpty
        else { return nil }
        standInPrefix = prefix
        skeleton = Data(scan.skeleton)
        pieces = scan.pieces
        frameDigest = scan.frame
        declarations = scan.declarations
        self.document = document
    }

    /// The numbers of the items a stand-in of the skeleton's tree stands for; nil for any other
    /// element.
    func numbers(ofStandIn element: XMLTreeElement) -> ClosedRange<Int>? {
        guard element.content.count == 1, case .text(let text) = element.content[0], text.hasPrefix(standInPrefix) else { return nil }
        let numbers = text.dropFirst(standInPrefix.count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let first = Int(numbers[0]), let last = numbers.count == 2 ? Int(numbers[1]) : first, first <= last else { return nil }
        return first...last
    }

    /// The item elements at `numbers`, parsed together under a wrapper with ``declarations``;
    /// nil when they do not parse so (the document is then parsed whole, for its exact error).
    func elements(_ numbers: some Collection<Int>) -> [XMLTreeElement]? {
        var wrapped = Array("<marquee-items".utf8) + declarations + Array(">".utf8)
        document.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            for number in numbers { wrapped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pieces[number]])) }
        }
        wrapped += Array("</marquee-items>".utf8)
        guard let wrapper = try? XMLTree.parse(prepared: Data(wrapped), display: ""), wrapper.children.count == numbers.count else { return nil }
        return wrapper.children
    }

    private static let itemNames = [Array("item".utf8), Array("entry".utf8)]

    private static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, standInPrefix: [UInt8]
    ) -> (skeleton: [UInt8], pieces: [Range<Int>], declarations: [UInt8], frame: UInt64)? {
        var skeleton: [UInt8] = [], pieces: [Range<Int>] = []
        var frame = FeedFrame()
        var declarations: [UInt8]?
        // Bytes before `copied` are in the skeleton (and the frame's digest) or in a piece.
        var copied = 0
        // The open elements' start tags, and the item being read (its start, its parent's depth).
        var open: [Range<Int>] = []
        var item: (start: Int, depth: Int)?
        // The declarations in scope of the last item's parent tags: every item of a feed usually
        // has the same parents, whose attributes were read again for each (4 % of a rebuild of a
        // 10,000-item feed).
        var scope: (tags: [Range<Int>], declarations: [UInt8])?
        // The items whose stand-in is still to be written: their start and end tags (the first
        // item's) and their numbers.
        var run: (start: Range<Int>, end: Range<Int>, numbers: ClosedRange<Int>)?
        func writeRun() {
            guard let current = run else { return }
            skeleton += UnsafeBufferPointer(rebasing: bytes[current.start])
            skeleton += standInPrefix
            skeleton += String(current.numbers.lowerBound).utf8
            if current.numbers.count > 1 { skeleton += "-\(current.numbers.upperBound)".utf8 }
            skeleton += UnsafeBufferPointer(rebasing: bytes[current.end])
            run = nil
        }
        var index = 0
        while let tag = bytes.position(of: UInt8(ascii: "<"), from: index) {
            guard tag + 1 < bytes.count else { return nil }
            if bytes[tag + 1] == UInt8(ascii: "!") {
                // A comment or a CDATA section is skipped whole; anything else (a doctype) is not cut.
                guard let section = [XMLTree.comment, XMLTree.cdata].first(where: { bytes.hasPrefix($0.open, at: tag) }),
                      let close = bytes.position(of: section.close, from: tag + section.open.count)
                else { return nil }
                index = close + section.close.count
                continue
            }
            guard bytes[tag + 1] != UInt8(ascii: "?"), let end = tagEnd(bytes, from: tag + 1) else { return nil }
            index = end + 1
            if bytes[tag + 1] == UInt8(ascii: "/") {
                guard let start = open.popLast() else { return nil }
                guard let current = item, open.count == current.depth else { continue }
                // The item ends: it joins the run before it when only white space is between them
                // and its tags are the run's, or starts a run of its own.
                let outside = UnsafeBufferPointer(rebasing: bytes[copied..<current.start])
                let endTag = tag..<end + 1
                if let last = run, outside.allSatisfy(\.isBlank), bytes[last.start].elementsEqual(bytes[start]),
                   bytes[last.end].elementsEqual(bytes[endTag]) {
                    run?.numbers = last.numbers.lowerBound...pieces.count
                } else {
                    writeRun()
                    skeleton += outside
                    frame.add(outside)
                    run = (start, endTag, pieces.count...pieces.count)
                }
                pieces.append(current.start..<end + 1)
                copied = end + 1
                item = nil
                continue
            }
            if bytes[end - 1] == UInt8(ascii: "/") { continue }
            if item == nil, open.count == 1 || open.count == 2, itemNames.contains(where: { name(at: tag + 1, in: bytes).elementsEqual($0) }) {
                let inScope: [UInt8]
                if let scope, scope.tags == open {
                    inScope = scope.declarations
                } else {
                    guard let found = namespaceDeclarations(of: open, in: bytes) else { return nil }
                    (scope, inScope) = ((open, found), found)
                }
                // Items are parsed apart under one set of declarations: an item under others (an
                // `item` beside RSS's channel, say) stays in the skeleton whole.
                if declarations == nil { declarations = inScope }
                if declarations == inScope { item = (tag, open.count) }
            }
            open.append(tag..<end + 1)
            guard open.count < XMLTree.maximumDepth - 2 else { return nil }
        }
        guard open.isEmpty, item == nil else { return nil }
        writeRun()
        let rest = UnsafeBufferPointer(rebasing: bytes[copied...])
        skeleton += rest
        frame.add(rest)
        return (skeleton, pieces, declarations ?? [], frame.digest)
    }

    /// The `>` ending the tag whose name starts at `start`, quoted attribute values skipped.
    private static func tagEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: ">"): return index
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let close = bytes.position(of: bytes[index], from: index + 1) else { return nil }
                index = close + 1
            default: index += 1
            }
        }
        return nil
    }

    private static func isNameEnd(_ byte: UInt8) -> Bool {
        byte.isBlank || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "=")
    }

    /// The name starting at `start` (a tag's or an attribute's).
    private static func name(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var end = start
        while end < bytes.count, !isNameEnd(bytes[end]) { end += 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// The `xmlns` attributes of the start tags `tags` (outermost first), an inner declaration
    /// of a name replacing an outer one, each as ` name="value"`; nil when a tag cannot be read.
    private static func namespaceDeclarations(of tags: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var declared: [(name: [UInt8], attribute: [UInt8])] = []
        for tag in tags {
            // After the element's name: ` name = "value"` pairs up to `>` or `/>`.
            var index = tag.lowerBound + 1 + name(at: tag.lowerBound + 1, in: bytes).count
            while true {
                while index < tag.upperBound, bytes[index].isBlank { index += 1 }
                guard index < tag.upperBound - 1, bytes[index] != UInt8(ascii: "/") else { break }
                let attribute = Array(name(at: index, in: bytes))
                guard !attribute.isEmpty else { return nil }
                index += attribute.count
                while index < tag.upperBound, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "'") { index += 1 }
                guard index < tag.upperBound, let close = bytes.position(of: bytes[index], from: index + 1), close < tag.upperBound else { return nil }
                let value = Array(UnsafeBufferPointer(rebasing: bytes[index...close]))
                index = close + 1
                guard attribute == Array("xmlns".utf8) || attribute.starts(with: Array("xmlns:".utf8)) else { continue }
                declared.removeAll { $0.name == attribute }
                declared.append((attribute, Array(" ".utf8) + attribute + Array("=".utf8) + value))
            }
        }
        return declared.flatMap(\.attribute)
    }
}
