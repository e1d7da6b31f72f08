import Foundation
import MarqueeKit

/// Maps request paths to files of the output folder, refusing anything that could leave it:
/// `..` and `.` segments (also percent-encoded), backslashes, NUL bytes, and symlinks whose
/// target is outside the folder.
struct StaticFiles: Sendable {
    enum Lookup: Equatable {
        case file(URL)
        /// A folder requested without its trailing slash: redirect so relative links work.
        case redirect(String)
        case notFound
    }

    let root: URL

    init(root: URL) {
        self.root = root.standardizedFileURL
    }

    func lookup(_ rawPath: String) -> Lookup {
        let pathOnly = String(rawPath.prefix { $0 != "?" && $0 != "#" })
        guard let decoded = pathOnly.removingPercentEncoding, decoded.hasPrefix("/"),
              !decoded.contains("\u{0}"), !decoded.contains("\\")
        else { return .notFound }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        guard segments.allSatisfy({ $0 != ".." && $0 != "." }) else { return .notFound }
        var candidate = root
        for segment in segments { candidate.append(path: String(segment)) }
        guard isInside(candidate) else { return .notFound }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) else { return .notFound }
        if isDirectory.boolValue {
            // The location is rebuilt from the checked segments: the raw path could start with
            // `//` or `/\`, which browsers read as the address of another host.
            guard decoded.hasSuffix("/") else { return .redirect(Self.location(of: segments)) }
            let index = candidate.appending(path: "index.html")
            return FileManager.default.fileExists(atPath: index.path) && isInside(index) ? .file(index) : .notFound
        }
        return .file(candidate)
    }

    /// The local address of a folder: `/` and its segments, percent-encoded, ending in `/`.
    static func location(of segments: [Substring]) -> String {
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#;"))
        let encoded = segments.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return "/" + encoded.map { $0 + "/" }.joined()
    }

    /// True when the file, with every symlink resolved, is inside the root.
    private func isInside(_ url: URL) -> Bool {
        let resolvedRoot = root.resolvingSymlinksInPath().path
        let resolved = url.resolvingSymlinksInPath().path
        return resolved == resolvedRoot || resolved.hasPrefix(resolvedRoot + "/")
    }
}
