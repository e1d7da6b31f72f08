import Foundation
import Hummingbird
import Logging
import NIOPosix

/// The preview folder as Hummingbird's `FileMiddleware` reads it. The middleware brings the
/// serving (`index.html` for folders and the redirect to their trailing slash, `ETag` and
/// `Last-Modified` with `304`, ranges, `HEAD`, MIME types); this provider decides which paths
/// name a file, and lets none lead out of the folder or to another host.
struct PreviewFiles: FileProvider {
    /// What the middleware needs of a file.
    struct Attributes: FileMiddlewareFileAttributes, Sendable {
        let isFolder: Bool
        let size: Int
        /// To the nanosecond the file system keeps: the middleware makes the `ETag` of this and
        /// the size, and a rebuild can rewrite a page at the same size within one second.
        let modificationDate: Date
    }

    /// The preview folder.
    let root: URL
    private let files: LocalFileSystem

    /// Serves `root`, reading files on `threads`; `logger` receives the folder's path once.
    init(root: URL, threads: NIOThreadPool, logger: Logger) {
        self.root = root.standardizedFileURL
        files = LocalFileSystem(rootFolder: self.root.path, threadPool: threads, logger: logger)
    }

    /// The file a request path names (percent-decoded by the middleware, which refuses `..`),
    /// when the path is plain: no empty, `.` or `..` segment, no backslash or NUL. A folder's
    /// redirect repeats its path with a `/` added, so a path such as `//items` must name nothing:
    /// browsers would read its redirect as the address of another host.
    func getFileIdentifier(_ path: String) -> String? {
        guard path.hasPrefix("/"), !path.contains("\0"), !path.contains("\\") else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        // A folder's path ends in `/`, which leaves the last segment empty.
        let isPlain = segments.allSatisfy { $0 != "." && $0 != ".." } && !segments.dropLast().contains("")
        return isPlain ? files.getFileIdentifier(path) : nil
    }

    /// The file's attributes, or nil when it is missing or, its symlinks resolved, outside the
    /// preview folder.
    func getAttributes(id path: String) async throws -> Attributes? {
        let inside = root.resolvingSymlinksInPath().path
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard resolved == inside || resolved.hasPrefix(inside + "/") else { return nil }
        var status = stat()
        guard stat(resolved, &status) == 0 else { return nil }
        let modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
        return Attributes(
            isFolder: status.st_mode & S_IFMT == S_IFDIR, size: Int(status.st_size),
            modificationDate: Date(timeIntervalSince1970: modified))
    }

    func loadFile(id path: String, context: some RequestContext) async throws -> ResponseBody {
        try await files.loadFile(id: path, context: context)
    }

    func loadFile(id path: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        try await files.loadFile(id: path, range: range, context: context)
    }
}
