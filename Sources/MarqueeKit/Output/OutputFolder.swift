import Foundation

/// The folder a build may replace, checked before anything is written.
///
/// A build replaces its output folder whole, so it must never be pointed at something that is
/// not its own. The rules, all applied to paths with every symbolic link resolved (a link named
/// `Site` that leads to `Content/` is `Content/`):
///
/// - the output is never the site's root, nor a folder that holds it, nor one of the folders
///   that hold the site's inputs (`Content/`, `Templates/`, `.marquee-cache/`, `.git/`), nor a
///   folder inside or around them;
/// - the output is absent, empty, or holds the marker file a previous build wrote
///   (``markerName``); any other folder is refused unless the caller takes it over (`--force`),
///   after which the build marks it.
///
/// The preview folder `.marquee-cache/preview` is the one folder among the inputs' that a build
/// may write, and it is Marquee's own; reached through a link, it is checked as any other.
struct OutputFolder {
    /// The file every build writes at the top of its output, marking the folder as Marquee's.
    static let markerName = ".marquee-output"
    /// What the marker says to a person who opens it.
    static let markerText = """
        This folder is the output of a Marquee build. Every build replaces all of its contents.
        Do not keep your own files here.

        """
    /// The folders of a site that hold its inputs, relative to the root.
    static let inputFolders = ["Content", "Templates", ".marquee-cache", ".git"]
    /// The preview folder `marquee serve` builds into, relative to the root.
    static let previewFolder = ".marquee-cache/preview"

    /// The output folder with every symbolic link in its path resolved: where the build writes.
    let resolved: URL

    /// Checks that a build of the site at `root` may replace `output`; `takeOver` allows a folder
    /// that is neither empty nor marked.
    init(checking output: URL, root: URL, takeOver: Bool) throws(BuildError) {
        let shown = output.path
        let resolved = try Self.resolve(output, shown: shown)
        let root = try Self.resolve(root, shown: root.path)
        let rootURL = URL(fileURLWithPath: root)
        func refuse(_ what: String) -> BuildError {
            let subject = resolved == shown ? "this folder" : "this folder leads to \(resolved), which"
            return BuildError(file: shown, "\(subject) \(what); a build replaces everything in its output folder. Choose a separate folder such as \(root)/Site.")
        }
        if resolved == "/" || resolved == root || root.hasPrefix(resolved + "/") {
            throw refuse("holds the site itself")
        }
        // The preview folder itself, not reached through a link, lies in Marquee's own cache.
        if resolved != root + "/" + Self.previewFolder {
            for name in Self.inputFolders {
                let folder = try Self.resolve(rootURL.appending(path: name), shown: shown)
                if resolved == folder || folder.hasPrefix(resolved + "/") || resolved.hasPrefix(folder + "/") {
                    throw refuse("is, holds or lies inside the site's \(name)/")
                }
            }
            try Self.checkOwnership(of: resolved, shown: shown, takeOver: takeOver)
        }
        self.resolved = URL(filePath: resolved, directoryHint: .notDirectory)
    }

    /// Throws unless the folder at `path` is absent, empty, marked or taken over.
    private static func checkOwnership(of path: String, shown: String, takeOver: Bool) throws(BuildError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }  // absent: the build makes it
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw BuildError(file: shown, "this is a file, not a folder; choose a folder for the built site.")
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        if entries.isEmpty || takeOver { return }
        var marker = stat()
        if lstat(path + "/" + markerName, &marker) == 0 && marker.st_mode & S_IFMT == S_IFREG { return }
        throw BuildError(
            file: shown,
            "this folder is not empty and no Marquee build wrote it (it has no \(markerName) file), and a build replaces everything in it. "
                + "Choose an empty or new folder, or pass --force to `marquee build` to let it take this one over "
                + "(\(entries.count == 1 ? "the 1 entry" : "all \(entries.count) entries") in it will be deleted).")
    }

    /// `url`'s path with every symbolic link resolved; the part that does not exist yet is
    /// appended to its deepest existing folder, resolved. A link that leads nowhere is an error:
    /// where it would lead cannot be checked.
    static func resolve(_ url: URL, shown: String) throws(BuildError) -> String {
        var missing: [String] = []
        var existing = url.standardizedFileURL
        while true {
            var info = stat()
            if lstat(existing.path, &info) == 0 {
                guard let real = realpath(existing.path, nil) else {
                    throw BuildError(file: shown, "\(existing.path) is a symbolic link to a missing folder; remove it or make the folder it names.")
                }
                defer { free(real) }
                var path = String(cString: real)
                for name in missing.reversed() { path += (path.hasSuffix("/") ? "" : "/") + name }
                return path
            }
            if existing.path == "/" { return url.standardizedFileURL.path }
            missing.append(existing.lastPathComponent)
            existing = existing.deletingLastPathComponent()
        }
    }
}
