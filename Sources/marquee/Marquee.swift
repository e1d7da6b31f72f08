import ArgumentParser
import Foundation
import MarqueeKit

@main
struct Marquee: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "marquee",
        abstract: "Build fast, accessible galleries from movie lists and feeds.",
        discussion: """
            A site is a folder with Content/site.yml (the configuration), the inputs it names, and \
            optionally Templates/ to override the default theme. `marquee build` writes the site \
            into Site/, replacing the previous build only when the new one is complete.
            """,
        version: "0.1.0",
        subcommands: [Init.self, Build.self, Serve.self, Deploy.self],
        defaultSubcommand: nil)

    static func main() async {
        // Reading the arguments takes one core a few milliseconds; for the commands that build,
        // the default theme is made ready on the other meanwhile.
        if let command = CommandLine.arguments.dropFirst().first, command == "build" || command == "serve" {
            Theme.prepareDefault()
        }
        await main(nil)
    }
}

/// Writes one line to standard output at once (no buffering, so it shows while serving).
func printNow(_ message: String) {
    FileHandle.standardOutput.write(Data((message + "\n").utf8))
}

/// Writes one line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
