import Foundation

/// Removes staging and previous-output folders left by builds that were killed while writing
/// (`.Site.staging-*`, `.Site.previous-*` beside the output). Called under the build lock, so no
/// running build owns them. If a build died between its two renames, the previous output is
/// put back first.
enum StagingCleanup {
    static func run(output: URL) {
        let fileManager = FileManager.default
        let parent = output.deletingLastPathComponent()
        let name = output.lastPathComponent
        guard let entries = try? fileManager.contentsOfDirectory(atPath: parent.path) else { return }
        let previous = entries.filter { $0.hasPrefix(".\(name).previous-") }.sorted()
        if !fileManager.fileExists(atPath: output.path), let latest = previous.last {
            try? fileManager.moveItem(at: parent.appending(path: latest), to: output)
        }
        for entry in entries where entry.hasPrefix(".\(name).staging-") || entry.hasPrefix(".\(name).previous-") {
            try? fileManager.removeItem(at: parent.appending(path: entry))
        }
    }
}
