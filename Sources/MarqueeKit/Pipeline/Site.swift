import Foundation

/// A site to build: where it lives, its configuration and its plugins, in order.
public struct Site: Sendable {
    /// The site folder (holding `Content/` and optionally `Templates/`).
    public var root: URL
    /// Where the built site goes (`ROOT/Site` by default).
    public var output: URL
    public var config: SiteConfig
    public var theme: Theme
    /// Every plugin, in registration order.
    public var plugins: [any Plugin]

    public init(root: URL, output: URL? = nil, config: SiteConfig, theme: Theme, plugins: [any Plugin]) {
        self.root = root.standardizedFileURL
        self.output = (output ?? root.appending(path: "Site")).standardizedFileURL
        self.config = config
        self.theme = theme
        self.plugins = plugins
    }

    /// The site described by `ROOT/Content/site.yml`, with the built-in plugins assembled from it:
    /// one source per `sources:` entry, then markup, normalize, layout, pages and assets.
    public static func fromConfig(root: URL, output: URL? = nil) throws(BuildError) -> Site {
        let root = root.standardizedFileURL
        let configFile = root.appending(path: "Content/site.yml")
        let config = try SiteConfig.load(from: configFile, displayName: configFile.path.hasPrefix(FileManager.default.currentDirectoryPath + "/Content/") ? "Content/site.yml" : configFile.path)
        let theme = try Theme.load(siteRoot: root)
        let content = root.appending(path: "Content")
        var plugins: [any Plugin] = []
        for source in config.sources {
            guard let path = source.path else { continue }
            let file = content.appending(path: path)
            switch source.type {
            case "movies":
                plugins.append(MovieListSource(name: source.name ?? "Movies", file: file, limit: source.limit))
            default:
                plugins.append(FeedSource(file: file, displayName: source.name, limit: source.limit))
            }
        }
        plugins += defaultPlugins
        return Site(root: root, output: output, config: config, theme: theme, plugins: plugins)
    }

    /// The built-in stages after the sources, in order.
    public static var defaultPlugins: [any Plugin] {
        [MarkupPlugin(), NormalizePlugin(), LayoutPlugin(), PageWriter(), AssetWriter()]
    }
}
