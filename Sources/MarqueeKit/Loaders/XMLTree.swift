import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element with its namespace URI, attributes and content, built by ``XMLTree/parse(_:display:)``.
package struct XMLTreeElement: Sendable {
    /// The local name (`thumbnail` for `media:thumbnail`).
    package let name: String
    /// The namespace URI the element's prefix is bound to ("" for none).
    package let namespace: String
    /// Attributes by qualified name as written (`url`, `xml:base`).
    package let attributes: [String: String]
    /// Child elements and text, in document order.
    package fileprivate(set) var content: [XMLContent] = []
    /// Child elements, in document order (the elements of ``content``, kept apart as the parse
    /// makes them: feed parsers look children up a dozen times per item). Copies share the
    /// elements' storage.
    package fileprivate(set) var children: [XMLTreeElement] = []
    /// 1-based line of the start tag, for error messages.
    package let line: Int

    init(name: String, namespace: String, attributes: [String: String], line: Int) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.line = line
    }

    /// The first child with this local name and namespace.
    package func child(_ name: String, _ namespace: String) -> XMLTreeElement? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    /// Every child with this local name and namespace.
    package func children(_ name: String, _ namespace: String) -> [XMLTreeElement] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }

    /// All text inside the element, descendants included.
    package var text: String {
        var result = ""
        for part in content {
            switch part {
            case .text(let text): result += text
            case .element(let element): result += element.text
            }
        }
        return result
    }

    /// The text, trimmed of surrounding whitespace.
    package var trimmedText: String { text.trimmed() }
}

/// A part of an element's content.
package enum XMLContent: Sendable {
    case element(XMLTreeElement)
    case text(String)
}

/// Parses XML safely with Foundation's `XMLParser` (libxml2): no DTD-declared entities at all
/// (refused before parsing, which stops both entity-expansion bombs and external entities that
/// would read local files), bounded nesting, and errors with line and column.
package enum XMLTree {
    /// Elements nested deeper than this are refused.
    package static let maximumDepth = 128

    /// Parses a whole document and returns its root element. libxml2 is given the document
    /// refused if it declares entities, in UTF-8 without a declaration or processing
    /// instructions, and with HTML's named entities made numeric.
    package static func parse(_ data: Data, display: String) throws(BuildError) -> XMLTreeElement {
        try refuseEntityDeclarations(data, display: display)
        let prepared = HTMLEntities.replaceNamedEntities(in: try transcodedToUTF8(data, display: display))
        let parser = XMLParser(data: prepared)
        let collector = Collector()
        parser.delegate = collector
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        let finished = parser.parse()
        if let abort = collector.abortReason {
            throw BuildError(file: display, place: .lineColumn(line: collector.abortLine, column: 1), abort)
        }
        if !finished || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code ?? -1
            let line = max(parser.lineNumber, 1)
            // libxml2 stops at a character XML forbids with whatever error the stop leads to
            // (inside CDATA: "not closed"), so such a character is looked for and named first.
            if let forbidden = firstForbiddenCharacter(in: prepared), forbidden.line <= line {
                throw BuildError(
                    file: display, place: .lineColumn(line: forbidden.line, column: forbidden.column),
                    "a control character (U+00\(forbidden.value < 0x10 ? "0" : "")\(String(forbidden.value, radix: 16, uppercase: true))) that XML does not allow; the feed's publisher must remove it.")
            }
            let message = code == 4 && prepared.contains(where: { $0 > 0x20 }) ? "this is not XML; expected a feed (RSS, Atom or JSON Feed)" : describe(code)
            throw BuildError(file: display, place: .lineColumn(line: line, column: max(parser.columnNumber, 1)), message + ".")
        }
        if !collector.stack.isEmpty {
            // libxml2 on Linux reports success for some truncated documents: check the end ourselves.
            throw BuildError(
                file: display, place: .lineColumn(line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1)),
                "the document ends before <\(collector.stack.last!.name)> (opened on line \(collector.stack.last!.line)) is closed; the file is truncated.")
        }
        guard let root = collector.root else {
            throw BuildError(file: display, place: .lineColumn(line: 1, column: 1), "the file holds no XML element; expected a feed.")
        }
        return root
    }

    /// The document as valid UTF-8 with no encoding declaration, whatever it came in: a BOM or
    /// the leading `<?xml … encoding="…"?>` picks the decoder (UTF-8, UTF-16, ISO-8859-1,
    /// windows-1252, ASCII), and invalid UTF-8 becomes U+FFFD as browsers do. libxml2 then only
    /// ever sees valid UTF-8: FoundationXML traps on element names that are not (found by
    /// fuzzing: a broken declaration followed by a Latin-1 byte in a tag name).
    static func transcodedToUTF8(_ data: Data, display: String) throws(BuildError) -> Data {
        var bytes = data[...]
        var encoding: String.Encoding?
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes = bytes.dropFirst(3)
            encoding = .utf8
        } else if bytes.starts(with: [0xFF, 0xFE]) {
            encoding = .utf16LittleEndian
            bytes = bytes.dropFirst(2)
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            encoding = .utf16BigEndian
            bytes = bytes.dropFirst(2)
        }
        if encoding == nil, bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")) {
            if let name = declaredEncoding(bytes[bytes.startIndex...end]) {
                switch name {
                case "utf-8", "utf8": encoding = .utf8
                case "iso-8859-1", "latin1", "latin-1", "iso8859-1": encoding = .isoLatin1
                case "windows-1252", "cp1252": encoding = .windowsCP1252
                case "us-ascii", "ascii": encoding = .utf8
                case "utf-16": encoding = .utf16
                default:
                    throw BuildError(file: display, place: .lineColumn(line: 1, column: 1), "the declared encoding \"\(name)\" is not supported; serve the feed as UTF-8.")
                }
            }
        }
        // Valid UTF-8 (most feeds) is used as it is, checked in place: decoding it into a string
        // and copying that out again were two fresh copies of a large feed.
        if encoding ?? .utf8 == .utf8, (try? UTF8Span(validating: bytes.span)) != nil {
            return withoutDeclaration(bytes.span)
        }
        var text: String
        switch encoding ?? .utf8 {
        case .utf8:
            text = String(decoding: bytes, as: UTF8.self)
        case let other:
            guard let decoded = String(data: Data(bytes), encoding: other) else {
                throw BuildError(file: display, place: .lineColumn(line: 1, column: 1), "the bytes do not match the declared encoding.")
            }
            text = decoded
        }
        return withoutDeclaration(text.utf8.span)
    }

    /// The encoding an XML declaration names, in ASCII lower case: the first `encoding` followed
    /// by `=` and a quoted name of letters, digits, `.`, `_` and `-`, blanks allowed around the
    /// `=`. Nil when there is none. (Read by bytes rather than with a regular expression, which
    /// would be compiled again for every feed.)
    static func declaredEncoding(_ declaration: some Collection<UInt8>) -> String? {
        let bytes = declaration.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        func isQuote(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") }
        func isNameByte(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        let key = Array("encoding".utf8)
        var start = 0
        while let found = bytes.span.position(of: key, from: start) {
            start = found + 1
            var index = found + key.count
            while index < bytes.count, bytes[index].isBlank { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < bytes.count, bytes[index].isBlank { index += 1 }
            guard index < bytes.count, isQuote(bytes[index]) else { continue }
            let nameStart = index + 1
            index = nameStart
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            guard index > nameStart, index < bytes.count, isQuote(bytes[index]) else { continue }
            return String(decoding: bytes[nameStart..<index], as: UTF8.self)
        }
        return nil
    }

    /// Valid UTF-8 without its XML declaration (which may name the encoding it came in; without
    /// one, XML is UTF-8) and without processing instructions, copied once.
    private static func withoutDeclaration(_ utf8: Span<UInt8>) -> Data {
        var start = 0
        if utf8.hasPrefix(Array("<?xml".utf8), at: 0), let end = utf8.position(of: UInt8(ascii: ">"), from: 0) {
            start = end + 1
        }
        let body = utf8.extracting(start...)
        var copy: [UInt8] = []
        if !removingProcessingInstructions(body, into: &copy) { copy.append(body) }
        return Data(copy)
    }

    /// The document without processing instructions (`<?xml-stylesheet …?>` and the like), their
    /// line breaks kept so that error positions stay right. Feeds have no use for them, and
    /// FoundationXML crashes on one without data (`<?x?>` reaches its callback as a NULL string;
    /// found by fuzzing). Comments and CDATA sections are copied untouched.
    static func removingProcessingInstructions(_ input: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        return removingProcessingInstructions(input.span, into: &result) ? result : input
    }

    /// Appends ``removingProcessingInstructions(_:)`` of `bytes` to `result`; false, with nothing
    /// appended, when they hold none.
    private static func removingProcessingInstructions(_ bytes: Span<UInt8>, into result: inout [UInt8]) -> Bool {
        guard bytes.position(of: instructionMarkers.open, from: 0) != nil else { return false }
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            // Everything before the next `<` is copied as it is.
            let next = bytes.position(of: UInt8(ascii: "<"), from: index) ?? bytes.count
            result.append(bytes.extracting(index..<next))
            index = next
            guard index < bytes.count else { break }
            if bytes.hasPrefix(instructionMarkers.open, at: index) {
                let end = bytes.position(of: instructionMarkers.close, from: index + 2).map { $0 + 2 } ?? bytes.count
                for offset in index..<end where bytes[offset] == 0x0A { result.append(0x0A) }
                index = end
            } else if let (opening, closing) = copiedSections.first(where: { bytes.hasPrefix($0.open, at: index) }) {
                let end = bytes.position(of: closing, from: index + opening.count).map { $0 + closing.count } ?? bytes.count
                let section = bytes.extracting(index..<end)
                if holdsCharacterXMLForbids(section) {
                    // libxml2, recovering from errors as FoundationXML asks it to, ends such a
                    // section at the character and reads on: an instruction after it would reach
                    // FoundationXML (found by fuzzing: `<!--\u{12}<?x?>-->`). It is read as text.
                    result += opening
                    index += opening.count
                } else {
                    result.append(section)
                    index = end
                }
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return true
    }

    /// Whether `bytes` (valid UTF-8) hold a character XML 1.0 does not allow: a control
    /// character other than tab, line feed and carriage return, or U+FFFE or U+FFFF.
    static func holdsCharacterXMLForbids(_ bytes: Span<UInt8>) -> Bool {
        for index in bytes.indices {
            let byte = bytes[index]
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { return true }
            if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE { return true }
        }
        return false
    }

    private static let instructionMarkers = (open: Array("<?".utf8), close: Array("?>".utf8))
    /// How comments and CDATA sections open and close: what the readers of a document's bytes
    /// (entities, instructions, the item cut) leave as it is.
    static let comment = (open: Array("<!--".utf8), close: Array("-->".utf8))
    static let cdata = (open: Array("<![CDATA[".utf8), close: Array("]]>".utf8))
    private static let copiedSections = [comment, cdata]

    /// Refuses a document whose first MiB (its prolog, where a DTD goes) holds `<!ENTITY`.
    private static func refuseEntityDeclarations(_ data: Data, display: String) throws(BuildError) {
        // Found from its `!`: every tag starts with `<`, few bytes are `!`.
        let marker = Array("!ENTITY".utf8)
        let prolog = data.prefix(1 << 20)
        let bytes = prolog.span
        var line: Int?
        var from = 1
        while let found = bytes.position(of: marker, from: from) {
            if bytes[found - 1] == UInt8(ascii: "<") {
                line = 1 + prolog.prefix(found).count { $0 == 0x0A }
                break
            }
            from = found + 1
        }
        if let line {
            throw BuildError(
                file: display, place: .lineColumn(line: line, column: 1),
                "the document declares entities (<!ENTITY …>), which feeds never need and which can expand without bound or read local files; it is refused.")
        }
    }

    /// The line, column (in bytes, from 1) and value of the first C0 control character other
    /// than tab, newline and carriage return in UTF-8 `data`.
    static func firstForbiddenCharacter(in data: Data) -> (line: Int, column: Int, value: UInt8)? {
        var line = 1, lineStart = 0
        for (offset, byte) in data.enumerated() {
            if byte == 0x0A {
                line += 1
                lineStart = offset + 1
            } else if byte < 0x20 && byte != 0x09 && byte != 0x0D {
                return (line, offset - lineStart + 1, byte)
            }
        }
        return nil
    }

    /// libxml2's error numbers (Foundation passes them through as the error code).
    private static func describe(_ code: Int) -> String {
        switch code {
        case 3: return "no XML document starts here; expected a feed"
        case 4: return "the file is empty; expected a feed"
        case 5, 77: return "the document ends before its elements are closed; the file is truncated"
        case 9: return "an invalid character for XML"
        case 26, 27: return "an undeclared entity reference (&…;)"
        case 31, 32: return "the declared encoding is not supported; save the feed as UTF-8"
        case 38, 39, 40, 41, 42: return "a malformed attribute"
        case 68, 73, 74: return "a tag is not closed properly"
        case 76: return "a closing tag does not match the open element"
        default: return "malformed XML (libxml2 error \(code))"
        }
    }

    /// Builds the tree as the parser reports it: an element is complete, and added to its
    /// parent, when it ends.
    private final class Collector: NSObject, XMLParserDelegate {
        var root: XMLTreeElement?
        /// The elements started and not yet ended, outermost first.
        var stack: [XMLTreeElement] = []
        var abortReason: String?
        var abortLine = 1

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            stack.append(XMLTreeElement(name: elementName, namespace: namespaceURI ?? "", attributes: attributes, line: parser.lineNumber))
            if stack.count > XMLTree.maximumDepth {
                abortReason = "elements are nested more than \(XMLTree.maximumDepth) deep; the document is refused."
                abortLine = parser.lineNumber
                parser.abortParsing()
            }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty {
                if root == nil { root = element }
            } else {
                stack[stack.count - 1].content.append(.element(element))
                stack[stack.count - 1].children.append(element)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            append(string)
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            append(String(decoding: CDATABlock, as: UTF8.self))
        }

        func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
            nil
        }

        private func append(_ text: String) {
            guard !stack.isEmpty else { return }
            let current = stack.count - 1
            if case .text(let previous)? = stack[current].content.last {
                stack[current].content[stack[current].content.count - 1] = .text(previous + text)
            } else {
                stack[current].content.append(.text(text))
            }
        }
    }
}
