import Foundation

/// A value given to a plugin option in the config's `plugins:` section.
public enum PluginOptionValue: Sendable, Equatable {
    case int(Int)
    case bool(Bool)
    case string(String)
}

/// The config's `plugins:` entry for one built-in plugin.
public struct PluginSetting: Sendable, Equatable {
    /// False when the config turned the plugin off.
    public var enabled: Bool
    /// The options given, checked against the plugin's `Spec`.
    public var options: [String: PluginOptionValue]

    /// Creates a setting.
    public init(enabled: Bool = true, options: [String: PluginOptionValue] = [:]) {
        self.enabled = enabled
        self.options = options
    }

    /// The option's value when it is a number.
    public func int(_ name: String) -> Int? {
        if case .int(let value)? = options[name] { return value }
        return nil
    }

    /// The option's value when it is a boolean.
    public func bool(_ name: String) -> Bool? {
        if case .bool(let value)? = options[name] { return value }
        return nil
    }
}

/// The built-in plugins a config can turn on and off or pass options to:
///
/// ```yaml
/// plugins:
///   atom-feed: { limit: 20 }
///   layout: { image_lines: 2 }
///   site-files: false
/// ```
package enum BuiltinPlugins {
    /// What an option accepts.
    package enum OptionKind: Sendable {
        case int(ClosedRange<Int>)
        case bool
    }

    /// What a built-in plugin accepts in the config.
    package struct Spec: Sendable {
        /// The plugin's name in the config.
        package let name: String
        /// What the plugin does, for error messages.
        package let summary: String
        /// Plugins the site cannot work without can only take options.
        package let canDisable: Bool
        /// The options it takes.
        package let options: [(name: String, kind: OptionKind, help: String)]
    }

    /// Every configurable built-in, in pipeline order.
    package static let all: [Spec] = [
        Spec(name: "markup", summary: "Markdown with cmark, feed HTML through the sanitizer", canDisable: false,
             options: [("smart_punctuation", .bool, "curly quotes and dashes in Markdown (default true)")]),
        Spec(name: "normalize", summary: "duplicates, fallback titles, intros, slugs", canDisable: false, options: []),
        Spec(name: "images", summary: "local images resized into AVIF, WebP and JPEG with libvips", canDisable: false, options: []),
        Spec(name: "layout", summary: "the layout engine", canDisable: false,
             options: [("image_lines", .int(1...20), "collapsed lines of image cells (default: as many as fit beside the image)"),
                       ("basic_lines", .int(1...20), "collapsed lines of basic cells (default 3)")]),
        Spec(name: "pages", summary: "gallery, listings and detail pages", canDisable: false, options: []),
        Spec(name: "site-files", summary: "404.html, robots.txt, .nojekyll, sitemap.xml, search.json", canDisable: true, options: []),
        Spec(name: "atom-feed", summary: "feed.xml of the gallery", canDisable: true,
             options: [("limit", .int(1...10_000), "entries in the feed (default 50)")]),
        Spec(name: "assets", summary: "stylesheet, scripts, fonts and images", canDisable: false, options: []),
    ]

    /// The plugins after the sources, configured by `settings`, in pipeline order.
    package static func make(_ settings: [String: PluginSetting], imageFetcher: FeedFetcher? = nil) -> [any Plugin] {
        func setting(_ name: String) -> PluginSetting { settings[name] ?? PluginSetting() }
        var plugins: [any Plugin] = [
            MarkupPlugin(smartPunctuation: setting("markup").bool("smart_punctuation") ?? true),
            NormalizePlugin(),
            ImagePlugin(fetcher: imageFetcher),
            LayoutPlugin(imageLines: setting("layout").int("image_lines"), basicLines: setting("layout").int("basic_lines")),
            PageWriter(),
        ]
        if setting("site-files").enabled { plugins.append(SiteFilesWriter()) }
        if setting("atom-feed").enabled {
            var feed = AtomFeedWriter()
            feed.limit = setting("atom-feed").int("limit") ?? feed.limit
            plugins.append(feed)
        }
        plugins.append(AssetWriter())
        return plugins
    }

    /// Reads and checks the config's `plugins:` section.
    static func parse(_ node: ConfigNode) throws(BuildError) -> [String: PluginSetting] {
        let names = all.map(\.name)
        var settings: [String: PluginSetting] = [:]
        for (name, value) in try node.mapping(allowed: names) {
            let spec = all.first { $0.name == name }!
            if case .scalar(let scalar) = value.node, let enabled = Bool(scalar.string) {
                guard enabled || spec.canDisable else {
                    throw value.error("the \(name) plugin (\(spec.summary)) cannot be turned off; it only takes options.")
                }
                settings[name] = PluginSetting(enabled: enabled)
                continue
            }
            let allowed = spec.options.map(\.name)
            guard case .mapping = value.node, !allowed.isEmpty else {
                throw value.error(allowed.isEmpty
                    ? "the \(name) plugin takes no options; write `\(name): \(spec.canDisable ? "true or false" : "true")`."
                    : "expected true, false or options (\(allowed.joined(separator: ", "))).")
            }
            var options: [String: PluginOptionValue] = [:]
            for (option, optionValue) in try value.mapping(allowed: allowed) {
                switch spec.options.first(where: { $0.name == option })!.kind {
                case .int(let range): options[option] = .int(try optionValue.int(in: range))
                case .bool:
                    guard let flag = Bool(try optionValue.string()) else { throw optionValue.error("expected true or false.") }
                    options[option] = .bool(flag)
                }
            }
            settings[name] = PluginSetting(enabled: true, options: options)
        }
        return settings
    }
}
