import Foundation

/// Where the values of a JSON document are, found without parsing them: the boundaries of the
/// elements of a list, and of the members of an object.
///
/// It only follows strings (to their closing quote) and brackets, so it is much quicker than
/// parsing, and it checks nothing inside the values it skips: a caller either parses what it
/// finds with ``JSONParser``, or knows the bytes are those of a value parsed before.
enum JSONLayout {
    /// The ranges of the elements of the array under `key` in a document that is exactly an
    /// object with that one member (`{"movies": [{…}, {…}]}`, with any blanks and a byte-order
    /// mark), each element an object; nil for any other shape, or bytes that end too early.
    ///
    /// `found` sees each element's range as soon as it is found, while its bytes are still in the
    /// processor's cache (a caller hashing every element spared a second trip to memory).
    static func objectElements(
        ofArrayUnder key: String, in bytes: [UInt8], found: (Range<Int>) -> Void = { _ in }
    ) -> [Range<Int>]? {
        var scanner = Scanner(bytes: bytes[...])
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
        guard scanner.take(UInt8(ascii: "{")), scanner.takeString(equalTo: key), scanner.take(UInt8(ascii: ":")),
              scanner.take(UInt8(ascii: "["))
        else { return nil }
        var elements: [Range<Int>] = []
        if !scanner.take(UInt8(ascii: "]")) {
            while true {
                scanner.skipBlanks()
                guard scanner.peek == UInt8(ascii: "{"), let end = scanner.endOfValue(from: scanner.index) else { return nil }
                elements.append(scanner.index..<end)
                found(scanner.index..<end)
                scanner.index = end
                if scanner.take(UInt8(ascii: ",")) { continue }
                guard scanner.take(UInt8(ascii: "]")) else { return nil }
                break
            }
        }
        guard scanner.take(UInt8(ascii: "}")) else { return nil }
        scanner.skipBlanks()
        return scanner.index == bytes.count ? elements : nil
    }

    /// The members of the object that spans `range` of `bytes`, in order: where each key's
    /// string starts (its opening quote) and where its value is. Nil when the range is not an
    /// object as far as strings and brackets tell.
    static func members(ofObjectIn range: Range<Int>, of bytes: [UInt8]) -> [(key: Int, value: Range<Int>)]? {
        var scanner = Scanner(bytes: bytes[..<range.upperBound])
        scanner.index = range.lowerBound
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        var members: [(key: Int, value: Range<Int>)] = []
        if scanner.take(UInt8(ascii: "}")) { return scanner.index == range.upperBound ? members : nil }
        while true {
            scanner.skipBlanks()
            let key = scanner.index
            guard scanner.peek == UInt8(ascii: "\""), let keyEnd = scanner.endOfValue(from: key) else { return nil }
            scanner.index = keyEnd
            guard scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipBlanks()
            guard let valueEnd = scanner.endOfValue(from: scanner.index) else { return nil }
            members.append((key, scanner.index..<valueEnd))
            scanner.index = valueEnd
            if scanner.take(UInt8(ascii: ",")) { continue }
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
            return scanner.index == range.upperBound ? members : nil
        }
    }

    private struct Scanner {
        /// The document from its start, up to where the scan must end.
        let bytes: ArraySlice<UInt8>
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipBlanks() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        /// Skips blanks, then `byte` if it is next (true), or nothing.
        mutating func take(_ byte: UInt8) -> Bool {
            skipBlanks()
            guard peek == byte else { return false }
            index += 1
            return true
        }

        /// Skips blanks, then a string written exactly as `text` in quotes, without escapes.
        mutating func takeString(equalTo text: String) -> Bool {
            skipBlanks()
            let written = [UInt8(ascii: "\"")] + Array(text.utf8) + [UInt8(ascii: "\"")]
            guard bytes.count - index >= written.count, bytes[index..<index + written.count].elementsEqual(written) else { return false }
            index += written.count
            return true
        }

        /// Where the value starting at `start` ends (just past it): a string's closing quote, the
        /// bracket closing an object or array, or the end of a number or word. Nil when the bytes
        /// end first.
        func endOfValue(from start: Int) -> Int? {
            guard start < bytes.count else { return nil }
            switch bytes[start] {
            case UInt8(ascii: "\""):
                return endOfString(from: start)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0, position = start
                while position < bytes.count {
                    switch bytes[position] {
                    case UInt8(ascii: "\""):
                        guard let end = endOfString(from: position) else { return nil }
                        position = end
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { return position + 1 }
                    default:
                        break
                    }
                    position += 1
                }
                return nil
            default:
                // A number, true, false or null: up to the next delimiter.
                var position = start
                while position < bytes.count {
                    switch bytes[position] {
                    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return position
                    default: position += 1
                    }
                }
                return position
            }
        }

        /// Just past the quote closing the string that opens at `start`; a quote after a
        /// backslash is skipped.
        private func endOfString(from start: Int) -> Int? {
            let span = bytes.span
            var position = start + 1
            while position < bytes.count {
                guard let quote = span.position(of: UInt8(ascii: "\""), from: position) else { return nil }
                // Escaped when an odd number of backslashes stands right before it.
                var backslashes = 0
                while quote - backslashes - 1 > start, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
                if backslashes % 2 == 0 { return quote + 1 }
                position = quote + 1
            }
            return nil
        }
    }
}

/// A string value of a JSON document, still in the document's bytes: decoded each time it is read.
struct JSONText: Sendable {
    /// The whole document.
    let document: [UInt8]
    /// Where the string's opening quote is.
    let offset: Int

    /// The string; "" if the bytes at `offset` are not one (never, for a value found in a
    /// document that parsed).
    var decoded: String {
        JSONParser.string(at: offset, in: document) ?? ""
    }
}
