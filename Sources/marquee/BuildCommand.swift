import ArgumentParser
import Foundation
import MarqueeKit

struct Build: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here: the default name comes from `String(describing:)` of the type, whose
        // protocol lookups scan every conformance record of this large binary.
        commandName: "build",
        abstract: "Build the site into its output folder.",
        discussion: """
            Reads ROOT/Content/site.yml, loads every source, renders descriptions (Markdown with \
            cmark, feed HTML through the sanitizer), lays out the cells and writes the pages. \
            On an error nothing in the output folder changes. The output folder must be new, empty \
            or one a previous build wrote (see --force). A build that runs longer than a \
            second reports each stage as it ends.
            """)

    @Option(name: .long, help: ArgumentHelp("The site folder, holding Content/site.yml.", valueName: "dir"))
    var root: String = "."

    @Option(name: .long, help: ArgumentHelp("Where to write the site (default: ROOT/Site).", valueName: "dir"))
    var output: String?

    @Option(help: ArgumentHelp("The site's address, overriding base_url in the config.", valueName: "url"))
    var baseURL: String?

    @Flag(help: "Use cached copies of remote feeds; make no network requests.")
    var offline = false

    @Flag(help: ArgumentHelp(
        "Ask every remote feed's server again, even one that said its copy is still fresh or asked to wait.",
        discussion: "By default a feed is not asked for while its Cache-Control max-age or Expires lasts, nor after a 429 or 503 answer before its Retry-After time; the last good copy is used meanwhile."))
    var refresh = false

    @Option(help: ArgumentHelp("Seconds one remote feed may take.", valueName: "seconds"))
    var feedTimeout: Int = 15

    @Flag(help: ArgumentHelp(
        "Let the build take over an output folder that is not empty and was not written by Marquee, deleting what it holds.",
        discussion: "Without it such a folder is refused. Folders holding the site's inputs are refused all the same."))
    var force = false

    @Flag(name: .shortAndLong, help: "Print only errors and warnings.")
    var quiet = false

    func run() async throws {
        let rootURL = URL(fileURLWithPath: root).standardizedFileURL
        let outputURL = output.map { URL(fileURLWithPath: $0).standardizedFileURL }
        do {
            var fetchOptions = FeedFetcher.Options()
            fetchOptions.offline = offline
            fetchOptions.refresh = refresh
            fetchOptions.timeout = .seconds(max(1, feedTimeout))
            // Site.fromConfig checks the address and explains a bad one.
            let base = baseURL.map { URL(string: $0) ?? URL(fileURLWithPath: $0) }
            let site = try Site.fromConfig(root: rootURL, output: outputURL, baseURL: base, fetchOptions: fetchOptions)
            var builder = SiteBuilder(site: site, progress: { printError($0) })
            builder.takesOverOutput = force
            if !quiet { builder.reportsStagesAfter = 1 }
            let report = try await builder.build()
            if !quiet {
                for line in report.sources { print("  " + line) }
                print(report.summary(relativeTo: rootURL))
            }
        } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
    }
}
