import Foundation

/// What a build did, for the one-line summary.
public struct BuildReport: Sendable {
    /// Items in the site.
    public var items: Int
    /// HTML pages written.
    public var pages: Int
    /// Files in the output.
    public var files: Int
    /// Files in the output.
    public var filesWritten: Int
    /// Files in the output.
    public var filesUnchanged: Int
    /// Wall-clock time of the build.
    public var seconds: Double
    /// Problems that did not stop the build.
    public var warnings: [BuildWarning]
    /// The output folder.
    public var output: URL

    /// `Built 15 items into 17 pages (24 files, 3 written) in 0.42 s → Site/ (1 warning)`
    public func summary(relativeTo root: URL) -> String {
        let outputPath = output.path.hasPrefix(root.path + "/") ? String(output.path.dropFirst(root.path.count + 1)) : output.path
        var line = "Built \(items) item\(items == 1 ? "" : "s") into \(pages) page\(pages == 1 ? "" : "s")"
        line += " (\(files) files, \(filesWritten) written) in \(String(format: "%.2f", seconds)) s → \(outputPath)/"
        if !warnings.isEmpty { line += " (\(warnings.count) warning\(warnings.count == 1 ? "" : "s"))" }
        return line
    }
}

/// Runs a site's plugins stage by stage and writes the result atomically.
public struct SiteBuilder: Sendable {
    /// The site being built.
    public let site: Site
    private let progress: @Sendable (String) -> Void

    /// Creates a builder; `progress` receives progress lines and warnings as they happen.
    public init(site: Site, progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.site = site
        self.progress = progress
    }

    /// Builds the site. On any error the output folder is left exactly as it was.
    public func build() async throws(BuildError) -> BuildReport {
        let started = ContinuousClock.now
        try checkOutputLocation()
        let context = BuildContext(root: site.root, config: site.config, theme: site.theme, progress: progress)
        var items = try await loadAll(context)
        for plugin in site.plugins {
            try run(plugin) { try plugin.transformItems(&items, in: context) }
        }
        for plugin in site.plugins {
            try run(plugin) { try plugin.layOutItems(&items, in: context) }
        }
        let output = OutputSet()
        for plugin in site.plugins {
            try run(plugin) { try plugin.writeOutputs(for: items, into: output, in: context) }
        }
        var files = output.files
        for plugin in site.plugins {
            try run(plugin) {
                for index in files.indices { try plugin.postProcess(&files[index], in: context) }
            }
        }
        let written = try AtomicOutput.write(files, to: site.output)
        let elapsed = started.duration(to: .now)
        return BuildReport(
            items: items.count, pages: files.filter(\.isPage).count, files: files.count,
            filesWritten: written.written, filesUnchanged: written.unchanged,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            warnings: context.warnings, output: site.output)
    }

    /// Runs every plugin's load hook concurrently and keeps their items in registration order.
    private func loadAll(_ context: BuildContext) async throws(BuildError) -> [Item] {
        let plugins = site.plugins
        do {
            return try await withThrowingTaskGroup(of: (Int, [Item]).self) { group in
                for (index, plugin) in plugins.enumerated() {
                    group.addTask {
                        do {
                            return (index, try await plugin.loadItems(in: context))
                        } catch {
                            throw Self.attribute(error, to: plugin)
                        }
                    }
                }
                var results = [[Item]](repeating: [], count: plugins.count)
                for try await (index, items) in group { results[index] = items }
                return results.flatMap { $0 }
            }
        } catch let error as BuildError {
            throw error
        } catch {
            throw BuildError("\(error)")
        }
    }

    private func run(_ plugin: any Plugin, _ body: () throws -> Void) throws(BuildError) {
        do {
            try body()
        } catch {
            throw Self.attribute(error, to: plugin)
        }
    }

    /// Errors from plugins name the plugin; errors that are not ``BuildError``s keep their text.
    static func attribute(_ error: any Error, to plugin: any Plugin) -> BuildError {
        if var buildError = error as? BuildError {
            if buildError.plugin == nil && !isBuiltIn(plugin) { buildError.plugin = plugin.name }
            return buildError
        }
        return BuildError("\(error)", plugin: plugin.name)
    }

    static func isBuiltIn(_ plugin: any Plugin) -> Bool {
        plugin is MovieListSource || plugin is FeedSource || plugin is MarkupPlugin || plugin is NormalizePlugin
            || plugin is LayoutPlugin || plugin is PageWriter || plugin is AssetWriter || plugin is SiteFilesWriter
            || plugin is AtomFeedWriter
    }

    /// Refuses output folders that would replace the site's own inputs.
    private func checkOutputLocation() throws(BuildError) {
        let output = site.output.path
        let root = site.root.path
        let content = site.root.appending(path: "Content").path
        if output == root || root.hasPrefix(output + "/") || output == content || content.hasPrefix(output + "/") || output.hasPrefix(content + "/") || output == "/" {
            throw BuildError(file: output, "the output folder would replace the site's own files; choose a separate folder such as ROOT/Site.")
        }
    }
}
