import ArgumentParser
import CMalloc
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
        // Reading the arguments keeps one core busy; for the commands that build,
        // the default theme is made ready on the other meanwhile. The allocator is tuned
        // first, before any thread starts (see `tuneAllocator()`).
        if let command = CommandLine.arguments.dropFirst().first, command == "build" || command == "serve" {
            tuneAllocator()
            Theme.prepareDefault()
        }
        await main(nil)
    }
}

/// Tunes glibc's allocator for a build, which allocates and frees tens of megabytes of
/// short-lived strings on both cores. With the defaults the main heap grows 128 KB at a time,
/// every heap gives memory back as soon as 128 KB of it is free, and large buffers come from
/// fresh `mmap`s whose every page faults in. Setting any of these turns off glibc's own threshold
/// adjustment, so all three are set; between builds, `marquee serve` keeps up to 64 MB free per
/// heap for the next one.
///
/// Call it before any thread starts: a thread's heap gets the top pad only when glibc creates
/// it, and one created earlier grows a page at a time, each page an `mprotect` call (thousands
/// in a 10,000-item build, each holding the process's memory map against the other core's page
/// faults).
func tuneAllocator() {
    #if os(Linux)
    _ = mallopt(M_TOP_PAD, 32 << 20)
    _ = mallopt(M_TRIM_THRESHOLD, 64 << 20)
    _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
    #endif
}

/// Writes one line to standard output at once (no buffering, so it shows while serving).
func printNow(_ message: String) {
    FileHandle.standardOutput.write(Data((message + "\n").utf8))
}

/// Writes one line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
