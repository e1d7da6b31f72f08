/// The config's `deploy:` section: a git remote and branch (the GitHub Pages way).
public struct DeployConfig: Sendable, Equatable {
    /// The remote: a URL, or a path relative to the site root.
    public var git: String
    /// The branch that receives the site.
    public var branch: String

    /// Creates a configuration in code.
    public init(git: String, branch: String = "gh-pages") {
        self.git = git
        self.branch = branch
    }
}
