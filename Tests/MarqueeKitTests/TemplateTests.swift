import Foundation
import Mustache
import Testing
@testable import MarqueeKit

/// Pages are rendered by Marquee's compiled renderer (``PageTemplates``) when a theme's templates
/// stay within its subset of Mustache, and by swift-mustache otherwise. These tests hold the
/// compiled renderer to swift-mustache's output, byte for byte.
@Suite("Page templates", .removesTemporaryFolders)
struct PageTemplateTests {
    /// Values that exercise every kind: text with characters to escape, empty text, flags,
    /// numbers, lists of mixed values, an empty list and nested objects.
    static let values: TemplateObject = [
        "a": .text("Tom & \"Jerry's\" <b>"),
        "b": .text(""),
        "text": .text("plain é 日本"),
        "yes": .flag(true),
        "no": .flag(false),
        "num": .number(42),
        "zero": .number(0),
        "empty": .list([]),
        "list": .list([
            .object(["a": .text("first"), "n": .number(1)]),
            .text("second <2>"),
            .number(3),
            .object(["n": .number(4), "inner": .object(["b": .text("deep")])]),
        ]),
        "obj": .object(["a": .text("obj.a"), "inner": .object(["b": .text("obj.inner.b"), "list": .list([.text("x"), .text("y")])])]),
    ]

    /// Renders `templates["main"]` with both renderers, each template prefixed with the pragma
    /// that Theme.load puts in front of every template. Nil when swift-mustache cannot parse one.
    static func renderBothWays(_ templates: [String: String], values: TemplateObject = values) throws -> (compiled: String, mustache: String, isCompiled: Bool)? {
        guard let result = TemplateRenderingCheck.renderBothWays(templates, main: "main", values: values) else { return nil }
        #expect(result.compiled != nil)
        return (result.compiled ?? "<missing>", result.mustache, result.isCompiled)
    }

    @Test(arguments: [
        // Names: plain, dotted, the current value, the innermost value only, missing, empty.
        "{{a}}|{{{a}}}|{{&a}}|{{ a }}|{{b}}|{{num}}|{{zero}}|{{yes}}|{{no}}|{{missing}}|{{obj.a}}|{{obj.inner.b}}|{{obj.missing.b}}",
        "{{#obj}}{{a}}/{{.a}}/{{text}}/{{.text}}{{#inner}}{{b}}{{a}}{{num}}{{/inner}}{{/obj}}",
        "{{#list}}[{{.}}|{{a}}|{{n}}|{{.n}}|{{inner.b}}|{{num}}]{{/list}}",
        "{{#empty}}never{{/empty}}{{^empty}}none:{{.}}{{a}}{{/empty}}{{^list}}never{{/list}}{{#zero}}zero is shown{{/zero}}",
        "{{#yes}}y{{a}}{{/yes}}{{#no}}never{{/no}}{{^no}}n{{/no}}{{^yes}}never{{/yes}}{{#b}}[{{.}}]{{/b}}{{^b}}never{{/b}}{{#missing}}never{{/missing}}{{^missing}}m{{/missing}}",
        "{{#obj.inner.list}}{{.}},{{/obj.inner.list}}{{#num}}{{.}}{{/num}}{{#a}}{{.}}{{/a}}",
        "{{list}}|{{obj.inner.list}}|{{{empty}}}",
        // Lines: standalone tags take their line, others do not.
        "a\n  {{#yes}}  \n  b\n  {{/yes}}\n  {{! note }}\n{{^no}}\r\nc\r\n{{/no}}\r\n d {{#yes}}\n e\n{{/yes}}f\n",
        "  {{#list}}\n  - {{.}}\n  {{/list}}\nend {{! inline }} x\n\t{{! tab }}\t\n  {{a}}\n",
        "{{#yes}}\n{{/yes}}\n   \n   {{b}}   \n{{! last line }}   ",
        "{{\nstray after an opening brace pair and a line break",
        "x {{! a comment holding {{ }}\n{ } }}{ x",
        // Partials: inline, standalone (indents every line), nested, missing.
        "<{{> item}}>\n  {{> item}}\n    {{> lines}}\nx{{> missing}}y\n",
        "{{#list}}\n  {{> lines}}\n{{/list}}\n",
    ])
    func matchesSwiftMustache(_ main: String) throws {
        let partials = [
            "item": "({{a}})",
            "lines": "first {{a}}\n{{#yes}}\nsecond\n{{/yes}}\n  {{> item}}\nthird\r\nlast",
        ]
        let result = try #require(try Self.renderBothWays(["main": main].merging(partials) { $1 }))
        #expect(result.isCompiled)
        #expect(result.compiled == result.mustache)
    }

    /// Random templates within the subset, random whitespace included, against swift-mustache.
    @Test func randomTemplatesMatchSwiftMustache() throws {
        var random = SeededRandom(seed: 0x6d61_7271_7565_65)
        var compared = 0
        for _ in 0..<1_500 {
            let templates = [
                "main": RandomTemplate.make(&random, partials: ["p1", "p2"]),
                "p1": RandomTemplate.make(&random, partials: ["p2"]),
                "p2": RandomTemplate.make(&random, partials: []),
            ]
            guard let result = try Self.renderBothWays(templates) else { continue }
            #expect(result.isCompiled, "not compiled: \(templates)")
            #expect(result.compiled == result.mustache, "templates: \(templates)")
            if result.compiled != result.mustache { break }
            compared += 1
        }
        #expect(compared > 1_000)
    }

    /// Mustache beyond the subset is left to swift-mustache, for the whole theme.
    @Test(arguments: ["{{uppercased(a)}}", "{{=<% %>=}}<%a%>", "{{<item}}{{/item}}", "{{> *a}}", "{{%CONTENT_TYPE: TEXT}}{{a}}", "{{$block}}x{{/block}}"])
    func mustacheBeyondTheSubsetIsLeftToSwiftMustache(_ main: String) throws {
        let result = try #require(try Self.renderBothWays(["main": main, "item": "({{a}})"]))
        #expect(!result.isCompiled)
        #expect(result.compiled == result.mustache)
    }

    /// A partial that includes itself stops at a depth instead of recursing forever.
    @Test func aPartialThatIncludesItselfEnds() throws {
        let texts = ["main": FastHTMLContentType.pragma + "<{{> main}}>"]
        let pages = PageTemplates(texts: texts, library: MustacheLibrary())
        var output: [UInt8] = []
        #expect(pages.render("main", [:], into: &output))
        #expect(String(decoding: output, as: UTF8.self).hasPrefix("<<<"))
    }

    /// swift-mustache parses a theme's templates only when they are asked for (a theme the
    /// compiled renderer covers never needs them), and then has every one, the site's own and
    /// the default theme's; a template of the site's own that does not parse still fails the load.
    @Test func swiftMustacheParsesAThemeOnlyWhenAsked() throws {
        let root = try TestSupport.temporaryFolder()
        try FileManager.default.createDirectory(at: root.appending(path: "Templates"), withIntermediateDirectories: true)
        try "<p>Not here: {{title}}</p>".write(to: root.appending(path: "Templates/404.mustache"), atomically: true, encoding: .utf8)
        let theme = try Theme.load(siteRoot: root)
        #expect(theme.pages.isCompiled && !theme.mustache.isParsed)
        #expect(Theme.requiredTemplates.allSatisfy { theme.templates.getTemplate(named: $0) != nil })
        #expect(theme.mustache.isParsed)
        var output: [UInt8] = []
        #expect(theme.renderedBySwiftMustache.pages.render("404", ["title": .text("T")], into: &output))
        #expect(String(decoding: output, as: UTF8.self) == "<p>Not here: T</p>")

        try "{{#open}} never closed".write(to: root.appending(path: "Templates/404.mustache"), atomically: true, encoding: .utf8)
        #expect(throws: BuildError.self) { try Theme.load(siteRoot: root) }
    }

    /// Whole sites, with every template the default theme has, come out the same both ways.
    @Test func theDefaultThemeBuildsTheSameSiteEitherWay() async throws {
        let root = try TestSupport.makeFixtureSite(config: TestSupport.fixtureConfig + "\nbase_url: https://example.org/fx/\npage_size: 4\n")
        let site = try Site.fromConfig(root: root)
        #expect(site.theme.pages.isCompiled)
        var slow = try Site.fromConfig(root: root, output: root.appending(path: "SiteByMustache"))
        slow.theme = slow.theme.renderedBySwiftMustache
        #expect(!slow.theme.pages.isCompiled)
        _ = try await SiteBuilder(site: site).build()
        _ = try await SiteBuilder(site: slow).build()
        let fast = TestSupport.snapshot(site.output), reference = TestSupport.snapshot(slow.output)
        // Pages of every template: listings with sources and pagination, detail pages, 404.
        #expect(fast.keys.contains("404.html") && fast.keys.contains("page/2/index.html"))
        #expect(fast.keys.contains { $0.hasPrefix("sources/") } && fast.keys.contains { $0.hasPrefix("items/") })
        #expect(Set(fast.keys) == Set(reference.keys))
        for (path, data) in fast where reference[path] != data {
            Issue.record("\(path) differs from swift-mustache's rendering")
        }
    }

    /// A site's own templates: within the subset they are compiled, beyond it swift-mustache
    /// renders them, and either way the pages show what they say.
    @Test func aSitesOwnTemplatesAreUsedEitherWay() async throws {
        for (template, expected, compiled) in [
            ("{{#item}}\n  {{! a site's own detail page }}\n  <h1 class=\"own\">{{title}}</h1>\n{{/item}}\n", "<h1 class=\"own\">", true),
            ("{{#item}}<h1 class=\"own\">{{uppercased(title)}}</h1>{{/item}}", "<h1 class=\"own\">ARRIVAL", false),
        ] {
            let root = try TestSupport.makeFixtureSite()
            try FileManager.default.createDirectory(at: root.appending(path: "Templates"), withIntermediateDirectories: true)
            try template.write(to: root.appending(path: "Templates/item.mustache"), atomically: true, encoding: .utf8)
            let site = try Site.fromConfig(root: root)
            #expect(site.theme.pages.isCompiled == compiled)
            _ = try await SiteBuilder(site: site).build()
            let page = try TestSupport.read(root, "items/arrival/index.html")
            #expect(page.contains(expected), "\(template)")
            #expect(!page.contains("detail-meta"))
        }
    }
}

extension PageTemplateTests {
    /// A site holding copies of the default templates (as `marquee init` writes them) has the
    /// default theme, whose templates are parsed once per process; a copy changed by a byte is
    /// the site's own, and shows.
    @Test func copiesOfTheDefaultTemplatesAreTheDefaultThemeUntilEdited() async throws {
        let plain = try TestSupport.makeFixtureSite(), copied = try TestSupport.makeFixtureSite()
        let folder = copied.appending(path: "Templates")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (path, data) in Theme.defaultFiles() where path.hasSuffix(".mustache") {
            try data.write(to: folder.appending(path: path))
        }
        let reference = try Site.fromConfig(root: plain).theme
        let copy = try Site.fromConfig(root: copied).theme
        #expect(copy.fingerprint == reference.fingerprint)
        #expect(copy.pages.isCompiled)
        let item = folder.appending(path: "item.mustache")
        try (Data(contentsOf: item) + Data("<!-- an edited copy -->\n".utf8)).write(to: item)
        let edited = try Site.fromConfig(root: copied)
        #expect(edited.theme.fingerprint != reference.fingerprint)
        _ = try await SiteBuilder(site: edited).build()
        #expect(try TestSupport.read(copied, "items/arrival/index.html").contains("<!-- an edited copy -->"))
    }

    /// A site's template that does not parse stops the build with the template's file, line and
    /// column.
    @Test func aBrokenTemplateNamesItsFileAndPlace() throws {
        let root = try TestSupport.makeFixtureSite()
        try FileManager.default.createDirectory(at: root.appending(path: "Templates"), withIntermediateDirectories: true)
        try "<main>\n  {{#item}}\n  <h1>{{title}}</h1>\n".write(to: root.appending(path: "Templates/item.mustache"), atomically: true, encoding: .utf8)
        #expect { _ = try Site.fromConfig(root: root) } throws: { error in
            guard let error = error as? BuildError, case .lineColumn(let line, _)? = error.place else { return false }
            return error.file == "Templates/item.mustache" && line >= 2 && error.message.contains("cannot parse the template")
        }
    }
}

/// SplitMix64: the same numbers for the same seed on every machine.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Up to `count` of `pieces`, drawn at random and joined: inputs for property tests.
    mutating func joining(_ pieces: [String], count: ClosedRange<Int>) -> String {
        (0..<Int.random(in: count, using: &self)).map { _ in pieces.randomElement(using: &self)! }.joined()
    }
}

/// Random Mustache within the compiled subset, heavy on what decides whitespace: line breaks,
/// spaces and tabs around tags, standalone lines, comments and partials.
enum RandomTemplate {
    static let names = ["a", "b", "text", "num", "zero", "yes", "no", "empty", "list", "obj", "obj.a", "obj.inner", "obj.inner.b", "inner.b", "n", ".", ".a", ".n", "missing"]
    static let sectionNames = ["yes", "no", "empty", "list", "obj", "obj.inner", "obj.inner.list", "missing", "a", "b", "num", "inner"]
    static let texts = ["x", "y z", " ", "  ", "\t", "\n", "\n", "\r\n", "<&>", "\"'", "é", "}", "{ ", "日本"]

    static func make(_ random: inout SeededRandom, partials: [String], depth: Int = 0) -> String {
        var template = ""
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<7:
                template += texts.randomElement(using: &random)!
            case 7..<10:
                let name = names.randomElement(using: &random)!
                template += ["{{\(name)}}", "{{{\(name)}}}", "{{& \(name)}}", "{{ \(name) }}"].randomElement(using: &random)!
            case 10..<12:
                template += ["{{! note }}", "{{!\nmulti\n}}"].randomElement(using: &random)!
            case 12..<17 where depth < 3:
                let name = sectionNames.randomElement(using: &random)!
                let open = Bool.random(using: &random) ? "#" : "^"
                let lead = ["", "\n", "  ", "\n  ", "\r\n\t"].randomElement(using: &random)!
                let trail = ["", "\n", "  \n", " "].randomElement(using: &random)!
                template += "\(lead){{\(open)\(name)}}\(trail)" + make(&random, partials: partials, depth: depth + 1) + "\(lead){{/\(name)}}\(trail)"
            case 17..<20 where !partials.isEmpty:
                let lead = ["", "\n", "  ", "\n  ", "\n\t "].randomElement(using: &random)!
                let trail = ["", "\n", " \n", "x"].randomElement(using: &random)!
                template += "\(lead){{> \(partials.randomElement(using: &random)!)}}\(trail)"
            default:
                template += "\n"
            }
        }
        return template
    }
}
