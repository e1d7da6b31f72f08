import Foundation

/// What a build did, for the one-line summary.
public struct BuildReport: Sendable {
    /// Items in the site.
    public var items: Int
    /// HTML pages written.
    public var pages: Int
    /// Files in the output.
    public var files: Int
    /// Files written by this build (new or changed); the others were left as they were.
    public var filesWritten: Int
    /// Files of the output this build left as they were (same bytes, modification time kept).
    public var filesUnchanged: Int
    /// Wall-clock time of the build.
    public var seconds: Double
    /// Problems that did not stop the build.
    public var warnings: [BuildWarning]
    /// The output folder.
    public var output: URL
    /// One line per remote source: its address, what fetching it did (fetched, not modified,
    /// still fresh, asked to wait, failed and why, offline) and the items it gave.
    public var sources: [String] = []

    /// `Built 15 items into 17 pages (24 files, 3 written) in 0.42 s → Site/ (1 warning)`
    public func summary(relativeTo root: URL) -> String {
        let outputPath = output.path.hasPrefix(root.path + "/") ? String(output.path.dropFirst(root.path.count + 1)) : output.path
        var line = "Built \(items) item\(items == 1 ? "" : "s") into \(pages) page\(pages == 1 ? "" : "s")"
        line += " (\(files) files, \(filesWritten) written) in \(seconds.fixedPoint(decimals: 2)) s → \(outputPath)/"
        if !warnings.isEmpty { line += " (\(warnings.count) warning\(warnings.count == 1 ? "" : "s"))" }
        return line
    }
}

extension Double {
    /// The number rounded to `decimals` places after the point, as `%.1f`, `%.2f`… write it.
    /// (Not `String(format:)`, whose arguments the runtime casts to `CVarArg` with lookups
    /// through every protocol conformance of this large binary, at the end of every build.)
    func fixedPoint(decimals: Int) -> String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let units = Int((abs(self) * Double(scale)).rounded(.toNearestOrEven))
        let fraction = String(units % scale)
        let sign = self.sign == .minus ? "-" : ""
        guard decimals > 0 else { return sign + String(units) }
        return sign + String(units / scale) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}

/// Wall and CPU time per stage, printed with `MARQUEE_TIMINGS=1` (for profiling). A stage whose
/// CPU time is well under twice its wall time (on two cores) left a core idle.
struct StageTimings {
    private let started: ContinuousClock.Instant
    private var last = ContinuousClock.now
    private var lastCPU = StageTimings.processCPU()
    private var laps: [(name: String, wall: Double, cpu: Double)] = []
    /// Receives each stage that ends after `after` seconds of the build (see
    /// ``SiteBuilder/reportsStagesAfter``).
    private let stageReports: (after: Double, report: (String) -> Void)?

    init(started: ContinuousClock.Instant = .now, stageReports: (after: Double, report: (String) -> Void)? = nil) {
        self.started = started
        self.stageReports = stageReports
    }

    mutating func lap(_ name: String) {
        let now = ContinuousClock.now, cpu = Self.processCPU()
        let wall = SiteBuilder.seconds(now - last)
        laps.append((name, wall, cpu - lastCPU))
        last = now
        lastCPU = cpu
        let elapsed = SiteBuilder.seconds(now - started)
        if let stageReports, elapsed >= stageReports.after, wall > Self.shownStage {
            stageReports.report("\(name): done at \(elapsed.fixedPoint(decimals: 1)) s")
        }
    }

    /// Hands ``summary`` to `progress` when `MARQUEE_TIMINGS` is set.
    func report(to progress: (String) -> Void) {
        if ProcessInfo.processInfo.environment["MARQUEE_TIMINGS"] != nil { progress(summary) }
    }

    /// Stages of this many seconds or less (plugins with nothing to do at that stage) are not shown.
    private static let shownStage = 0.001

    /// `timings: load 0.056 s, …` and, on a second line, `cpu: load 0.090 s, …`.
    var summary: String {
        let shown = laps.filter { $0.wall > Self.shownStage }
        func line(_ title: String, _ value: ((name: String, wall: Double, cpu: Double)) -> Double) -> String {
            title + shown.map { "\($0.name) \(value($0).fixedPoint(decimals: 3)) s" }.joined(separator: ", ")
        }
        return line("timings: ", \.wall) + "\n" + line("cpu: ", \.cpu)
    }

    /// User and system CPU time of the whole process so far, in seconds.
    private static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

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
    public func build() async throws(BuildError) -> BuildReport {
        let started = ContinuousClock.now
        let timings = StageTimings(started: started, stageReports: reportsStagesAfter.map { ($0, progress) })
        // The output is checked and written by its real path: a link named as the output is
        // followed only once where it leads has been checked, and nothing is done through it.
        var site = site
        site.output = try OutputFolder(checking: site.output, root: site.root, takeOver: takesOverOutput).resolved
        let lock = try BuildLock(output: site.output)
        defer { withExtendedLifetime(lock) {} }
        StagingCleanup.run(output: site.output)
        let memo = BuildMemo(file: BuildMemo.file(for: site))
        let context = BuildContext(root: site.root, config: site.config, theme: site.theme, memo: memo, progress: progress)
        return try await build(site, in: context, started: started, timings: timings)
    }

    /// The build after its lock is taken and its context made.
    private func build(_ site: Site, in context: BuildContext, started: ContinuousClock.Instant, timings: StageTimings) async throws(BuildError) -> BuildReport {
        var timings = timings
        let memo = context.memo
        let environment = BuildState.environment(of: site)
        // What the items come from, stamped before anything is read (a file changed while this
        // build runs then differs from what the state records, and the next build loads it).
        let itemFiles = site.itemFiles(in: context)
        let contentStamps = BuildState.contentStamps(of: site, itemFiles: itemFiles.files)
        let inputs = itemFiles.complete
            ? BuildState.inputs(files: itemFiles.files, contentStamps: contentStamps.all, environment: environment) : nil
        timings.lap("prepare")
        // None of that changed since the last build, and its output is untouched: stop before loading.
        // (The state's first line tells whether reading all of it is worth it.)
        var stateRead: BuildState?
        if let inputs, BuildState.recordedInputs(for: site) == inputs {
            stateRead = BuildState.load(for: site)
            if let state = stateRead, state.inputs == inputs, state.matches(site.output) {
                timings.lap("check inputs and output")
                return unchanged(state, output: site.output, started: started, timings: timings, context: context)
            }
        }
        // Beside loading, one task maps the memo (which loading looks things up in once its files
        // are read) and then reads the previous build's state, unless the check above read it
        // already. One task, not one each: two would take both threads of a two-core machine's
        // pool, and the loading would start only when one of them ended.
        let knownState = stateRead
        async let previousState: BuildState? = {
            memo.prepare()
            return knownState ?? BuildState.load(for: site)
        }()
        var items = try await loadAll(context)
        timings.lap("load")
        // Nothing changed since the last build (same items and settings, output untouched): stop here.
        let fingerprint = BuildState.fingerprint(items: &items, contentStamps: contentStamps.besideItemFiles, environment: environment)
        timings.lap("fingerprint")
        let previous = await previousState
        timings.lap("load state")
        if let state = previous, state.fingerprint == fingerprint, state.matches(site.output) {
            timings.lap("check output")
            var state = state
            // The same items from inputs stamped differently (a file saved unchanged): record the
            // new stamps, so that the next build can stop before loading.
            if let inputs, state.inputs != inputs {
                let saved = state
                state.inputs = inputs
                state.save(for: site, replacing: saved, changed: ([], []))
            }
            return unchanged(state, output: site.output, started: started, timings: timings, context: context)
        }
        // Whether the output is as the last build left it (which files are untouched, so that
        // pages made from the same values are kept without being written; whether any folder
        // changed, or its files are the state's without reading it) is checked on the side while
        // the stages run: its twenty thousand `stat`s fill the time a core waits in the stages'
        // serial parts. Nothing in the output changes before the commit. (Another program
        // writing into the output during a build may leave a file the state does not list,
        // however late the check; a later build that finds a folder's time differing from the
        // state's reads the output. Started beside loading instead, the check slowed loading
        // down more than it saved.)
        let lastState = previous
        async let outputCheck = lastState?.check(site.output)
        for plugin in site.plugins {
            do {
                try await plugin.transformItems(&items, in: context)
            } catch {
                throw Self.attribute(error, to: plugin)
            }
            timings.lap("transform \(plugin.name)")
        }
        for plugin in site.plugins {
            try run(plugin) { try plugin.layOutItems(&items, in: context) }
        }
        timings.lap("lay out")
        let check = await outputCheck
        timings.lap("check output")
        let staged = try StagedOutput(output: site.output, previous: previous?.files ?? [:], untouchedFiles: check?.untouchedFiles)
        let result: StagedOutput.Result
        let outputHoldsPrevious: Bool
        do throws(BuildError) {
            let plugins = site.plugins
            let output = OutputSet(staged: staged, previous: previous, environment: environment) { (file: inout OutputFile) throws(BuildError) in
                for plugin in plugins {
                    do {
                        try plugin.postProcess(&file, in: context)
                    } catch {
                        throw Self.attribute(error, to: plugin)
                    }
                }
            }
            try output.add(OutputFolder.markerName, text: OutputFolder.markerText)
            for plugin in site.plugins {
                try run(plugin) { try plugin.writeOutputs(for: items, into: output, in: context) }
                timings.lap("write \(plugin.name)")
            }
            outputHoldsPrevious = check?.foldersUnchanged == true
            result = try staged.commit(outputHoldsPrevious: outputHoldsPrevious)
        } catch {
            staged.discard()
            throw error
        }
        timings.lap("commit")
        // Nothing reads the items from here on. Freeing them (every string and array of every
        // item) is serial work as long as the commit and the saving of the state, which leave a
        // core idle: it is done by a task of its own, awaited before the build returns.
        let itemCount = items.count
        let itemsReleased = Task.detached { [items] in _ = items.count }
        items = []
        // The memo (megabytes for a large site) is written while the state is made and written.
        async let memoSaved: Void = memo.save()
        let recorded = staged.recorded()
        let pages = recorded.count { OutputFile.isPage($0.path) }
        let folders = BuildState.folderStamps(
            holding: recorded, in: site.output, known: outputHoldsPrevious ? previous : nil, changes: result.changes)
        let state = BuildState(
            fingerprint: fingerprint, environment: environment, inputs: inputs ?? "-", items: itemCount, pages: pages,
            files: recorded, folders: folders.stamps)
        // Only the lines of the files recorded anew or removed, and of the folders read again,
        // can differ from the previous build's state.
        let changedFiles = staged.recordedAnew() + staged.removedPrevious()
        state.save(for: site, replacing: previous, changed: folders.reread.map { (changedFiles, $0) })
        await memoSaved
        await itemsReleased.value
        timings.lap("save state and memo")
        timings.report(to: progress)
        return BuildReport(
            items: itemCount, pages: pages, files: recorded.count,
            filesWritten: result.written, filesUnchanged: result.unchanged,
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
