import Foundation

/// Local image files that items refer to (a movie's `Photo: images/arrival.svg`), which the
/// build copies into the site under `media/` or, for the images cells and detail pages show,
/// hands to the image stage (``ImagePlugin``) to be resized and encoded.
///
/// Only image files inside the site's `Content/` folder are accepted, so that a crafted path
/// (`../../etc/passwd`, or a symlink pointing out) can never publish a private file.
public final class LocalAssets: Sendable {
    /// File name extensions accepted as images.
    public static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "avif", "svg"]

    private let contentDirectory: URL
    private let state = Locked<State>(State())

    private struct State {
        /// Source file → path inside the site, and back.
        var byFile: [String: String] = [:]
        var bySitePath: [String: String] = [:]
        /// Files copied as they are (images inside descriptions); the others are processed.
        var copied: Set<String> = []
    }

    init(contentDirectory: URL) {
        self.contentDirectory = contentDirectory
    }

    /// Registers `reference` (relative to `base`) and returns its path inside the site, such as
    /// `media/arrival.svg`. Throws a message (without file or place) when the file is not usable.
    /// An image that is `processed` is resized by the image stage instead of being copied (it is
    /// still copied if something else registers it to be).
    public func register(_ reference: String, relativeTo base: URL, processed: Bool = false) throws(LocalAssetProblem) -> String {
        let decoded = reference.removingPercentEncoding ?? reference
        let file = URL(fileURLWithPath: decoded, relativeTo: base).standardizedFileURL.resolvingSymlinksInPath()
        let inside = contentDirectory.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        guard file.path.hasPrefix(inside) else {
            throw LocalAssetProblem("\"\(reference)\" points outside the Content folder; keep images inside Content/")
        }
        guard Self.imageExtensions.contains(file.pathExtension.lowercased()) else {
            throw LocalAssetProblem("\"\(reference)\" is not an image (allowed: \(Self.imageExtensions.sorted().joined(separator: ", ")))")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw LocalAssetProblem("the image \"\(reference)\" does not exist (looked for \(file.path))")
        }
        return state.withLock { state in
            if !processed { state.copied.insert(file.path) }
            if let known = state.byFile[file.path] { return known }
            let name = Slug.fileName(file.deletingPathExtension().lastPathComponent)
            let ext = file.pathExtension.lowercased()
            var candidate = "media/\(name).\(ext)"
            var counter = 2
            while state.bySitePath[candidate] != nil {
                candidate = "media/\(name)-\(counter).\(ext)"
                counter += 1
            }
            state.byFile[file.path] = candidate
            state.bySitePath[candidate] = file.path
            return candidate
        }
    }

    /// Every file to copy into the site: source file → path inside the site.
    public var files: [(source: URL, sitePath: String)] {
        state.withLock { state in
            state.byFile.filter { state.copied.contains($0.key) }
                .map { (URL(fileURLWithPath: $0.key), $0.value) }.sorted { $0.sitePath < $1.sitePath }
        }
    }

    /// Every file registered, by its path inside the site.
    package var sources: [String: URL] {
        state.withLock { state in state.bySitePath.mapValues { URL(fileURLWithPath: $0) } }
    }
}

/// Why a local asset could not be used.
public struct LocalAssetProblem: Error, Sendable {
    /// Why the file was refused, for the user.
    public let message: String
    init(_ message: String) { self.message = message }
}
