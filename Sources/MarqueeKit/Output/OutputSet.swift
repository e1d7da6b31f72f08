import Foundation

/// One file of the built site, before it reaches the disk.
public struct OutputFile: Sendable {
    /// Path inside the output folder, with `/` separators (`items/arrival/index.html`).
    public var path: String
    /// The file's bytes.
    public var contents: Data

    /// Creates a file.
    public init(path: String, contents: Data) {
        self.path = path
        self.contents = contents
    }

    /// True for HTML pages.
    public var isPage: Bool { Self.isPage(path) }

    /// True when `path` names an HTML page.
    public static func isPage(_ path: String) -> Bool { path.hasSuffix(".html") }

    /// The contents as text (pages, stylesheets, scripts).
    public var text: String {
        get { String(decoding: contents, as: UTF8.self) }
        set { contents = Data(newValue.utf8) }
    }
}

/// The files a build produces. Writer plugins add to it, from any thread; each file is
/// post-processed and streamed to the staging folder as it is added (so pages need not all be
/// held in memory), and the builder commits the whole set at the end.
public final class OutputSet: Sendable {
    private let staged: StagedOutput
    private let postProcess: @Sendable (inout OutputFile) throws(BuildError) -> Void

    init(staged: StagedOutput, postProcess: @escaping @Sendable (inout OutputFile) throws(BuildError) -> Void) {
        self.staged = staged
        self.postProcess = postProcess
    }

    /// Adds a file; a later file with the same path replaces an earlier one. Throws when the path
    /// could leave the output folder or the file cannot be written.
    ///
    /// `digest` is a hash of everything the file was made from (see ``reuse(_:digest:)``).
    public func add(_ path: String, _ contents: Data, digest: UInt64? = nil) throws(BuildError) {
        try Self.checkSafe(path)
        var file = OutputFile(path: path, contents: contents)
        try postProcess(&file)
        try Self.checkSafe(file.path)
        if Self.isText(file.path) { file.contents = CleanText.cleanUTF8(file.contents) }
        try staged.put(file.path, file.contents, digest: digest)
    }

    /// Adds a text file, UTF-8 encoded.
    public func add(_ path: String, text: String, digest: UInt64? = nil) throws(BuildError) {
        try add(path, Data(text.utf8), digest: digest)
    }

    /// Keeps the file the previous build wrote at `path`, without making it again, when it was
    /// made from inputs with the same `digest` (a ``StableHasher`` value over everything the file
    /// depends on), the configuration, plugins and theme are the same, and the file is still as
    /// that build left it. Returns false when the file must be made and added.
    ///
    /// This is how a rebuild after a one-item edit renders two pages instead of all of them.
    public func reuse(_ path: String, digest: UInt64) -> Bool {
        staged.keepPrevious(path, ifDigest: digest)
    }

    /// The paths of every file added so far, sorted.
    public var paths: [String] { staged.paths.sorted() }

    /// Pages and the site's XML and JSON files: whatever a template, a plugin or an input put
    /// in them, they never carry a character ``CleanText`` removes.
    static func isText(_ path: String) -> Bool {
        path.hasSuffix(".html") || path.hasSuffix(".xml") || path.hasSuffix(".json") || path.hasSuffix(".txt")
    }

    private static func checkSafe(_ path: String) throws(BuildError) {
        guard isSafe(path) else {
            throw BuildError("refusing to write \"\(path)\": output paths must stay inside the output folder.")
        }
    }

    /// A relative path of plain segments: no empty, `.` or `..` segment, no backslash and no
    /// control character (NUL, newline…).
    static func isSafe(_ path: String) -> Bool {
        // One pass over the bytes (every page's path is checked twice): a segment is refused
        // when empty or when it is all dots and at most two long (`.`, `..`).
        var segmentLength = 0, dots = 0
        func segmentIsPlain() -> Bool { segmentLength > 0 && !(dots == segmentLength && dots <= 2) }
        for byte in path.utf8 {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") { return false }
            if byte == UInt8(ascii: "/") {
                guard segmentIsPlain() else { return false }
                segmentLength = 0
                dots = 0
            } else {
                segmentLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return segmentIsPlain()
    }
}

/// Links between pages of the built site.
public enum SiteURL {
    /// Written in front of site-internal URLs inside shared HTML (descriptions); each page
    /// replaces it with its own way back to the site root.
    public static let rootMarker = "marquee-root:/"

    /// The relative path from a page to the site root: `""` for `index.html`, `"../../"` for
    /// `items/x/index.html`.
    public static func relativeRoot(fromPage path: String) -> String {
        let bytes = path.utf8.span
        var depth = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "/") { depth += 1 }
        return String(repeating: "../", count: depth)
    }

    /// `html` with every site-root marker replaced by `root`; returns `html` untouched (and
    /// fast) when it has none, which is the common case.
    public static func resolveMarkers(in html: String, root: String) -> String {
        let found = html.utf8.span.position(of: markerBytes, from: 0) != nil
        return found ? html.replacingOccurrences(of: rootMarker, with: root) : html
    }

    private static let markerBytes = Array(rootMarker.utf8)

    /// `url` as seen from a page whose root is `root`: site paths get the prefix, absolute URLs pass.
    public static func resolve(_ url: String, root: String) -> String {
        if url.hasPrefix(rootMarker) { return root + url.dropFirst(rootMarker.count) }
        return URLPolicy.scheme(of: url) == nil && !url.hasPrefix("/") && !url.hasPrefix("#") ? root + url : url
    }
}
