import Foundation
import Testing
@testable import MarqueeKit

@Suite("Bad input: a clear error with file and place, and the previous site untouched", .removesTemporaryFolders)
struct BadInputTests {
    /// Builds a good site, then swaps in a bad file and builds again.
    func failingBuild(type: String, fixture: String) async throws -> (BuildError, changed: Bool) {
        let root = try TestSupport.makeSite(
            config: "title: Bad\nsources:\n  - type: \(type)\n    path: input\n",
            files: ["input": TestSupport.fixtures.appending(path: type == "movies" ? "movies/movies-2016.json" : "feeds/deviantart-popular.xml"),
                    "images": TestSupport.fixtures.appending(path: "images")])
        _ = try await TestSupport.build(root)
        let before = TestSupport.snapshot(root.appending(path: "Site"))
        let input = root.appending(path: "Content/input")
        try FileManager.default.removeItem(at: input)
        try FileManager.default.copyItem(at: TestSupport.fixtures.appending(path: "bad/\(fixture)"), to: input)
        do {
            _ = try await TestSupport.build(root)
            Issue.record("\(fixture) built without an error")
            throw CancellationError()
        } catch let error as BuildError {
            let after = TestSupport.snapshot(root.appending(path: "Site"))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".Site") }
            return (error, before != after || !leftovers.isEmpty)
        }
    }

    @Test(arguments: [
        ("movies-trailing-comma.json", "4:91", "trailing comma"),
        ("empty.json", "1:1", "empty"),
        ("movies-wrong-root.json", "$", "\"movies\" array"),
        ("movies-wrong-types.json", "movies[0].Title", "expected a string, found a number"),
    ])
    func movieFiles(fixture: String, place: String, words: String) async throws {
        let (error, changed) = try await failingBuild(type: "movies", fixture: fixture)
        #expect(error.file == "Content/input")
        #expect(error.place?.description == place)
        #expect(error.message.contains(words), "\(error)")
        #expect(!changed)
    }

    @Test(arguments: [
        ("empty.xml", "empty"),
        ("truncated.xml", "truncated"),
        ("billion-laughs.xml", "declares entities"),
        ("external-entity.xml", "declares entities"),
        ("not-a-feed.html", "HTML page, not a feed"),
        ("plain-text.txt", "this is not XML"),
        ("cdata-control.xml", "a control character (U+0007) that XML does not allow"),
    ])
    func feedFiles(fixture: String, words: String) async throws {
        let (error, changed) = try await failingBuild(type: "feed", fixture: fixture)
        #expect(error.file == "Content/input")
        guard case .lineColumn(let line, let column)? = error.place else {
            Issue.record("no line and column in \(error)")
            return
        }
        #expect(line >= 1 && column >= 1)
        #expect(error.message.contains(words), "\(error)")
        #expect(!changed)
    }

    @Test func wrongTypesPointAtEachField() async throws {
        let data = Data(#"{"movies": [{"Title": "Photo is an object", "Photo": {"url": "x.jpg"}, "Description": "x"}]}"#.utf8)
        let root = try TestSupport.makeSite(config: "title: T\nsources:\n  - type: movies\n    path: m.json\n", texts: ["m.json": String(decoding: data, as: UTF8.self)])
        await #expect { try await TestSupport.build(root) } throws: { error in
            (error as? BuildError)?.place == .path("movies[0].Photo")
        }
        let missing = try TestSupport.makeSite(config: "title: T\nsources:\n  - type: movies\n    path: m.json\n", texts: ["m.json": #"{"movies": [{"Title": "No description"}]}"#])
        await #expect { try await TestSupport.build(missing) } throws: { error in
            (error as? BuildError)?.place == .path("movies[0].Description")
        }
    }

    @Test func htmlEntitiesInXMLAreRecoveredAndLatin1Parses() async throws {
        let root = try TestSupport.makeSite(
            config: "title: T\nsources:\n  - type: feed\n    path: a.xml\n  - type: feed\n    path: b.xml\n",
            files: ["a.xml": TestSupport.fixtures.appending(path: "bad/undefined-entity.xml"),
                    "b.xml": TestSupport.fixtures.appending(path: "bad/latin1-declared.xml")])
        _ = try await TestSupport.build(root)
        let gallery = try TestSupport.read(root, "index.html")
        #expect(gallery.contains(">Café \u{A0} night</a>"))
        #expect(gallery.contains("Café crème"))
    }

    @Test func externalEntityNeverReadsALocalFile() throws {
        let hostname = (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "\u{0}"
        let data = try Data(contentsOf: TestSupport.fixtures.appending(path: "bad/external-entity.xml"))
        #expect(throws: BuildError.self) { try FeedParser.parse(data, display: "x.xml") }
        // Even without the refusal, the parser would not load it: the resolver is off.
        let withoutDTD = Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<!ENTITY xxe SYSTEM \"file:///etc/hostname\">", with: "").utf8)
        let feed = try? FeedParser.parse(withoutDTD, display: "x.xml")
        #expect(!(feed?.items.first?.title.contains(hostname) ?? false))
    }

    @Test func configErrorsNameTheKeyAndListWhatIsAllowed() {
        #expect {
            try SiteConfig.parse("title: T\ntitel: x\nsources: []\n", file: "Content/site.yml")
        } throws: { error in
            let error = error as! BuildError
            return error.place == .lineColumn(line: 2, column: 1) && error.message.contains("unknown key \"titel\"")
                && error.message.contains("allowed here: title, description")
        }
        #expect {
            try SiteConfig.parse("title: T\nsources:\n  - type: podcast\n    path: x\n", file: "Content/site.yml")
        } throws: { error in
            let error = error as! BuildError
            return error.place == .lineColumn(line: 3, column: 11) && error.message.contains("unknown source type \"podcast\"; use one of: movies, feed")
        }
        #expect {
            try SiteConfig.parse("title: T\nsources:\n  - type: movies\n    pth: x\n", file: "Content/site.yml")
        } throws: { error in
            (error as! BuildError).message.contains("unknown key \"pth\"; allowed here: type, path, url, name, limit")
        }
    }

    /// Nine levels of nine aliases in a mapping key: a 433-byte file standing for 387 million
    /// values. Refused at once, with a message of one line; as a value, too.
    @Test func aYAMLAliasBombIsRefusedQuickly() async throws {
        let text = try String(contentsOf: TestSupport.fixtures.appending(path: "bad/alias-bomb.yml"), encoding: .utf8)
        let started = ContinuousClock.now
        #expect {
            try SiteConfig.parse(text, file: "Content/site.yml")
        } throws: { error in
            (error as! BuildError).place == .lineColumn(line: 2, column: 3) && "\(error)".contains("a key must be a single word") && "\(error)".count < 300
        }
        let asValue = text.replacingOccurrences(of: "? [&a", with: "description: [&a").replacingOccurrences(of: "\n: x\n", with: "\n")
        #expect {
            try SiteConfig.parse(asValue, file: "Content/site.yml")
        } throws: { error in
            "\(error)".contains("more than 100000 values once its aliases") && "\(error)".count < 300
        }
        // Fewer levels stay under the bound, and the key is reported without its expansion.
        let small = "title: T\n? [&a [lol, lol], &b [*a, *a], &c [*b, *b]]\n: x\nsources: []\n"
        #expect {
            try SiteConfig.parse(small, file: "Content/site.yml")
        } throws: { error in
            "\(error)".contains("a key must be a single word") && "\(error)".count < 300
        }
        #expect(started.duration(to: .now) < .seconds(2))
    }

    @Test func aHugeConfigurationIsRefusedWithoutBeingReadWhole() async throws {
        let root = try TestSupport.makeSite(config: "title: T\n# " + String(repeating: "x", count: 300_000) + "\nsources: []\n")
        await #expect { try await TestSupport.build(root) } throws: { error in
            "\(error)".contains("larger than 256 KiB")
        }
        // Values quoted in errors are cut short.
        #expect {
            try SiteConfig.parse("title: T\nsources:\n  - type: \(String(repeating: "p", count: 5000))\n    path: x\n", file: "s.yml")
        } throws: { error in
            "\(error)".contains("…") && "\(error)".count < 300
        }
    }

    @Test func photoPathsCannotLeaveTheContentFolder() async throws {
        let root = try TestSupport.makeSite(
            config: "title: T\nsources:\n  - type: movies\n    path: m.json\n",
            texts: ["m.json": #"{"movies": [{"Title": "X", "Photo": "../../../../etc/passwd", "Description": "x"}]}"#])
        await #expect { try await TestSupport.build(root) } throws: { error in
            let error = error as! BuildError
            return error.place == .path("movies[0].Photo") && error.message.contains("outside the Content folder")
        }
    }

    @Test func outputFolderCannotReplaceTheInputs() async throws {
        let root = try TestSupport.makeFixtureSite()
        await #expect(throws: BuildError.self) { try await TestSupport.build(root, output: root.appending(path: "Content")) }
        await #expect(throws: BuildError.self) { try await TestSupport.build(root, output: root) }
        #expect(FileManager.default.fileExists(atPath: root.appending(path: "Content/site.yml").path))
    }
}
