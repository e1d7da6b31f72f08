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
