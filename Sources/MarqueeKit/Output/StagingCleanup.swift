import Foundation

/// Tidies what builds that were killed while writing left beside the output. Called under the
/// build lock, so no running build owns any of it:
///
/// - a change journal (`.Site.journal`) is finished first (its moves and removals completed);
/// - if a build died between the two renames of a full swap, the previous output is put back;
/// - staging and previous-output folders (`.Site.staging-*`, `.Site.previous-*`) are removed.
enum StagingCleanup {
    static func run(output: URL) {
        ChangeJournal.recover(output: output)
        let fileManager = FileManager.default
        let parent = output.deletingLastPathComponent()
        let name = output.lastPathComponent
        guard let entries = try? fileManager.contentsOfDirectory(atPath: parent.path) else { return }
        let previous = entries.filter { $0.hasPrefix(".\(name).previous-") }.sorted()
        if !fileManager.fileExists(atPath: output.path), let latest = previous.last {
            try? fileManager.moveItem(at: parent.appending(path: latest), to: output)
        }
        for entry in entries where entry.hasPrefix(".\(name).staging-") || entry.hasPrefix(".\(name).previous-") || entry == ".\(name).journal.draft" {
            try? fileManager.removeItem(at: parent.appending(path: entry))
        }
    }
}
