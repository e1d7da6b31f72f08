import Foundation

/// A site to build: where it lives, its configuration and its plugins, in order.
public struct Site: Sendable {
    /// The site folder (holding `Content/` and optionally `Templates/`).
    public var root: URL
    /// Where the built site goes (`ROOT/Site` by default).
    public var output: URL
    /// The site's configuration.
    public var config: SiteConfig
    /// Templates, assets and metrics.
    public var theme: Theme
    /// Every plugin, in registration order.
    public var plugins: [any Plugin]
    /// ``SiteConfig/outputSettings`` of the configuration as it was read, made beside the theme's
    /// loading (it is made by reflection, which is slow), with the configuration it describes.
    private var describedConfig: (config: SiteConfig, settings: String)?
    /// The caches of the documents the site's sources fetch, saved as each build ends.
    var fetchCaches: [FeedCache] = []

    /// Creates a site from its parts; `output` defaults to `root/Site`.
    public init(root: URL, output: URL? = nil, config: SiteConfig, theme: Theme, plugins: [any Plugin]) {
        self.root = root.standardizedFileURL
        self.output = (output ?? root.appending(path: "Site")).standardizedFileURL
        self.config = config
        self.theme = theme
        self.plugins = plugins
    }

    /// The site described by `ROOT/Content/site.yml`, with the built-in plugins assembled from it:
    /// one source per `sources:` entry, then markup, normalize, layout, pages, site files, feed and assets.
    ///
    /// Remote feeds are fetched with the default timeouts and limits and cached in
    /// `ROOT/.marquee-cache/feeds`. `baseURL`, when given, replaces the config's `base_url`.
    public static func fromConfig(root: URL, output: URL? = nil, baseURL: URL? = nil) throws(BuildError) -> Site {
        try fromConfig(root: root, output: output, baseURL: baseURL, fetchOptions: FeedFetcher.Options())
    }

    /// ``fromConfig(root:output:baseURL:)`` with remote feeds fetched under `fetchOptions`.
    package static func fromConfig(
        root: URL, output: URL?, baseURL: URL?, fetchOptions: FeedFetcher.Options
    ) throws(BuildError) -> Site {
        let root = root.standardizedFileURL
        let configFile = root.appending(path: "Content/site.yml")
        let displayName = configFile.path.hasPrefix(FileManager.default.currentDirectoryPath + "/Content/") ? "Content/site.yml" : configFile.path
        // The configuration and the theme, which every build (a no-op one too) reads, are read
        // side by side; a broken configuration is still the error reported first.
        // The configuration's settings are described for the build state in the same go: the
        // theme takes longer, and a core would otherwise wait.
        let (configResult, themeResult) = concurrently(
            {
                Result { () throws(BuildError) in
                    var config = try SiteConfig.load(from: configFile, displayName: displayName)
                    if let baseURL { config.baseURL = try SiteConfig.normalizedBaseURL(baseURL.absoluteString, node: nil) }
                    return (config, config.outputSettings)
                }
            },
            { Result { () throws(BuildError) in try Theme.load(siteRoot: root, digestCache: root.appending(path: ".marquee-cache/file-digests")) } })
        let (config, settings) = try configResult.get()
        let theme = try themeResult.get()
        let content = root.appending(path: "Content")
        var plugins: [any Plugin] = []
        let needsFetcher = config.sources.contains { $0.url != nil || $0.type == "opml" }
        var fetchOptions = fetchOptions
        if let site = config.baseURL { fetchOptions.userAgent = FeedFetcher.userAgent(site: site) }
        let fetcher = needsFetcher ? FeedFetcher(cache: FeedCache(folder: root.appending(path: ".marquee-cache/feeds")), options: fetchOptions) : nil
        for source in config.sources {
            // With a filter, the limit counts the items it keeps.
            let limit = source.filter.keepsEverything ? source.limit : nil
            let plugin: any Plugin
            switch (source.type, source.path, source.url) {
            case ("movies", let path?, _):
                plugin = MovieListSource(name: source.name ?? "Movies", file: content.appending(path: path), limit: limit)
            case ("movies", _, let url?):
                plugin = MovieListSource(name: source.name ?? "Movies", location: .remote(url), limit: limit, fetcher: fetcher)
            case ("opml", let path, let url):
                // Its `limit:` is each feed's.
                let location: FeedLocation = url.map { .remote($0) } ?? .file(content.appending(path: path ?? ""))
                plugin = OPMLSource(location: location, limit: source.limit, fetcher: fetcher)
                plugins.append(source.filter.keepsEverything ? plugin : FilteredSource(source: plugin, filter: source.filter, limit: nil))
                continue
            case (_, _, let url?):
                plugin = FeedSource(location: .remote(url), displayName: source.name, limit: limit, fetcher: fetcher)
            case (_, let path?, _):
                plugin = FeedSource(location: .file(content.appending(path: path)), displayName: source.name, limit: limit)
            default:
                continue
            }
            plugins.append(source.filter.keepsEverything ? plugin : FilteredSource(source: plugin, filter: source.filter, limit: source.limit))
        }
        // Downloaded images are fetched like feeds, and kept apart from them.
        let imageFetcher = config.downloadsImages
            ? FeedFetcher(cache: FeedCache(folder: root.appending(path: ".marquee-cache/images/remote")), options: fetchOptions) : nil
        plugins += BuiltinPlugins.make(config.plugins, imageFetcher: imageFetcher)
        var site = Site(root: root, output: output, config: config, theme: theme, plugins: plugins)
        site.describedConfig = (config, settings)
        site.fetchCaches = [fetcher, imageFetcher].compactMap { $0?.cache }
        return site
    }

    /// ``SiteConfig/outputSettings`` of ``config``: described when the site was read, unless the
    /// configuration was changed since.
    var outputSettings: String {
        if let describedConfig, describedConfig.config == config { return describedConfig.settings }
        return config.outputSettings
    }

    /// The local files the plugins say their items are loaded from (``Plugin/itemFiles(in:)``),
    /// in plugin order, and whether every plugin could say (a remote feed cannot).
    public func itemFiles(in context: BuildContext) -> (files: [URL], complete: Bool) {
        let declared = plugins.map { $0.itemFiles(in: context) }
        return (declared.compactMap { $0 }.flatMap { $0 }, !declared.contains { $0 == nil })
    }

    /// The built-in stages after the sources, in order, with their default settings.
    public static var defaultPlugins: [any Plugin] { BuiltinPlugins.make([:]) }
}
