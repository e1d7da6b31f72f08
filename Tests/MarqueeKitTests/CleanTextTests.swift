import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import MarqueeKit

/// Control characters, noncharacters and bidi overrides from any input never reach the site.
@Suite("Clean text in every file the build writes", .removesTemporaryFolders)
struct CleanTextTests {
    /// True for a character no written file may hold.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x09 && value != 0x0A) || (0x7F...0x9F).contains(value)
            || (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }

    /// A site built from the hostile movie list and JSON Feed, with an address (for the sitemap
    /// and the feed's absolute links).
    func hostileSite() async throws -> URL {
        let root = try TestSupport.makeSite(
            config: "title: \"Hostile\\u0000 site\"\nbase_url: https://example.org/\nsources:\n  - type: movies\n    path: m.json\n  - type: feed\n    path: f.json\n",
            files: [
                "m.json": TestSupport.fixtures.appending(path: "hostile/control-characters.json"),
                "f.json": TestSupport.fixtures.appending(path: "hostile/control-characters-feed.json"),
            ])
        _ = try await TestSupport.build(root)
        return root
    }

    @Test func noWrittenFileHoldsAControlCharacterOrNoncharacter() async throws {
        let root = try await hostileSite()
        let output = root.appending(path: "Site")
        let files = FileIO.regularFiles(under: output.path).filter(OutputSet.isText)
        #expect(files.contains("feed.xml") && files.contains("sitemap.xml") && files.contains("search.json"))
        for path in files {
            let text = try String(contentsOf: output.appending(path: path), encoding: .utf8)
            let found = text.unicodeScalars.filter(Self.isForbidden)
            #expect(found.isEmpty, "\(path) holds \(found.map { String($0.value, radix: 16) })")
        }
        // Nor do the strings that search.json's escapes stand for.
        let index = try JSONSerialization.jsonObject(with: Data(contentsOf: output.appending(path: "search.json"))) as! [[String: String]]
        for entry in index {
            for value in entry.values {
                #expect(!value.unicodeScalars.contains(where: { Self.isForbidden($0) || CleanText.isBidiControl($0.value) }), "\(entry)")
            }
        }
        #expect(index.contains { $0["t"] == "NulTitle" } && index.contains { $0["t"] == "Esc[31mRed" })
        #expect(index.contains { $0["a"] == "Author" })
    }

    @Test func theSitesXMLFilesAreWellFormed() async throws {
        let root = try await hostileSite()
        for name in ["feed.xml", "sitemap.xml"] {
            let parser = XMLParser(data: try Data(contentsOf: root.appending(path: "Site/\(name)")))
            #expect(parser.parse(), "\(name): \(String(describing: parser.parserError))")
        }
    }

    @Test func bidiOverridesAreRemovedFromTitlesAuthorsAndTags() async throws {
        let root = try await hostileSite()
        let gallery = try TestSupport.read(root, "index.html")
        #expect(gallery.contains("Override gnp.exe"))
        #expect(!gallery.unicodeScalars.contains { CleanText.isBidiControl($0.value) })
    }

    @Test func cleaningKeepsOrdinaryText() {
        let text = "Tab\there, newline\nthen 日本語, עברית, emoji 🎬 and a U+FFFD �."
        #expect(CleanText.clean(text, removingBidiControls: true) == text)
        #expect(CleanText.cleanUTF8(Data(text.utf8)) == Data(text.utf8))
        #expect(CleanText.clean("a\r\nb\u{0}c\u{1B}d\u{FFFF}e\u{10FFFE}f\u{9F}") == "a\nbcdef")
        #expect(CleanText.clean("x\u{202E}y\u{2067}z") == "x\u{202E}y\u{2067}z")
        #expect(CleanText.clean("x\u{202E}y\u{2067}z", removingBidiControls: true) == "xyz")
    }

    /// The byte scan that guards every written file, and the cleaning of labels, find exactly
    /// the characters the rule names: every code point, each between two letters.
    @Test func theByteScanAgreesWithTheRuleForEveryCodePoint() {
        var disagreeing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(Character(scalar)) + "b"
            let cleaned = CleanText.cleanUTF8(Data(text.utf8))
            let removed = cleaned == Data("ab".utf8)
            if removed != Self.isForbidden(scalar) { disagreeing.append(value) }
            // Labels lose bidi controls too, and their byte check must not skip either kind.
            let labelRemoved = CleanText.clean(text, removingBidiControls: true) == "ab"
            if labelRemoved != (Self.isForbidden(scalar) || CleanText.isBidiControl(value)) { disagreeing.append(value) }
        }
        #expect(disagreeing.isEmpty, "\(disagreeing.prefix(10).map { String($0, radix: 16) })")
    }

    /// The scan reads long files in runs: a character found at any place, one that straddles
    /// two runs included, is removed.
    @Test func forbiddenCharactersAreFoundAcrossTheScansRuns() {
        for forbidden in [0x1, 0x85, 0xFDD0, 0xFFFF, 0x10FFFE].map({ String(Character(Unicode.Scalar($0)!)) }) {
            for offset in 250...260 {
                let text = String(repeating: "a", count: offset) + forbidden + String(repeating: "b", count: 300)
                let cleaned = CleanText.cleanUTF8(Data(text.utf8))
                #expect(cleaned == Data((String(repeating: "a", count: offset) + String(repeating: "b", count: 300)).utf8), "\(forbidden.unicodeScalars.first!.value) at \(offset)")
            }
        }
    }
}
