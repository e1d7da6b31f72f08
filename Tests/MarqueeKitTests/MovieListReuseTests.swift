import Foundation
import Testing
@testable import MarqueeKit

/// A rebuild reads again only the movies whose bytes changed (``MovieRecord``): the items it
/// makes of the others must be exactly those a full read makes.
@Suite("Movie list reuse", .removesTemporaryFolders)
struct MovieListReuseTests {
    /// Movies with escapes, nulls, missing and repeated members, local and remote photos, and
    /// blanks between every token.
    static let list = """
        \u{FEFF}{ "movies" :
          [ {"Title": "Plain", "Description": "Text with *emphasis*.", "Photo": "https://example.org/a.jpg"},
            {"Title":"Escapes \\"quoted\\" \\\\ back\\/slash", "Intro": null, "Description": "Line\\nbreak, caf\\u00e9, clap \\ud83c\\udfac, tab\\t, ends in a backslash \\\\"} ,
            {
              "Intro": "Given intro",
              "Title": "Repeated member", "Title": "Last title wins",
              "Photo": "  poster.svg  ",
              "Description": "Has a {brace} and a [bracket] and a \\"quote}\\"."
            },
            {"Title": "Blank photo", "Photo": "   ", "Description": "", "Extra": {"nested": [1, 2.5e3, true, false, null, "}"]}},
            {"Title": "Null photo", "Photo": null, "Description": "Última película — 映画"}
          ]
        }
        """

    /// Loads `list` as the site's movies with the memo in `folder` (nil: no memo), saving it.
    static func load(_ list: String, in folder: URL, memo: Bool = true, limit: Int? = nil) async throws -> [Item] {
        let content = folder.appending(path: "Content")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try Data(list.utf8).write(to: content.appending(path: "movies.json"))
        try Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8).write(to: content.appending(path: "poster.svg"))
        let buildMemo = memo ? BuildMemo(file: folder.appending(path: "site.memo")) : BuildMemo()
        let context = BuildContext(root: folder, config: SiteConfig(title: "T"), theme: try Theme.load(siteRoot: folder), memo: buildMemo)
        let items = try await MovieListSource(name: "movies", file: content.appending(path: "movies.json"), limit: limit).loadItems(in: context)
        buildMemo.save()
        return items
    }

    /// Every field a source sets, and the body's digest.
    static func expectSame(_ reused: [Item], _ read: [Item], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reused.count == read.count, sourceLocation: sourceLocation)
        for (one, other) in zip(reused, read) {
            let same = one.id == other.id && one.source == other.source && one.title == other.title && one.intro == other.intro
                && one.images == other.images && one.body == other.body && one.bodyDigest == other.bodyDigest
            #expect(same, "\(one.title)", sourceLocation: sourceLocation)
            #expect(one.bodyDigest == Item.digest(of: one.body), sourceLocation: sourceLocation)
        }
    }

    @Test func unchangedMoviesComeBackAsTheyWereRead() async throws {
        let folder = try TestSupport.temporaryFolder()
        let read = try await Self.load(Self.list, in: folder, memo: false)
        #expect(read.map(\.title) == ["Plain", #"Escapes "quoted" \ back/slash"#, "Last title wins", "Blank photo", "Null photo"])
        #expect(read[0].images.map(\.url) == ["https://example.org/a.jpg"] && read[2].images.first?.url.hasSuffix(".svg") == true)
        #expect(read[1].intro.isEmpty && read[2].intro == "Given intro" && read[3].images.isEmpty && read[4].images.isEmpty)
        // The list with one more member at the top is parsed whole, as before movies were reused.
        let whole = try await Self.load(String(Self.list.dropLast()) + #", "other": 0}"#, in: folder, memo: false)
        Self.expectSame(whole, read)
        #expect(!whole.contains { $0.bodyIsUndecoded })
        let first = try await Self.load(Self.list, in: folder)
        Self.expectSame(first, read)
        #expect(first.allSatisfy { !$0.bodyIsUndecoded }, "nothing to reuse in the first build")
        let second = try await Self.load(Self.list, in: folder)
        Self.expectSame(second, read)
        #expect(second.allSatisfy { $0.bodyIsUndecoded }, "every movie reused")
    }

    /// Movies read movie by movie carry their origin (their bytes' memo key and photo URL), the
    /// same whether read or reused, different for a changed movie; the build's fingerprint takes
    /// it, and any change to an item after loading drops it, so the fingerprint sees the change.
    @Test func moviesCarryTheirOriginUntilChanged() async throws {
        let folder = try TestSupport.temporaryFolder()
        let read = try await Self.load(Self.list, in: folder)
        let reused = try await Self.load(Self.list, in: folder)
        #expect(reused.allSatisfy { $0.bodyIsUndecoded })
        #expect(read.allSatisfy { $0.originDigest != nil })
        #expect(read.map(\.originDigest) == reused.map(\.originDigest))
        #expect(Set(read.map(\.originDigest)).count == read.count)
        let changed = try await Self.load(Self.list.replacingOccurrences(of: "Text with", with: "Text, with"), in: folder)
        #expect(changed[0].originDigest != read[0].originDigest && changed[1...].map(\.originDigest) == read[1...].map(\.originDigest))
        // Parsed whole (another shape), the movies have no origin: their fields are hashed.
        #expect(try await Self.load(String(Self.list.dropLast()) + #", "other": 0}"#, in: folder).allSatisfy { $0.originDigest == nil })

        func fingerprint(_ items: [Item]) -> String {
            var items = items
            return BuildState.fingerprint(items: &items, contentStamps: "", environment: "")
        }
        #expect(fingerprint(read) == fingerprint(reused))
        var edited = reused
        edited[3].title = "Edited by a plugin"
        #expect(edited[3].originDigest == nil && reused[3].originDigest != nil)
        #expect(fingerprint(edited) != fingerprint(reused))
        var restored = edited
        restored[3].title = reused[3].title
        #expect(fingerprint(restored) != fingerprint(reused), "hashed by fields, not by origin")
    }

    /// The built-in stages keep a movie's origin through what they change (its HTML, slug and
    /// cell depend only on it, the settings and what they fold in), so the pages of unchanged
    /// movies are compared by origin; a slug numbered because of another movie changes it, and a
    /// plugin's change drops it (the page digest is then made from the fields).
    @Test func builtInStagesCarryTheOrigin() async throws {
        let folder = try TestSupport.temporaryFolder()
        func staged(_ list: String) async throws -> [Item] {
            var items = try await Self.load(list, in: folder)
            let context = BuildContext(root: folder, config: SiteConfig(title: "T"), theme: try Theme.load(siteRoot: folder), memo: BuildMemo())
            try MarkupPlugin().transformItems(&items, in: context)
            try NormalizePlugin().transformItems(&items, in: context)
            try LayoutPlugin().layOutItems(&items, in: context)
            return items
        }
        let first = try await staged(Self.list)
        let second = try await staged(Self.list)
        #expect(first.allSatisfy { $0.originDigest != nil && $0.cell != nil && !$0.slug.isEmpty } && !first[0].bodyHTML.isEmpty)
        #expect(second.allSatisfy { $0.bodyIsUndecoded })
        #expect(first.map(\.originDigest) == second.map(\.originDigest))
        #expect(PageWriter.digests(of: first) == PageWriter.digests(of: second))

        let retitled = try await staged(Self.list.replacingOccurrences(of: #""Title": "Plain""#, with: #""Title": "Blank photo""#))
        #expect(retitled.map(\.slug) == first.map(\.slug).enumerated().map { $0.offset == 0 ? "blank-photo" : $0.offset == 3 ? "blank-photo-2" : $0.element })
        #expect(retitled[3].originDigest != first[3].originDigest, "numbered, though its bytes did not change")
        #expect([1, 2, 4].allSatisfy { retitled[$0].originDigest == first[$0].originDigest })
        #expect(PageWriter.digests(of: retitled)[3] != PageWriter.digests(of: first)[3])

        var edited = second
        edited[2].intro = "Changed by a plugin"
        #expect(edited[2].originDigest == nil && edited[1].originDigest != nil)
        let digests = PageWriter.digests(of: edited)
        #expect(digests[2] != PageWriter.digests(of: second)[2] && digests[1] == PageWriter.digests(of: second)[1])
        edited[2].intro = second[2].intro
        #expect(PageWriter.digests(of: edited)[2] != PageWriter.digests(of: second)[2], "made from the fields, not the origin")
    }

    @Test func changedMoviesAreReadAgain() async throws {
        let folder = try TestSupport.temporaryFolder()
        _ = try await Self.load(Self.list, in: folder)
        let changed = Self.list
            .replacingOccurrences(of: "Text with *emphasis*.", with: "Text with *more* emphasis.")
            .replacingOccurrences(of: #""Title": "Null photo""#, with: #""Title": "Renamed""#)
        let before = try await Self.load(Self.list, in: folder, memo: false)
        let read = try await Self.load(changed, in: folder, memo: false)
        let reused = try await Self.load(changed, in: folder)
        Self.expectSame(reused, read)
        #expect(reused.map(\.bodyIsUndecoded) == [false, true, true, true, false])
        #expect(reused[0].bodyDigest != before[0].bodyDigest)
    }

    /// Lists of another shape are parsed whole, with the same result.
    @Test func otherShapesAreParsedWhole() async throws {
        let movie = #"{"Title": "A", "Description": "x"}"#
        for list in [#"{"movies": [\#(movie)], "other": 1}"#, #"{"other": 1, "movies": [\#(movie)]}"#, "[\(movie)]", #"{"movies": [\#(movie), [1]]}"#] {
            let folder = try TestSupport.temporaryFolder()
            let first = try? await Self.load(list, in: folder)
            let second = try? await Self.load(list, in: folder)
            #expect(first?.map(\.title) == second?.map(\.title))
            #expect(second?.contains { $0.bodyIsUndecoded } != true, "\(list)")
        }
    }

    /// A syntax error anywhere is reported at its line and column, whether the movie is new or
    /// past the limit; a movie past the limit is otherwise not read.
    @Test func syntaxErrorsKeepTheirPlace() async throws {
        let folder = try TestSupport.temporaryFolder()
        let good = #"{"movies": [{"Title": "A", "Description": "x"}, {"Title": 5, "Description": "x"}]}"#
        let first = try await Self.load(good, in: folder, limit: 1)
        let second = try await Self.load(good, in: folder, limit: 1)
        #expect(first.map(\.title) == ["A"] && second.map(\.title) == ["A"] && second.map(\.bodyIsUndecoded) == [true])
        let broken = "{\"movies\": [{\"Title\": \"A\", \"Description\": \"x\"},\n {\"Title\": \"B\", \"Description\": \"x\",}]}"
        #expect(throws: JSONSyntaxError(line: 2, column: 36, message: "trailing comma before '}'; remove the last comma")) {
            try JSONParser.parse(Data(broken.utf8))
        }
        for limit in [nil, 1] {
            await #expect { try await Self.load(broken, in: folder, limit: limit) } throws: { error in
                guard let error = error as? BuildError, case .lineColumn(let line, let column)? = error.place else { return false }
                return line == 2 && column == 36 && error.message.contains("trailing comma")
            }
        }
    }
    /// The layout scanner finds the elements and members the parser finds, in random documents
    /// full of the bytes that could mislead it (quotes after backslashes, brackets in strings).
    @Test func layoutScannerAgreesWithTheParser() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "\\\\", "\\\"", "{", "}", "[", "]", ",", ":", " ", "é", "\\u0041", "\\n", "\\/"]
        func string() -> String { "\"" + (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() + "\"" }
        func blank() -> String { ["", " ", "\n", "\t ", "\r\n"].randomElement(using: &generator)! }
        func value(_ depth: Int) -> String {
            switch Int.random(in: 0..<(depth > 2 ? 3 : 5), using: &generator) {
            case 0: return string()
            case 1: return ["1", "-2.5e3", "true", "false", "null", "0"].randomElement(using: &generator)!
            case 2: return string()
            case 3: return "[" + (0..<Int.random(in: 0...3, using: &generator)).map { _ in blank() + value(depth + 1) + blank() }.joined(separator: ",") + "]"
            default: return object(depth + 1)
            }
        }
        func object(_ depth: Int) -> String {
            "{" + blank() + (0..<Int.random(in: 0...4, using: &generator)).map { _ in string() + blank() + ":" + blank() + value(depth) }
                .joined(separator: "," + blank()) + blank() + "}"
        }
        for _ in 0..<2_000 {
            let document = blank() + "{" + blank() + "\"movies\"" + blank() + ":" + blank() + "["
                + (0..<Int.random(in: 0...4, using: &generator)).map { _ in blank() + object(1) + blank() }.joined(separator: ",") + "]" + blank() + "}" + blank()
            let parsed = try JSONParser.parse(Data(document.utf8))
            guard case .array(let elements)? = parsed["movies"] else { Issue.record("no list in \(document)"); continue }
            let bytes = Array(document.utf8)
            guard let ranges = JSONLayout.objectElements(ofArrayUnder: "movies", in: bytes), ranges.count == elements.count else {
                Issue.record("elements not found in \(document)")
                continue
            }
            for (range, element) in zip(ranges, elements) {
                #expect((try? JSONParser.value(in: bytes, range: range, containerDepth: 2)) == element, "\(document)")
                guard case .object(let members) = element, let found = JSONLayout.members(ofObjectIn: range, of: bytes), found.count == members.count else {
                    Issue.record("members not found in \(document)")
                    continue
                }
                for (member, expected) in zip(found, members) {
                    #expect(JSONParser.string(at: member.key, in: bytes) == expected.key, "\(document)")
                    #expect((try? JSONParser.value(in: bytes, range: member.value, containerDepth: 3)) == expected.value, "\(document)")
                }
            }
        }
    }
}
