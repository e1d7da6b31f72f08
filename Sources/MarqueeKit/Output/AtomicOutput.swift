import Foundation

/// Writes a finished build into the output folder so that the folder is always either the
/// previous complete site or the new complete site, never a mix: the files go into a staging
/// folder beside it, which then replaces it by rename.
///
/// Files whose bytes did not change are hard-linked from the previous site instead of written,
/// so they keep their modification times (deploy tools then upload nothing for them).
public enum AtomicOutput {
    /// Statistics of one write.
    public struct Result: Sendable {
        /// Files written.
        public var written = 0
        /// Files kept from the previous output.
        public var unchanged = 0
    }

    /// Writes `files` as the new content of `output`; on error the old content stays.
    /// True when `output` already holds exactly `files`, byte for byte, and nothing else.
    static func isUnchanged(_ files: [OutputFile], output: URL) throws(BuildError) -> Bool {
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: output.path) else { return false }
        let expected = Set(files.map(\.path))
        var existing = 0
        if let walker = fileManager.enumerator(at: output, includingPropertiesForKeys: [.isRegularFileKey]) {
            let base = output.path.count + 1
            for case let url as URL in walker {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
                guard expected.contains(String(url.standardizedFileURL.path.dropFirst(base))) else { return false }
                existing += 1
            }
        }
        guard existing == files.count else { return false }
        let differs = (try? files.concurrentMap { file in
            fileManager.contents(atPath: output.appending(path: file.path).path) != file.contents
        }) ?? [true]
        return !differs.contains(true)
    }

    public static func write(_ files: [OutputFile], to output: URL) throws(BuildError) -> Result {
        let fileManager = FileManager.default
        let output = output.standardizedFileURL
        let parent = output.deletingLastPathComponent()
        let token = "\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        let staging = parent.appending(path: ".\(output.lastPathComponent).staging-\(token)")
        let previous = parent.appending(path: ".\(output.lastPathComponent).previous-\(token)")
        var result = Result()
        if try isUnchanged(files, output: output) {
            // Nothing to do: leave the folder (and every modification time) alone.
            result.unchanged = files.count
            return result
        }
        do {
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
            var createdFolders: Set<String> = []
            for file in files {
                let target = staging.appending(path: file.path)
                let folder = target.deletingLastPathComponent().path
                if createdFolders.insert(folder).inserted {
                    try fileManager.createDirectory(atPath: folder, withIntermediateDirectories: true)
                }
                let existing = output.appending(path: file.path)
                if let old = fileManager.contents(atPath: existing.path), old == file.contents, link(existing.path, target.path) == 0 {
                    result.unchanged += 1
                    continue
                }
                guard fileManager.createFile(atPath: target.path, contents: file.contents) else {
                    throw BuildError(file: target.path, "cannot write this file (is the disk full or the folder read-only?).")
                }
                result.written += 1
            }
            if fileManager.fileExists(atPath: output.path) {
                try fileManager.moveItem(at: output, to: previous)
                do {
                    try fileManager.moveItem(at: staging, to: output)
                } catch {
                    try? fileManager.moveItem(at: previous, to: output)
                    throw error
                }
                try? fileManager.removeItem(at: previous)
            } else {
                try fileManager.moveItem(at: staging, to: output)
            }
        } catch let error as BuildError {
            try? fileManager.removeItem(at: staging)
            throw error
        } catch {
            try? fileManager.removeItem(at: staging)
            throw BuildError(file: output.path, "cannot write the site: \(error.localizedDescription). The previous site was left as it was.")
        }
        return result
    }
}
