import Foundation

/// What every plugin can see and use during one build.
public final class BuildContext: Sendable {
    /// The site folder (holding `Content/`, optionally `Templates/`).
    public let root: URL
    /// Where the site's inputs live (`ROOT/Content`).
    public let contentDirectory: URL
    /// The parsed site configuration.
    public let config: SiteConfig
    /// Theme metrics and templates.
    public let theme: Theme
    /// Local files (posters, images) the built site must contain.
    public let localAssets: LocalAssets
    /// Results of per-item work from the previous build, for skipping it when inputs repeat.
    public let memo: BuildMemo

    private let warningList = Locked<[BuildWarning]>([])
    private let sourceLines = Locked<[String]>([])
    private let progress: @Sendable (String) -> Void

    /// Creates the context of one build; `progress` receives progress lines and warnings.
    public init(
        root: URL, config: SiteConfig, theme: Theme, memo: BuildMemo = BuildMemo(),
        progress: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.root = root
        self.memo = memo
        self.contentDirectory = root.appending(path: "Content")
        self.config = config
        self.theme = theme
        self.localAssets = LocalAssets(contentDirectory: contentDirectory)
        self.progress = progress
    }

    /// Records a problem that does not stop the build; it is printed and counted in the summary.
    public func warn(_ warning: BuildWarning) {
        warningList.withLock { $0.append(warning) }
        progress(warning.description)
    }

    /// Reports progress on long work (printed by the CLI).
    public func report(_ message: String) { progress(message) }

    /// Every warning recorded so far.
    public var warnings: [BuildWarning] { warningList.withLock { $0 } }

    /// Records what a remote source's fetch did, for the build's report (``BuildReport/sources``).
    package func recordSource(_ line: String) {
        sourceLines.withLock { $0.append(line) }
    }

    /// The lines recorded by ``recordSource(_:)``, in the order of their sources' addresses
    /// (sources load side by side and finish in any order).
    package var sourceReport: [String] { sourceLines.withLock { $0 }.sorted() }

    /// A path as the user would type it: relative to the site root when inside it.
    public func displayPath(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let base = root.standardizedFileURL.path
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
        return path
    }
}
