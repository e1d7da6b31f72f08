import ArgumentParser
import Foundation
import MarqueeKit

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new site: config, sample movies and feed, and the default templates.")

    @Argument(help: ArgumentHelp("The folder to create the site in.", valueName: "dir"))
    var folder: String

    @Flag(help: "Write into a folder that already has files (the scaffold's own files are replaced).")
    var force = false

    func run() throws {
        let url = URL(fileURLWithPath: folder).standardizedFileURL
        do {
            let written = try SiteScaffold.create(in: url, force: force)
            print("Created a site in \(folder) (\(written.count) files). Next:")
            print("  marquee serve --root \(folder)     # preview with live reload")
            print("  marquee build --root \(folder)     # write \(folder)/Site")
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
    }
}
