import ArgumentParser
import Foundation
import MarqueeKit
import MarqueeServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the site, serve it, and rebuild and reload the browser on every change.",
        discussion: """
            The preview is built into ROOT/.marquee-cache/preview (never into Site/) and served on \
            http://HOST:PORT/. Edits under Content/ and Templates/, and to lists that site.yml \
            names outside them, rebuild it; open tabs reload by themselves, and a broken edit \
            shows its error in the terminal and over the page until the next good save. Ctrl-C \
            stops the server.
            """)

    @Option(name: .long, help: ArgumentHelp("The site folder, holding Content/site.yml.", valueName: "dir"))
    var root: String = "."

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port: Int = 8000

    func run() async throws {
        let rootURL = URL(fileURLWithPath: root).standardizedFileURL
        let server = PreviewServer(root: rootURL, host: host, port: port, log: { printError($0) })
        let host = self.host
        let serving = Task {
            try await server.run { port in
                printNow("Serving \(rootURL.lastPathComponent) on http://\(host):\(port)/ — Ctrl-C to stop")
            }
        }
        // Ctrl-C and SIGTERM cancel the server, which closes its connections and returns.
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)  // the dispatch source, not the default action, handles it
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { serving.cancel() }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        do {
            try await serving.value
        } catch is CancellationError {
        } catch let error as BuildError {
            printError(error.description)
            throw ExitCode(1)
        }
        printNow("Stopped.")
    }
}
