import Foundation
import Testing
@testable import MarqueeKit

/// What a feed becomes before libxml2 reads it (HTML entities made numeric, processing
/// instructions removed) is now found with `memchr` and copied in runs; these are the readings
/// one byte at a time that they replaced, kept as the definition the fast ones must agree with.
enum ByteAtATimeXMLPreparation {
    static func replaceNamedEntities(in data: Data) -> Data {
        let bytes = [UInt8](data)
        guard bytes.contains(UInt8(ascii: "&")) else { return data }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        var index = 0
        let cdataOpen = Array("<![CDATA[".utf8), cdataClose = Array("]]>".utf8)
        let commentOpen = Array("<!--".utf8), commentClose = Array("-->".utf8)
        func starts(_ marker: [UInt8], at position: Int) -> Bool {
            position + marker.count <= bytes.count && bytes[position..<position + marker.count].elementsEqual(marker)
        }
        func copySection(until close: [UInt8]) {
            while index < bytes.count, !starts(close, at: index) {
                output.append(bytes[index])
                index += 1
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<"), starts(cdataOpen, at: index) {
                copySection(until: cdataClose)
                continue
            }
            if byte == UInt8(ascii: "<"), starts(commentOpen, at: index) {
                copySection(until: commentClose)
                continue
            }
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                index += 1
                continue
            }
            // Read a name: letters and digits up to ';'.
            var end = index + 1
            while end < bytes.count, end - index <= 32, (bytes[end] >= 0x30 && bytes[end] <= 0x39) || (bytes[end] | 0x20 >= 0x61 && bytes[end] | 0x20 <= 0x7A) {
                end += 1
            }
            let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
            let terminated = end < bytes.count && bytes[end] == UInt8(ascii: ";")
            if terminated, !name.isEmpty, !HTMLEntities.xmlEntities.contains(name), name.first?.isLetter == true {
                if let code = HTMLEntities.table[name] {
                    output.append(contentsOf: Array("&#\(code);".utf8))
                } else {
                    output.append(contentsOf: Array("&amp;\(name);".utf8))
                }
                index = end + 1
                continue
            }
            if !terminated || name.isEmpty {
                // A bare '&' (or '&#…'): keep numeric references, escape the rest.
                if end < bytes.count, bytes[index + 1] == UInt8(ascii: "#") {
                    output.append(byte)
                } else if terminated == false, HTMLEntities.xmlEntities.contains(name) == false {
                    output.append(contentsOf: Array("&amp;".utf8))
                    index += 1
                    continue
                } else {
                    output.append(byte)
                }
                index += 1
                continue
            }
            output.append(byte)
            index += 1
        }
        return Data(output)
    }

    static func removingProcessingInstructions(_ bytes: [UInt8]) -> [UInt8] {
        func find(_ pattern: String, from start: Int) -> Int? {
            let pattern = Array(pattern.utf8)
            var index = start
            while index + pattern.count <= bytes.count {
                if bytes[index] == pattern[0] && bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
                index += 1
            }
            return nil
        }
        func startsWith(_ prefix: String, at index: Int) -> Bool {
            let prefix = Array(prefix.utf8)
            return index + prefix.count <= bytes.count && bytes[index..<index + prefix.count].elementsEqual(prefix)
        }
        guard find("<?", from: 0) != nil else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if startsWith("<?", at: index) {
                let end = find("?>", from: index + 2).map { $0 + 2 } ?? bytes.count
                result += bytes[index..<end].filter { $0 == 0x0A }
                index = end
            } else if let (opening, closing) = [("<!--", "-->"), ("<![CDATA[", "]]>")].first(where: { startsWith($0.0, at: index) }) {
                let end = find(closing, from: index + opening.count).map { $0 + closing.count } ?? bytes.count
                // A section holding a character XML forbids is not one: only its opening is kept as it is.
                let text = String(decoding: bytes[index..<end], as: UTF8.self)
                if text.unicodeScalars.contains(where: { ($0.value < 0x20 && ![0x09, 0x0A, 0x0D].contains($0.value)) || $0.value == 0xFFFE || $0.value == 0xFFFF }) {
                    result += Array(opening.utf8)
                    index += opening.utf8.count
                    continue
                }
                result += bytes[index..<end]
                index = end
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }
}

@Suite("Feed preparation agrees with a second, independent reading")
struct FeedPreparationTests {
    /// What the documents are made of: the pieces these readings react to, whole and in halves.
    static let pieces = [
        "&eacute;", "&amp;", "&lt;", "&quot;", "&apos;", "&gt", "&nbsp", "&#233;", "&#x41;", "&;", "&", "&unknownname;",
        "&A1;", "&1a;", "&" + String(repeating: "a", count: 32) + ";", "&" + String(repeating: "b", count: 33) + ";",
        "<![CDATA[", "]]>", "<!--", "-->", "<!-->", "<?", "?>", "<?xml-stylesheet href=\"a\"?>", "<?x?>", "<", ">",
        "<item>", "</item>", "text ", "\n", "é", ";", "#", "a", "-", "]", "?", "\u{12}", "\u{0B}", "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\t",
    ]

    /// The byte search finds what comparing at every position finds, from any start, over text
    /// made of the patterns' own bytes.
    @Test func patternSearchFindsTheFirstOccurrence() {
        let patterns = ["<?", "?>", "<!--", "-->", "]]>", "<![CDATA[", "!ENTITY", "<item", "a", "-"].map { Array($0.utf8) }
        // Made of the patterns, their halves and single bytes of them.
        let pieces = patterns + patterns.map { Array($0.prefix($0.count / 2)) } + patterns.map { Array($0.suffix(($0.count + 1) / 2)) }
            + Array("<?!-]>[CDATAENTIYitem a".utf8).map { [$0] }
        var generator = SeededRandom(seed: 31)
        var found = 0
        for _ in 0..<5_000 {
            let pattern = patterns.randomElement(using: &generator)!
            var parts = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
            if Bool.random(using: &generator) { parts.insert(pattern, at: Int.random(in: 0...parts.count, using: &generator)) }
            let text = parts.flatMap { $0 }
            let start = Int.random(in: 0...text.count, using: &generator)
            let expected = start + pattern.count > text.count ? nil : (start...(text.count - pattern.count)).first { text[$0..<$0 + pattern.count].elementsEqual(pattern) }
            let position = text.span.position(of: pattern, from: start)
            #expect(position == expected, "\(String(decoding: pattern, as: UTF8.self)) in \(String(decoding: text, as: UTF8.self)) from \(start)")
            if expected != nil { found += 1 }
        }
        #expect(found > 1_000)
    }

    @Test func entitiesAndInstructionsAsByteAtATime() {
        var generator = SeededRandom(seed: 28)
        var checked = 0, changed = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            let data = Data(text.utf8)
            let replaced = HTMLEntities.replaceNamedEntities(in: data)
            #expect(replaced == ByteAtATimeXMLPreparation.replaceNamedEntities(in: data), "\(text)")
            let bytes = Array(text.utf8)
            let removed = XMLTree.removingProcessingInstructions(bytes)
            #expect(removed == ByteAtATimeXMLPreparation.removingProcessingInstructions(bytes), "\(text)")
            checked += 1
            if replaced != data || removed != bytes { changed += 1 }
        }
        // Most documents hold something to replace or remove: the agreement is not only on copies.
        #expect(checked == 20_000 && changed > 10_000)
    }
}
