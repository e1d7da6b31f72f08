import Foundation
import MarqueeKit

/// The parsers and filters that read untrusted input, each as a fuzz target.
enum FuzzTarget: String, CaseIterable {
    case feed, movies, json, markdown, layout, sanitizer, template

    /// Runs one input. Errors are expected (bad input must be an error, not a crash); a broken
    /// property stops the process so libFuzzer records the input.
    func run(_ data: Data) {
        switch self {
        case .feed:
            // Any bytes: a feed or an error with its place; every item's HTML, once sanitized, runs nothing.
            guard let feed = try? FeedParser.parse(data, display: "feed.xml") else { return }
            for item in feed.items {
                if case .html(let html, let base) = item.body {
                    ScriptFreeCheck.assertSafe(HTMLSanitizer(base: base).sanitize(html), input: data)
                }
            }
        case .movies:
            MovieFuzzing.shared.run(data)
        case .json:
            // Any bytes: a value or an error with its place, never a crash or a hang.
            _ = try? JSONParser.parse(data)
        case .markdown:
            let markdown = String(decoding: data, as: UTF8.self)
            let (html, blocks) = MarkdownRenderer.renderWithTextBlocks(markdown) { url, role in URLPolicy.resolveWeb(url, role: role, base: nil) }
            ScriptFreeCheck.assertSafe(html, input: data)
            // The layout reads the text from the Markdown's tree: it must be the text of the HTML,
            // whether read during rendering or from a parse of its own.
            if let blocks, blocks != TextBlocks.blocks(fromHTML: html) || blocks != MarkdownRenderer.textBlocks(of: markdown) {
                FileHandle.standardError.write(Data("text from the tree differs from the HTML's:\n\(html)\n\(blocks)\n".utf8))
                abort()
            }
        case .layout:
            LayoutFuzzing.shared.run(data)
        case .sanitizer:
            let html = HTMLSanitizer(base: URL(string: "https://example.org/feed/")).sanitize(String(decoding: data, as: UTF8.self))
            ScriptFreeCheck.assertSafe(html, input: data)
        case .template:
            // Any text: compiled, or an error placed inside the text; compiled, it renders.
            TemplateFuzzing.run(String(decoding: data, as: UTF8.self))
        }
    }
}

/// The property the sanitizer (and cmark's safe mode) must keep: nothing in the output can run
/// script, whatever the input.
enum ScriptFreeCheck {
    static let forbiddenElements: Set<String> = ["script", "style", "iframe", "object", "embed", "frame", "frameset", "svg", "math", "form", "base", "link", "meta"]
    static let urlAttributes: Set<String> = ["href", "src", "cite", "action", "formaction", "xlink:href", "background", "poster"]

    static func assertSafe(_ html: String, input: Data) {
        if let problem = problem(in: HTMLParser.parseFragment(html)) {
            FileHandle.standardError.write(Data("unsafe output (\(problem)):\n\(html)\n".utf8))
            abort()
        }
    }

    static func problem(in nodes: [HTMLNode]) -> String? {
        for node in nodes {
            guard case .element(let name, let attributes, let children) = node else { continue }
            if forbiddenElements.contains(name) { return "<\(name)>" }
            for attribute in attributes {
                if attribute.name.hasPrefix("on") { return "\(attribute.name)=" }
                if attribute.name == "style" || attribute.name == "srcdoc" { return "\(attribute.name)=" }
                if urlAttributes.contains(attribute.name) {
                    let scheme = URLPolicy.scheme(of: URLPolicy.clean(attribute.value)) ?? "relative"
                    if !["http", "https", "mailto", "relative"].contains(scheme) { return "\(attribute.name)=\(scheme):" }
                }
            }
            if let problem = problem(in: children) { return problem }
        }
        return nil
    }
}

/// The movie loader needs a site folder and a build context: made once, reused for every input.
final class MovieFuzzing: Sendable {
    static let shared = MovieFuzzing()
    let file: URL
    let source: MovieListSource
    let context: BuildContext

    /// This process's site folder, removed when the process exits.
    static let folder = FileManager.default.temporaryDirectory.appending(path: "marquee-fuzz-\(getpid())")

    init() {
        let root = Self.folder
        try? FileManager.default.createDirectory(at: root.appending(path: "Content"), withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: MovieFuzzing.folder) }
        file = root.appending(path: "Content/movies.json")
        source = MovieListSource(name: "fuzz", file: file)
        let theme = try! Theme.load(siteRoot: root)
        context = BuildContext(root: root, config: SiteConfig(title: "fuzz"), theme: theme)
    }

    func run(_ data: Data) {
        try? data.write(to: file)
        let semaphore = DispatchSemaphore(value: 0)
        let source = self.source, context = self.context
        Task {
            _ = try? await source.loadItems(in: context)
            semaphore.signal()
        }
        semaphore.wait()
    }
}

/// Line breaking measures untrusted text (feed titles and descriptions): on any text it must not
/// crash, and must break the same measured from tables as character by character
/// (``LineBreakingCheck``).
final class LayoutFuzzing: Sendable {
    static let shared = LayoutFuzzing()
    let engine: LayoutEngine

    init() {
        // A folder without Templates/: the default theme and its fonts.
        let measurer = try! Theme.load(siteRoot: URL(fileURLWithPath: "/nonexistent-marquee-site")).measurer
        engine = LayoutEngine(metrics: ThemeMetrics(), measurer: measurer)
    }

    /// The first byte chooses the size (body or title), preformatted text and which runs are bold;
    /// the rest is the text, cut into runs at U+0001.
    func run(_ data: Data) {
        guard let flags = data.first else { return }
        let text = String(decoding: data.dropFirst(), as: UTF8.self)
        let runs = text.split(separator: "\u{1}", omittingEmptySubsequences: false).enumerated().map { index, run in
            TextRun(String(run), bold: (Int(flags >> 2) + index) % 2 == 1)
        }
        let size = flags & 1 == 0 ? engine.metrics.bodyFontSize : engine.metrics.titleFontSize
        if let difference = LineBreakingCheck.difference(in: runs, size: size, preformatted: flags & 2 != 0, engine: engine) {
            FileHandle.standardError.write(Data("line counts differ: \(difference) for \(runs)\n".utf8))
            abort()
        }
    }
}

/// Templates are a site's own input: any text compiles or fails with a line and column inside
/// it, and a compiled template renders (partials included, itself too) without crashing.
enum TemplateFuzzing {
    static let values: TemplateObject = [
        "a": .text("<&>"), "yes": .flag(true), "no": .flag(false), "n": .number(3),
        "list": .list([.text("x"), .object(["a": .text("inner")]), .list([])]),
        "obj": .object(["a": .text("obj.a"), "list": .list([.number(1)])]),
    ]

    static func run(_ text: String) {
        let pages: PageTemplates
        do {
            pages = try PageTemplates.compiled(["main": text, "p": "({{a}}{{> main}})"])
        } catch {
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
            guard error.error.line >= 1, error.error.line <= lines, error.error.column >= 1 else {
                FileHandle.standardError.write(Data("error outside the text: \(error.error)\n".utf8))
                abort()
            }
            return
        }
        var output: [UInt8] = []
        _ = pages.render("main", values, into: &output)
    }
}
