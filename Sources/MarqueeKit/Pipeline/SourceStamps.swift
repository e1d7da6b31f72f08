import Foundation

/// What a site's own folders hold, as change stamps: every entry under `Content/` and
/// `Templates/` with its device, inode, size, and modification and change times
/// (``FileIO/changeStamp(of:)``). Equal stamps mean nothing there was added, removed or
/// written since, even a file rewritten in place with its size and modification time kept.
///
/// `marquee serve` polls these to know when to rebuild; a build stamps `Content/` the same way
/// to know when it can stop before loading.
public struct SourceStamps: Equatable, Sendable {
    private let stamps: [String]

    /// Stamps the folders `folders` (relative to `root`) as they are now; a missing folder
    /// stamps as empty.
    public init(root: URL, folders: [String] = ["Content", "Templates"]) {
        stamps = folders.map { Self.stamps(under: root.appending(path: $0)) }
    }

    /// `path:stamp` for every entry under `folder` (paths relative to it), sorted, as one string.
    static func stamps(under folder: URL) -> String {
        let base = folder.path
        var stamps: [String] = []
        FileIO.walk(base) { path, _ in
            let stamp = FileIO.changeStamp(of: base + "/" + path) ?? []
            stamps.append(path + ":" + stamp.map(String.init).joined(separator: ":"))
        }
        return stamps.sorted().joined(separator: ",")
    }
}
