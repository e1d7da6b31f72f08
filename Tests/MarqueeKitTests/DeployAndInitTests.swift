import Foundation
import Testing
import Yams
@testable import MarqueeKit

@Suite("marquee init and deploy", .removesTemporaryFolders)
struct DeployAndInitTests {
    func git(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "git \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }

    @Test func initScaffoldsASiteThatBuildsAndRefusesToOverwrite() async throws {
        let root = try TestSupport.temporaryFolder().appending(path: "new")
        let written = try SiteScaffold.create(in: root)
        #expect(written.contains("Content/site.yml"))
        #expect(written.contains("Templates/gallery.mustache"))
        let report = try await TestSupport.build(root)
        #expect(report.items == 5)
        #expect(report.warnings.isEmpty)
        #expect(throws: BuildError.self) { try SiteScaffold.create(in: root) }
        #expect(try SiteScaffold.create(in: root, force: true).count == written.count)
    }

    /// The workflow builds on push and every hour, keeps the cache between runs and publishes
    /// Site/ with Pages.
    @Test func initWritesAScheduledBuildWorkflow() throws {
        let root = try TestSupport.temporaryFolder().appending(path: "new")
        #expect(try SiteScaffold.create(in: root).contains(".github/workflows/marquee.yml"))
        let text = try String(contentsOf: root.appending(path: ".github/workflows/marquee.yml"), encoding: .utf8)
        let workflow = try #require(try Yams.load(yaml: text) as? [String: Any])
        let triggers = try #require(workflow["on"] as? [String: Any])
        let schedule = try #require(triggers["schedule"] as? [[String: String]])
        #expect(schedule.first?["cron"] == "17 * * * *")
        #expect(triggers["push"] != nil)
        let jobs = try #require(workflow["jobs"] as? [String: Any])
        let steps = try #require((jobs["build"] as? [String: Any])?["steps"] as? [[String: Any]])
        let caches = steps.filter { ($0["uses"] as? String)?.hasPrefix("actions/cache@") == true }.compactMap { ($0["with"] as? [String: Any])?["path"] as? String }
        #expect(caches.contains(".marquee-cache"))
        #expect(steps.contains { ($0["run"] as? String)?.contains("marquee\" build --root .") == true })
        #expect(steps.contains { ($0["with"] as? [String: Any])?["path"] as? String == "Site" })
        let publish = try #require((jobs["publish"] as? [String: Any])?["steps"] as? [[String: Any]])
        #expect(publish.first?["uses"] as? String == "actions/deploy-pages@v4")
    }

    /// A scaffolded site whose config deploys to a new bare repository; returns (site, remote).
    func siteWithRemote(deploy: (URL) -> String) throws -> (URL, URL) {
        let folder = try TestSupport.temporaryFolder()
        let remote = folder.appending(path: "remote.git")
        _ = try git(["init", "-q", "--bare", remote.path])
        let root = folder.appending(path: "site")
        try SiteScaffold.create(in: root)
        let config = root.appending(path: "Content/site.yml")
        try (String(contentsOf: config, encoding: .utf8) + deploy(remote)).write(to: config, atomically: true, encoding: .utf8)
        return (root, remote)
    }

    @Test func deployPushesTheSiteAsOneCommitToTheBranch() async throws {
        let (root, remote) = try siteWithRemote { _ in "deploy:\n  git: ../remote.git\n  branch: gh-pages\n" }

        for round in 1...2 {
            let (_, commit, _) = try await GitDeployer.buildAndPublish(root: root, message: "Deploy round \(round)")
            let site = try Site.fromConfig(root: root)
            let tree = try git(["--git-dir", remote.path, "ls-tree", "-r", "--name-only", "gh-pages"]).split(separator: "\n").map(String.init)
            #expect(tree.contains("index.html"))
            #expect(tree.contains(".nojekyll"))
            #expect(tree.contains("404.html"))
            #expect(tree.contains { $0.hasPrefix("items/") })
            // Everything the build wrote but the marker that tells later builds the folder is theirs.
            #expect(!tree.contains(OutputFolder.markerName))
            #expect(Set(tree) == Set(TestSupport.snapshot(site.output).keys).subtracting([OutputFolder.markerName]))
            let log = try git(["--git-dir", remote.path, "log", "--format=%H %s", "gh-pages"]).split(separator: "\n")
            #expect(log == ["\(commit) Deploy round \(round)"])
        }
    }

    @Test func aFailedBuildPushesNothing() async throws {
        let (root, remote) = try siteWithRemote { "deploy:\n  git: \($0.path)\n" }
        try "{broken".write(to: root.appending(path: "Content/movies.json"), atomically: true, encoding: .utf8)
        await #expect(throws: BuildError.self) { try await GitDeployer.buildAndPublish(root: root) }
        #expect(try git(["--git-dir", remote.path, "branch", "--list"]).isEmpty)
    }
}
