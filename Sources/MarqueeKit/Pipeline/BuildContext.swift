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
    private let mappedInputs = Locked<[(display: String, watch: InputWatch)]>([])
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

    /// Keeps the watch of an input mapped by ``InputFile/read(_:display:in:)`` (or of a font
    /// written as an asset, see ``ThemeAssets/sources``), to be checked by
    /// ``inputChangedWhileRead()`` (not the mapping, which goes when nothing reads it).
    func watch(_ watch: InputWatch, display: String) {
        mappedInputs.withLock { $0.append((display, watch)) }
    }

    /// An error naming the first input file that was written to while this build read it in
    /// place (see ``MappedInput``); nil when none was. The build checks before it commits its
    /// output, and when it fails: a file cut short reads as zeros, so the reason it failed on
    /// (a syntax error in half a file) would mislead.
    func inputChangedWhileRead() -> BuildError? {
        guard let changed = mappedInputs.withLock({ $0.first { $0.watch.hasChanged } }) else { return nil }
        return .changedWhileRead(changed.display)
    }

    /// Every warning recorded so far.
    public var warnings: [BuildWarning] { warningList.withLock { $0 } }

    /// A path as the user would type it: relative to the site root when inside it.
    public func displayPath(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let base = root.standardizedFileURL.path
        if path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
        return path
    }
}

extension BuildError {
    /// The error of a build that read `file` while another program wrote to it (a mapped input,
    /// a theme font): what it read may mix two versions, or hold zeros where the file was cut.
    static func changedWhileRead(_ file: String) -> BuildError {
        BuildError(file: file, "the file changed while the build was reading it; nothing was written. Build again once it is saved.")
    }
}
