import Foundation

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
