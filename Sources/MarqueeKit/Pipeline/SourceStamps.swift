import Foundation

/// What a site's sources hold, as change stamps: every entry under `Content/` and `Templates/`,
/// and any other file the site's items are loaded from, with its device, inode, size, and
/// modification and change times (``FileIO/changeStamp(of:)``). Equal stamps mean nothing there
/// was added, removed or written since, even a file rewritten in place with its size and
/// modification time kept.
///
/// `marquee serve` polls these to know when to rebuild; a build stamps `Content/` the same way
/// to know when it can stop before loading.
package struct SourceStamps: Equatable, Sendable {
    private let stamps: [String]

    /// Stamps the folders `folders` (relative to `root`) and the files `files` outside them (a
    /// movie list at `../data/movies.json`) as they are now; a missing folder stamps as empty,
    /// a missing file as missing.
    package init(root: URL, folders: [String] = ["Content", "Templates"], files: [URL] = []) {
        let folderPaths = folders.map { root.appending(path: $0).standardizedFileURL.path }
        let outside = files.map(\.standardizedFileURL.path).filter { file in
            !folderPaths.contains { file.hasPrefix($0 + "/") }
        }
        stamps = folderPaths.map(Self.stamps(under:)) + Set(outside).sorted().map { $0 + ":" + Self.stamp(of: $0) }
    }

    /// `path:stamp` for every entry under `folder` (paths relative to it), sorted, as one string.
    static func stamps(under folder: String) -> String {
        stamps(under: folder, settingAside: []).all
    }

    /// ``stamps(under:)`` of `folder`, and the same without the entries whose paths (relative to
    /// `folder`) are in `setAside`.
    static func stamps(under folder: String, settingAside setAside: Set<String>) -> (all: String, rest: String) {
        var stamps: [(path: String, line: String)] = []
        FileIO.walk(folder) { path, _ in
            stamps.append((path, path + ":" + stamp(of: folder + "/" + path)))
        }
        stamps.sort { $0.line < $1.line }
        let all = stamps.map(\.line).joined(separator: ",")
        guard !setAside.isEmpty else { return (all, all) }
        return (all, stamps.filter { !setAside.contains($0.path) }.map(\.line).joined(separator: ","))
    }

    /// The change stamp of the entry at `path`, as text; empty when it is missing.
    private static func stamp(of path: String) -> String {
        (FileIO.changeStamp(of: path) ?? []).map(String.init).joined(separator: ":")
    }
}
