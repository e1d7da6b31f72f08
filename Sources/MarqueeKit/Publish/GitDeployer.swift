import Foundation

/// Publishes a built site to a branch of a git remote, the GitHub Pages way: the output folder
/// becomes the single commit of that branch (force-pushed), so the branch holds exactly the site.
package struct GitDeployer: Sendable {
    /// The remote as configured.
    package let remote: String
    /// The branch to publish to.
    package let branch: String
    /// The folder relative remotes are resolved against (the site root).
    package let workingDirectory: URL

    /// Creates a deployer.
    package init(remote: String, branch: String, workingDirectory: URL) {
        self.remote = remote
        self.branch = branch
        self.workingDirectory = workingDirectory
    }

    /// `marquee deploy`: builds the site at `root` and, only if the build succeeds, publishes its
    /// output to the remote and branch of the config's `deploy:` section.
    package static func buildAndPublish(
        root: URL, message: String? = nil, progress: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(BuildError) -> (report: BuildReport, commit: String, deploy: DeployConfig) {
        let site = try Site.fromConfig(root: root)
        guard let deploy = site.config.deploy else {
            throw BuildError(file: site.config.file, "there is no `deploy:` section; add `deploy: {git: REMOTE, branch: gh-pages}`.")
        }
        let report = try await SiteBuilder(site: site, progress: progress).build()
        let commitMessage = message ?? "Deploy \(site.config.title): \(report.items) items, \(report.pages) pages"
        let commit = try GitDeployer(remote: deploy.git, branch: deploy.branch, workingDirectory: site.root)
            .publish(site.output, message: commitMessage)
        return (report, commit, deploy)
    }

    /// Commits `site` and pushes it; returns the commit id.
    package func publish(_ site: URL, message: String) throws(BuildError) -> String {
        let fileManager = FileManager.default
        let stage = fileManager.temporaryDirectory.appending(path: "marquee-deploy-\(UUID().uuidString)")
        defer { try? fileManager.removeItem(at: stage) }
        do {
            try fileManager.createDirectory(at: stage, withIntermediateDirectories: true)
            // The marker is for the builds on this machine, not for readers of the site.
            for entry in try fileManager.contentsOfDirectory(atPath: site.path) where entry != OutputFolder.markerName {
                try fileManager.copyItem(at: site.appending(path: entry), to: stage.appending(path: entry))
            }
        } catch {
            throw BuildError(file: site.path, "cannot copy the site for deploying: \(error.localizedDescription)")
        }
        let target = resolvedRemote()
        try git(["init", "-q"], in: stage)
        try git(["checkout", "-q", "--orphan", branch], in: stage)
        try git(["add", "-A"], in: stage)
        var identity: [String] = []
        if (try? git(["config", "user.name"], in: workingDirectory))?.isEmpty ?? true {
            identity = ["-c", "user.name=Marquee", "-c", "user.email=marquee@localhost"]
        }
        try git(identity + ["commit", "-q", "-m", message], in: stage)
        let commit = try git(["rev-parse", "HEAD"], in: stage)
        try git(["push", "-q", "--force", target, "HEAD:refs/heads/\(branch)"], in: stage)
        return commit
    }

    /// A remote given as a relative path is relative to the site root; URLs pass as they are.
    func resolvedRemote() -> String {
        if remote.contains("://") || remote.contains("@") || remote.hasPrefix("/") { return remote }
        return workingDirectory.appending(path: remote).standardizedFileURL.path
    }

    @discardableResult
    private func git(_ arguments: [String], in folder: URL) throws(BuildError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = folder
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw BuildError("cannot run git (\(error.localizedDescription)); install git to deploy.")
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let detail = String(decoding: err, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw BuildError("git \(arguments.first(where: { !$0.hasPrefix("-") && !$0.contains("=") }) ?? "") failed: \(detail)")
        }
        return String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
