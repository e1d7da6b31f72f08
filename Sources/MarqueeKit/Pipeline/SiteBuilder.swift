import Foundation

/// Runs a site's plugins stage by stage and writes the result atomically.
public struct SiteBuilder: Sendable {
    /// The site being built.
    public let site: Site
    private let progress: @Sendable (String) -> Void

    /// When set, every stage that ends once the build has run this many seconds is reported
    /// through `progress` (`write pages: done at 4.2 s`), so that a long build shows where it is
    /// while a quick one prints nothing extra. `marquee build` sets 1 second; nil (the default)
    /// reports no stages.
    public var reportsStagesAfter: Double?

    /// Lets the build replace an output folder that is neither empty nor marked as a Marquee
    /// output (`marquee build --force`); the build then marks it. Folders that hold the site's
    /// inputs are refused all the same.
    public var takesOverOutput = false

    /// Creates a builder; `progress` receives progress lines and warnings as they happen.
    public init(site: Site, progress: @escaping @Sendable (String) -> Void = { _ in }) {
        self.site = site
        self.progress = progress
    }

    /// Builds the site. On any error the output folder is left exactly as it was.
    ///
    /// The recipe: load, transform, lay out, write, commit. Around it, ``IncrementalBuild``
    /// stops the build early when the last build's output is still right, and lets the stages
    /// and writers reuse what that build made.
    public func build() async throws(BuildError) -> BuildReport {
        let started = ContinuousClock.now
        var timings = StageTimings(started: started, stageReports: reportsStagesAfter.map { ($0, progress) })
        // The output is checked and written by its real path: a link named as the output is
        // followed only once where it leads has been checked, and nothing is done through it.
        var site = site
        site.output = try OutputFolder(checking: site.output, root: site.root, takeOver: takesOverOutput).resolved
        let lock = try BuildLock(output: site.output)
        defer { withExtendedLifetime(lock) {} }
        defer { for cache in site.fetchCaches { cache.save() } }
        StagingCleanup.run(output: site.output)
        let memo = BuildMemo(file: BuildMemo.file(for: site))
        let context = BuildContext(root: site.root, config: site.config, theme: site.theme, memo: memo, progress: progress)
        var incremental = IncrementalBuild(site: site, context: context)
        timings.lap("prepare")

        if let state = incremental.unchangedBeforeLoading() {
            timings.lap("check output")
            return unchanged(state, output: site.output, started: started, timings: timings, context: context)
        }
        incremental.startReadingPrevious()
        var items = try await loadAll(site.plugins, in: context)
        timings.lap("load")
        if let state = await incremental.unchangedAfterLoading(&items) {
            timings.lap("check output")
            return unchanged(state, output: site.output, started: started, timings: timings, context: context)
        }
        timings.lap("fingerprint")

        try await transform(&items, in: context, timings: &timings)
        try layOut(&items, in: context)
        timings.lap("lay out")

        let staged = try await incremental.stagedOutput()
        timings.lap("check output")
        try write(items, into: staged, in: context, timings: &timings)

        // Nothing reads the items or adds to the memo from here on. Saving the memo and freeing
        // the items (every string and array of every item) are serial work as long as the
        // commit and the state: a task of their own does them beside those, and is awaited
        // before the build returns or throws. (The memo holds results under the keys of what
        // made them: it is right to keep whether or not the commit succeeds.)
        let itemCount = items.count
        let memoSaved = Task.detached { [items, memo = context.memo] in
            memo.save()
            _ = items.count
        }
        items = []
        let committed: StagedOutput.Result
        do throws(BuildError) {
            committed = try staged.commit(outputHoldsPrevious: incremental.outputHoldsPrevious)
        } catch {
            staged.discard()
            await memoSaved.value
            throw error
        }
        timings.lap("commit")
        let recorded = incremental.remember(staged, result: committed, items: itemCount)
        await memoSaved.value
        timings.lap("save state and memo")
        timings.report(to: progress)
        return BuildReport(
            items: itemCount, pages: recorded.pages, files: recorded.files,
            filesWritten: committed.written, filesUnchanged: committed.unchanged,
            seconds: Self.seconds(since: started), warnings: context.warnings, output: site.output, sources: context.sourceReport)
    }

    /// The report of a build that found nothing to do.
    private func unchanged(_ state: BuildState, output: URL, started: ContinuousClock.Instant, timings: StageTimings, context: BuildContext) -> BuildReport {
        timings.report(to: progress)
        return BuildReport(
            items: state.items, pages: state.pages, files: state.files.count, filesWritten: 0,
            filesUnchanged: state.files.count, seconds: Self.seconds(since: started), warnings: context.warnings, output: output, sources: context.sourceReport)
    }

    /// Items a site may hold (a guard against runaway inputs, far above real galleries).
    public static let maximumItems = 1_000_000

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        seconds(start.duration(to: .now))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Stage 2: every plugin's transform, in registration order.
    private func transform(_ items: inout [Item], in context: BuildContext, timings: inout StageTimings) async throws(BuildError) {
        for plugin in site.plugins {
            do {
                try await plugin.transformItems(&items, in: context)
            } catch {
                throw Self.attribute(error, to: plugin)
            }
            timings.lap("transform \(plugin.name)")
        }
    }

    /// Stage 3: every plugin's layout, in registration order.
    private func layOut(_ items: inout [Item], in context: BuildContext) throws(BuildError) {
        for plugin in site.plugins {
            try run(plugin) { try plugin.layOutItems(&items, in: context) }
        }
    }

    /// Stages 4 and 5: every plugin's files, each post-processed by every plugin as it is
    /// added, into `staged` (discarded if a writer fails).
    private func write(_ items: [Item], into staged: StagedOutput, in context: BuildContext, timings: inout StageTimings) throws(BuildError) {
        let plugins = site.plugins
        let output = OutputSet(staged: staged) { (file: inout OutputFile) throws(BuildError) in
            for plugin in plugins {
                do {
                    try plugin.postProcess(&file, in: context)
                } catch {
                    throw Self.attribute(error, to: plugin)
                }
            }
        }
        do throws(BuildError) {
            try output.add(OutputFolder.markerName, text: OutputFolder.markerText)
            for plugin in plugins {
                try run(plugin) { try plugin.writeOutputs(for: items, into: output, in: context) }
                timings.lap("write \(plugin.name)")
            }
        } catch {
            staged.discard()
            throw error
        }
    }

    /// Runs every plugin's load hook concurrently and keeps their items in registration order.
    private func loadAll(_ plugins: [any Plugin], in context: BuildContext) async throws(BuildError) -> [Item] {
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
                let total = results.reduce(0) { $0 + $1.count }
                guard total <= Self.maximumItems else {
                    throw BuildError("the sources hold \(total) items, over the limit of \(Self.maximumItems); use `limit:` on the largest sources.")
                }
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
}
