import Foundation
import Testing
@testable import MarqueeKit

/// Pages are rendered by Marquee's own compiler and renderer (``PageTemplates``); the Mustache
/// specification's tests are in ``MustacheSpecTests``. These check what the specification leaves
/// to an implementation: Mustache Marquee does not support, errors and their places, recursion,
/// and the theme a site's own templates make.
@Suite("Page templates", .removesTemporaryFolders)
struct PageTemplateTests {
    static func render(_ templates: [String: String], _ values: TemplateObject = [:]) throws -> String {
        let pages = try PageTemplates.compiled(templates)
        var output: [UInt8] = []
        #expect(pages.render("main", values, into: &output))
        return String(decoding: output, as: UTF8.self)
    }

    /// Typed values print as the pages need them: flags as words, numbers in decimal, lists and
    /// objects as nothing; escaped text has no markup left.
    @Test func valuesPrintAsTheyAre() throws {
        let values: TemplateObject = [
            "a": .text("Tom & \"Jerry's\" <b>"), "bytes": .utf8(Array("<i>".utf8)), "yes": .flag(true), "no": .flag(false),
            "num": .number(42), "list": .list([.text("x")]), "obj": .object(["a": .text("in")]),
        ]
        let text = try Self.render(["main": "{{a}}|{{{a}}}|{{bytes}}|{{&bytes}}|{{yes}}|{{no}}|{{num}}|{{list}}|{{obj}}|{{obj.a}}"], values)
        #expect(text == "Tom &amp; &quot;Jerry&#39;s&quot; &lt;b&gt;|Tom & \"Jerry's\" <b>|&lt;i&gt;|<i>|true|false|42|||in")
    }

    /// Mustache that Marquee does not render, and mistakes, are errors at their line and column.
    @Test(arguments: [
        ("a\n  {{uppercased(title)}}", 2, 3, "transform"),
        ("{{=<% %>=}}<%a%>", 1, 1, "delimiters"),
        ("x {{<item}}{{/item}}", 1, 3, "inheritance"),
        ("{{$block}}x{{/block}}", 1, 1, "inheritance"),
        ("{{%CONTENT_TYPE: TEXT}}", 1, 1, "pragmas"),
        ("{{*name}}", 1, 1, "dynamic names"),
        ("<main>\n  {{#item}}\n  <h1>{{title}}</h1>\n", 2, 3, "never closed"),
        ("{{#a}}{{/b}}", 1, 7, "cannot close"),
        ("text {{/a}}", 1, 6, "never opened"),
        ("{{a", 1, 1, "never closed"),
        ("{{! a comment", 1, 1, "never closed"),
        ("{{{a}}", 1, 1, "third"),
        ("{{}}", 1, 1, "names nothing"),
        ("é日本 {{a b}}", 1, 5, "not `b`"),
    ] as [(String, Int, Int, String)])
    func unsupportedMustacheAndMistakesAreErrorsWithTheirPlace(_ template: String, _ line: Int, _ column: Int, _ says: String) {
        #expect { try PageTemplates.compiled(["main": template]) } throws: { error in
            guard let error = error as? PageTemplates.NamedTemplateError else { return false }
            return error.name == "main" && error.error.line == line && error.error.column == column && error.error.message.contains(says)
        }
    }

    /// A partial that includes itself stops at a depth instead of recursing forever.
    @Test func aPartialThatIncludesItselfEnds() throws {
        #expect(try Self.render(["main": "<{{> main}}>"]).hasPrefix("<<<"))
    }

    /// A site's own template is compiled with the default theme's partials and shows in the
    /// pages; one that does not compile stops the build with its file, line and column.
    @Test func aSitesOwnTemplatesAreUsed() async throws {
        let root = try TestSupport.makeFixtureSite()
        try FileManager.default.createDirectory(at: root.appending(path: "Templates"), withIntermediateDirectories: true)
        let item = root.appending(path: "Templates/item.mustache")
        try "{{#item}}\n  {{! a site's own detail page }}\n  <h1 class=\"own\">{{title}}</h1>\n{{/item}}\n".write(to: item, atomically: true, encoding: .utf8)
        _ = try await SiteBuilder(site: try Site.fromConfig(root: root)).build()
        let page = try TestSupport.read(root, "items/arrival/index.html")
        #expect(page.contains("<h1 class=\"own\">"))
        #expect(!page.contains("detail-meta"))

        try "{{#item}}<h1>{{uppercased(title)}}</h1>{{/item}}".write(to: item, atomically: true, encoding: .utf8)
        #expect { _ = try Site.fromConfig(root: root) } throws: { error in
            guard let error = error as? BuildError, case .lineColumn(1, 14)? = error.place else { return false }
            return error.file == "Templates/item.mustache" && error.message.contains("transform")
        }
    }
}

extension PageTemplateTests {
    /// A site holding copies of the default templates (as `marquee init` writes them) has the
    /// default theme, whose templates are compiled once per process; a copy changed by a byte is
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
        let item = folder.appending(path: "item.mustache")
        try (Data(contentsOf: item) + Data("<!-- an edited copy -->\n".utf8)).write(to: item)
        let edited = try Site.fromConfig(root: copied)
        #expect(edited.theme.fingerprint != reference.fingerprint)
        _ = try await SiteBuilder(site: edited).build()
        #expect(try TestSupport.read(copied, "items/arrival/index.html").contains("<!-- an edited copy -->"))
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
