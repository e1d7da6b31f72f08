import ArgumentParser
import Foundation
import MarqueeKit

struct Deploy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deploy",
        abstract: "Build the site and publish it to the git branch named in the config.",
        discussion: """
            Needs `deploy: {git: REMOTE, branch: gh-pages}` in Content/site.yml. The built Site/ \
            becomes the single commit of that branch, force-pushed. Nothing is pushed when the \
            build fails.
            """)

    @Option(name: .long, help: ArgumentHelp("The site folder, holding Content/site.yml.", valueName: "dir"))
    var root: String = "."

    @Option(help: "The commit message (default: a summary of the build).")
    var message: String?

    func run() async throws {
        let rootURL = URL(fileURLWithPath: root).standardizedFileURL
        do {
            let (report, commit, deploy) = try await GitDeployer.buildAndPublish(root: rootURL, message: message) { printError($0) }
            print(report.summary(relativeTo: rootURL))
            print("Pushed \(commit.prefix(10)) to \(deploy.git) \(deploy.branch).")
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    }
}
