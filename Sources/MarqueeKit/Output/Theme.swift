import Foundation

/// The look of a site: Mustache templates, static assets (CSS, JS) and the metrics the layout
/// engine shares with the stylesheet.
///
/// The default theme is the repository's `Templates/` folder, embedded in the binary at build
/// time. A site overrides any file by putting one with the same path in its own `Templates/`.
public struct Theme: Sendable {
    /// Sizes shared by the layout engine and the stylesheet.
    package let metrics: ThemeMetrics
    /// The Mustache templates (`layout`, `gallery`, `cell-basic`, `cell-image`, `item`, `404` and
    /// any partials), compiled and ready to render pages (see ``PageTemplates``).
    let pages: PageTemplates
    /// The theme's assets as written into the site, with fingerprinted names.
    package let assets: ThemeAssets
    /// A hash of everything the theme puts into a site: every template (partials too), every
    /// asset's path and contents, and the metrics. Part of what a rebuild compares (see
    /// ``BuildState/environment(of:)``), so that an edit to any of them is seen.
    package let fingerprint: String
    /// ``metrics`` as ``describe(_:)`` gives it (worked out once).
    let metricsDescription: String
    /// The policy of the pages made with this theme's layout.
    let contentSecurityPolicy: ContentSecurityPolicy
    /// Measures text in the theme's fonts, parsed on first use (once per process): a rebuild
    /// that finds nothing changed never needs them.
    package var measurer: TextMeasurer {
        get throws(BuildError) {
            TextMeasurer(
                regular: try FontCache.shared.metrics(for: metrics.regularFont),
                bold: try FontCache.shared.metrics(for: metrics.boldFont),
                fallback: try FontCache.shared.metrics(for: metrics.fallbackFont),
                fallbackRanges: metrics.fallbackRanges)
        }
    }

    /// The templates every theme must provide.
    package static let requiredTemplates = ["layout", "gallery", "cell-basic", "cell-image", "item", "404"]

    /// Loads the default theme with the site's overrides from `siteRoot/Templates`. With
    /// `digestCache`, the fonts' digests are remembered in that file between loads (see
    /// ``FileDigestCache``); a build keeps them in `ROOT/.marquee-cache/file-digests`.
    package static func load(siteRoot: URL, metrics: ThemeMetrics = ThemeMetrics(), digestCache: URL? = nil) throws(BuildError) -> Theme {
        var files = defaultFiles()
        for (path, data) in readFolder(siteRoot.appending(path: "Templates")) { files[path] = data }

        let themeFiles = files, assetFiles = files.filter { $0.key.hasPrefix("assets/") }
        let fontDigests = FileDigestCache(file: digestCache)
        // Independent parts of every build (no-op ones too), made side by side: the assets
        // (hashing megabytes of fonts, unless their digests are remembered), and the templates
        // (compiled) with the metrics' description.
        let (assetsResult, (templatesResult, metricsDescription)) = concurrently(
            {
                Result { () throws(BuildError) in
                    defer { fontDigests.save() }
                    return try ThemeAssets.make(themeFiles: assetFiles, metrics: metrics, fontDigests: fontDigests)
                }
            },
            { (Result { () throws(BuildError) in try templates(in: themeFiles) }, describe(metrics)) })
        let (templateTexts, pages) = try templatesResult.get()
        let assets = try assetsResult.get()
        return Theme(
            metrics: metrics, pages: pages, assets: assets,
            fingerprint: fingerprint(templates: templateTexts, assets: assets, metricsDescription: metricsDescription),
            metricsDescription: metricsDescription,
            contentSecurityPolicy: ContentSecurityPolicy(layout: templateTexts["layout"] ?? ""))
    }

    /// `metrics` described for comparing between builds (``metricsDescription``). The default
    /// metrics are a fixed token rather than described by reflection, which is slow (the runtime
    /// searches this large program's conformances for each type it meets): whatever compares
    /// these descriptions also compares the program that made them
    /// (``BuildState/executableStamp``), so a default changed in another build of Marquee shows.
    static func describe(_ metrics: ThemeMetrics) -> String {
        metrics == ThemeMetrics() ? "ThemeMetrics(default)" : StableDescription.of(metrics)
    }

    /// The theme's templates (the `.mustache` files at the top of `files`): their texts by name,
    /// and compiled; every required one must be there. Templates with exactly the default
    /// theme's bytes (not overridden, or copied by `marquee init`) are compiled once per process.
    private static func templates(in files: [String: Data]) throws(BuildError) -> ([String: String], PageTemplates) {
        var templateTexts: [String: String] = [:]
        var isDefault = true
        for (path, data) in files where path.hasSuffix(".mustache") && !path.contains("/") {
            let name = String(path.dropLast(".mustache".count))
            if let text = DefaultTheme.texts[path], DefaultTheme.files[path]?.elementsEqual(data) == true {
                templateTexts[name] = text
            } else {
                templateTexts[name] = String(decoding: data, as: UTF8.self)
                isDefault = false
            }
        }
        for name in requiredTemplates where templateTexts[name] == nil {
            throw BuildError(file: "Templates/\(name).mustache", "the theme has no `\(name)` template; restore it or remove the override folder.")
        }
        do {
            let pages = isDefault ? try DefaultTheme.pages.get() : try PageTemplates.compiled(templateTexts)
            return (templateTexts, pages)
        } catch {
            throw BuildError(
                file: "Templates/\(error.name).mustache", place: .lineColumn(line: error.error.line, column: error.error.column),
                "cannot parse the template: \(error.error.message).")
        }
    }

    private static func fingerprint(templates: [String: String], assets: ThemeAssets, metricsDescription: String) -> String {
        var hasher = StableHasher("theme")
        for (name, text) in templates.sorted(by: { $0.key < $1.key }) {
            hasher.combine(name)
            hasher.combine(text)
        }
        for (path, file) in assets.files.sorted(by: { $0.key < $1.key }) {
            hasher.combine(path)
            hasher.combine(Int(truncatingIfNeeded: file.digest))
        }
        hasher.combine(metricsDescription)
        return hasher.hex
    }

    /// The embedded default theme, path → contents.
    static func defaultFiles() -> [String: Data] {
        DefaultTheme.files.mapValues { Data($0) }
    }

    /// Starts decoding the default theme and parsing its templates on another thread, for the
    /// next ``load(siteRoot:metrics:digestCache:)``: `marquee` calls this before it reads its
    /// arguments, which keeps one core busy while the other idles.
    /// (A load that comes first waits for it, or does it, and it is never done twice.)
    package static func prepareDefault() {
        Thread.detachNewThread { _ = DefaultTheme.pages }
    }

    private static func readFolder(_ folder: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let base = folder.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return files }
        for case let file as URL in walker {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                  let data = try? Data(contentsOf: file)
            else { continue }
            let relative = String(file.standardizedFileURL.path.dropFirst(base.count + 1))
            if !relative.hasPrefix(".") { files[relative] = data }
        }
        return files
    }
}

/// The default theme, decoded from the binary and its templates compiled once per process
/// (each build would otherwise start by compiling the same six templates). Held in forms
/// LeakSanitizer can follow from a global (arrays, structs, strings; not `Data` or the
/// compiler's tree, whose references carry tag bits), since they live until exit.
private enum DefaultTheme {
    /// Path → contents.
    static let files: [String: [UInt8]] = {
        var files: [String: [UInt8]] = [:]
        for (path, base64) in EmbeddedTheme.files {
            files[path] = Data(base64Encoded: base64).map { Array($0) } ?? []
        }
        return files
    }()

    /// The templates' texts (`.mustache` files at the top), by path.
    static let texts: [String: String] = {
        var texts: [String: String] = [:]
        for (path, bytes) in files where path.hasSuffix(".mustache") && !path.contains("/") {
            texts[path] = String(decoding: bytes, as: UTF8.self)
        }
        return texts
    }()

    /// ``texts`` compiled (a mistake in them fails every build that uses them, with its place).
    static let pages: Result<PageTemplates, PageTemplates.NamedTemplateError> = {
        var named: [String: String] = [:]
        for (path, text) in texts { named[String(path.dropLast(".mustache".count))] = text }
        return Result { () throws(PageTemplates.NamedTemplateError) in try PageTemplates.compiled(named) }
    }()
}

/// Font files are parsed once per process, however many builds run (the preview server
/// rebuilds), and again only when a file changes on disk.
final class FontCache: Sendable {
    static let shared = FontCache()
    /// Per font file: its ``FileIO/changeStamp(of:)`` when it was parsed, and its metrics.
    private let cache = Locked<[String: (stamp: [Int], metrics: FontMetrics)]>([:])

    /// The font file's bytes, for the site's assets (read for each theme: only the metrics are
    /// kept for the process).
    func bytes(of url: URL) throws(BuildError) -> Data {
        guard let bytes = FileIO.contents(of: url.path) else { throw FontMetrics.unreadable(url) }
        return bytes
    }

    /// The font's metrics, parsed from the file as it is now (a file replaced or rewritten since
    /// it was parsed is parsed again).
    func metrics(for url: URL) throws(BuildError) -> FontMetrics {
        let stamp = FileIO.changeStamp(of: url.path)
        if let stamp, let known = cache.withLock({ $0[url.path] }), known.stamp == stamp { return known.metrics }
        guard let stamp else { throw FontMetrics.unreadable(url) }
        let metrics = try FontMetrics(contentsOf: url)
        // Written to while it was read, the file is parsed again next time.
        if FileIO.changeStamp(of: url.path) == stamp { cache.withLock { $0[url.path] = (stamp, metrics) } }
        return metrics
    }
}
