import Foundation
import Yams

/// The site's configuration, read from `Content/site.yml`.
///
/// ```yaml
/// title: "2016 Movies & Popular Art"
/// expand: multiple          # or single (an accordion)
/// sources:
///   - type: movies
///     path: movies.json
///   - type: feed
///     path: feeds/popular.xml
/// ```
public struct SiteConfig: Sendable, Equatable {
    /// How many cells may be expanded at once.
    public enum ExpandMode: String, Sendable, CaseIterable {
        case multiple, single
    }

    /// The site's title, in every page's header.
    public var title: String
    /// A sentence about the site, under the gallery's title and in meta tags.
    public var description: String
    /// Language of the site's text, for `<html lang>`.
    public var language: String
    /// Several open cells at once, or one (an accordion).
    public var expand: ExpandMode
    /// The title shown for items without one.
    public var titleFallback: String
    /// The longest intro, in characters, before it is cut with "…".
    public var introLength: Int
    /// The sources, in order.
    public var sources: [SourceConfig]
    /// Where the site will live, such as `https://user.github.io/gallery/` (always ending in `/`).
    /// Needed for absolute URLs: canonical links, OpenGraph, `sitemap.xml`, `feed.xml`.
    public var baseURL: URL?
    /// Cells per gallery page.
    public var pageSize: Int = 50
    /// Where `marquee deploy` publishes.
    public var deploy: DeployConfig?
    /// Whether images of remote feeds are downloaded and processed like local ones
    /// (`images: {download: true}`), so that no page links the image's host; off, they are linked.
    public var downloadsImages = false
    /// Settings of the built-in plugins, from the `plugins:` section (absent: defaults).
    public var plugins: [String: PluginSetting] = [:]
    /// The file the configuration was read from, for error messages.
    public var file: String

    /// Creates a configuration in code.
    public init(
        title: String, description: String = "", language: String = "en", expand: ExpandMode = .multiple,
        titleFallback: String = "[No Title]", introLength: Int = 200, sources: [SourceConfig] = [],
        file: String = "Content/site.yml"
    ) {
        self.title = title
        self.description = description
        self.language = language
        self.expand = expand
        self.titleFallback = titleFallback
        self.introLength = introLength
        self.sources = sources
        self.file = file
    }
}

extension SiteConfig {
    /// Every setting that can change the built site, as text that is the same in every process
    /// (part of ``BuildState/environment(of:)``): each field by name, strings quoted and escaped,
    /// plugin settings sorted. Where the configuration was read from (``file`` and the sources'
    /// ``SourceConfig/place``) is left out: it only serves error messages, and it changes with the
    /// working folder, or when a comment is added above a source.
    ///
    /// Written out field by field rather than described by reflection (``StableDescription``):
    /// every build, a no-op one too, starts with it, and reflection has the runtime search this
    /// large program's protocol conformances for each type it meets. A test checks that it names
    /// every field of these types.
    var outputSettings: String {
        func quoted(_ text: String?) -> String { text.map(\.debugDescription) ?? "nil" }
        func number(_ value: Int?) -> String { value.map(String.init) ?? "nil" }
        func fields(_ type: String, _ fields: KeyValuePairs<String, String>) -> String {
            type + "(" + fields.map { $0.key + ": " + $0.value }.joined(separator: ", ") + ")"
        }
        let sources = self.sources.map { source in
            fields("SourceConfig", [
                "type": quoted(source.type), "path": quoted(source.path), "url": quoted(source.url?.absoluteString),
                "name": quoted(source.name), "limit": number(source.limit), "filter": source.filter.settingsDescription,
            ])
        }
        let plugins = self.plugins.map { name, setting in
            let options = setting.options.map { option, value in
                let described = switch value {
                case .int(let number): "int(\(number))"
                case .bool(let flag): "bool(\(flag))"
                case .string(let text): "string(\(quoted(text)))"
                }
                return quoted(option) + ": " + described
            }
            return quoted(name) + ": " + fields("PluginSetting", ["enabled": "\(setting.enabled)", "options": "[" + options.sorted().joined(separator: ", ") + "]"])
        }
        let deploy = self.deploy.map { fields("DeployConfig", ["git": quoted($0.git), "branch": quoted($0.branch)]) } ?? "nil"
        return fields("SiteConfig", [
            "title": quoted(title), "description": quoted(description), "language": quoted(language), "expand": expand.rawValue,
            "titleFallback": quoted(titleFallback), "introLength": number(introLength),
            "sources": "[" + sources.joined(separator: ", ") + "]", "baseURL": quoted(baseURL?.absoluteString),
            "pageSize": number(pageSize), "deploy": deploy, "plugins": "[" + plugins.sorted().joined(separator: ", ") + "]",
            "downloadsImages": downloadsImages ? "true" : "false",
        ])
    }
}

extension SiteConfig {
    static let allowedKeys = [
        "title", "description", "language", "base_url", "expand", "page_size", "title_fallback", "intro_length", "sources", "plugins",
        "deploy", "images",
    ]
    static let allowedSourceKeys = ["type", "path", "url", "name", "limit", "include", "exclude", "since"]
    /// The source types the built-in plugins read.
    public static let sourceTypes = ["movies", "feed", "opml"]

    /// Reads and checks a configuration file. Unknown keys, wrong types and unknown source
    /// types are errors that name the place and list what is allowed.
    public static func load(from file: URL, displayName: String) throws(BuildError) -> SiteConfig {
        let data: Data
        do {
            // Read up to one byte past the limit, whatever the file is (a device never ends).
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            data = try handle.read(upToCount: maximumSize + 1) ?? Data()
        } catch {
            throw BuildError(file: displayName, "cannot read the site configuration (\(error.localizedDescription)). Pass --root with the site folder (the one holding Content/site.yml), or create that file (see the README).")
        }
        guard data.count <= maximumSize else {
            throw BuildError(file: displayName, "the configuration is larger than \(maximumSize / 1024) KiB; a site's settings fit in a few lines (list feeds by their URLs).")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw BuildError(file: displayName, "the configuration is not UTF-8 text; save it as UTF-8.")
        }
        return try parse(text, file: displayName)
    }

    /// The largest configuration file read.
    static let maximumSize = 256 * 1024
    /// The most values a configuration may hold with YAML's aliases expanded (an alias repeats
    /// what its anchor holds, so a few lines of nested aliases can stand for billions of values).
    static let maximumValues = 100_000

    /// Parses configuration text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(BuildError) -> SiteConfig {
        let root: Node
        do {
            // Values are read as text and checked here, so YAML's tag resolution (regular
            // expressions compiled on first use, on every build) is left out.
            if let problem = ConfigShapeCheck.problem(in: text, maximumValues: maximumValues) {
                throw BuildError(file: file, place: .lineColumn(line: problem.line, column: problem.column), problem.message)
            }
            guard let node = try Yams.compose(yaml: text, .basic) else {
                throw BuildError(file: file, "the configuration is empty; it needs at least `title:` and `sources:`.")
            }
            root = node
        } catch let error as BuildError {
            throw error
        } catch let error as YamlError {
            throw yamlError(error, file: file)
        } catch {
            throw BuildError(file: file, "cannot parse YAML: \(error)")
        }
        let reader = ConfigNode(node: root, path: "", file: file)
        let top = try reader.mapping(allowed: allowedKeys)
        var config = SiteConfig(title: try top["title"]?.string() ?? "", file: file)
        guard !config.title.isEmpty else {
            throw BuildError(file: file, place: .lineColumn(line: 1, column: 1), "`title:` is missing; give the site a title.")
        }
        config.description = try top["description"]?.string() ?? ""
        config.language = try top["language"]?.string() ?? "en"
        if let expand = top["expand"] {
            let value = try expand.string()
            guard let mode = ExpandMode(rawValue: value) else {
                throw expand.error("`expand: \(ConfigNode.excerpt(value))` is not known; use one of: \(ExpandMode.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            config.expand = mode
        }
        if let base = top["base_url"] {
            config.baseURL = try normalizedBaseURL(base.string(), node: base)
        }
        config.pageSize = try top["page_size"]?.int(in: 1...10_000) ?? config.pageSize
        if let deploy = top["deploy"] {
            let fields = try deploy.mapping(allowed: ["git", "branch"])
            guard let git = try fields["git"]?.string(), !git.isEmpty else {
                throw deploy.error("`deploy:` needs `git:` (a remote URL or path) and optionally `branch:` (default gh-pages).")
            }
            config.deploy = DeployConfig(git: git, branch: try fields["branch"]?.string() ?? "gh-pages")
        }
        if let plugins = top["plugins"] { config.plugins = try BuiltinPlugins.parse(plugins) }
        if let images = top["images"] {
            let fields = try images.mapping(allowed: ["download"])
            if let download = fields["download"] {
                guard let value = Bool(try download.string()) else { throw download.error("expected true or false.") }
                config.downloadsImages = value
            }
        }
        config.titleFallback = try top["title_fallback"]?.string() ?? config.titleFallback
        config.introLength = try top["intro_length"]?.int(in: 20...5000) ?? config.introLength
        guard let sources = top["sources"] else {
            throw BuildError(file: file, "`sources:` is missing; list at least one source (type: movies or feed, with a path).")
        }
        for entry in try sources.sequence() {
            let fields = try entry.mapping(allowed: allowedSourceKeys)
            guard let typeNode = fields["type"] else {
                throw entry.error("this source has no `type:`; use one of: \(sourceTypes.joined(separator: ", ")).")
            }
            let type = try typeNode.string()
            guard sourceTypes.contains(type) else {
                throw typeNode.error("unknown source type \(ConfigNode.excerpt(type)); use one of: \(sourceTypes.joined(separator: ", ")).")
            }
            let path = try fields["path"]?.string()
            var url: URL?
            if let urlNode = fields["url"] {
                let text = try urlNode.string()
                guard let parsed = URL(string: text), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
                    throw urlNode.error("\(ConfigNode.excerpt(text)) is not an http(s) URL.")
                }
                url = parsed
            }
            if path != nil && url != nil { throw entry.error("give either `path:` or `url:`, not both.") }
            guard (path?.isEmpty == false) || url != nil else {
                throw entry.error("this \(type) source has no `path:` or `url:`; give the file's path relative to Content/, or its http(s) address.")
            }
            var source = SourceConfig(
                type: type, path: path, name: try fields["name"]?.string(),
                limit: try fields["limit"]?.int(in: 1...1_000_000), place: entry.place)
            source.url = url
            source.filter = try filter(fields)
            config.sources.append(source)
        }
        return config
    }

    /// A source's `include:`, `exclude:` (a list, or one entry) and `since:` settings.
    private static func filter(_ fields: [String: ConfigNode]) throws(BuildError) -> ItemFilter {
        func patterns(_ key: String) throws(BuildError) -> [ItemPattern] {
            guard let node = fields[key] else { return [] }
            let entries = if case .scalar = node.node { [node] } else { try node.sequence() }
            var patterns: [ItemPattern] = []
            for entry in entries {
                let text = try entry.string()
                guard !text.isEmpty else { throw entry.error("an empty entry matches nothing; remove it.") }
                do {
                    patterns.append(try ItemPattern(text))
                } catch {
                    throw entry.error("\(ConfigNode.excerpt(text)) is not a regular expression: \(error)")
                }
            }
            return patterns
        }
        var filter = ItemFilter(include: try patterns("include"), exclude: try patterns("exclude"))
        if let node = fields["since"] {
            let text = try node.string()
            guard let seconds = ItemFilter.seconds(inAge: text) else {
                throw node.error("\(ConfigNode.excerpt(text)) is not an age; write a number and a unit: 90m, 12h, 30d or 8w.")
            }
            filter.since = seconds
        }
        return filter
    }

    /// An http(s) URL ending in `/`.
    static func normalizedBaseURL(_ text: String, node: ConfigNode?) throws(BuildError) -> URL {
        var text = text.trimmingCharacters(in: .whitespaces)
        if !text.hasSuffix("/") { text += "/" }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            let message = "\(ConfigNode.excerpt(text)) is not an http(s) URL; write the address the site will have, such as https://user.github.io/gallery/."
            throw node?.error(message) ?? BuildError(message)
        }
        return url
    }

    private static func yamlError(_ error: YamlError, file: String) -> BuildError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _):
            return BuildError(file: file, place: .lineColumn(line: mark.line, column: mark.column), "invalid YAML: \(problem).")
        case .composer(_, let problem, let mark, _):
            return BuildError(file: file, place: .lineColumn(line: mark.line, column: mark.column), "invalid YAML: \(problem).")
        default:
            return BuildError(file: file, "invalid YAML: \(error)")
        }
    }
}
