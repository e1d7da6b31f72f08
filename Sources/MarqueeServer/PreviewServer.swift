import Foundation
import Hummingbird
import Logging
import MarqueeKit
import NIOCore
import NIOPosix
import ServiceLifecycle

/// `marquee serve`: builds the site into a preview folder, serves it on loopback with
/// Hummingbird, rebuilds when `Content/`, `Templates/` or a list the site names outside them
/// changes, and tells open tabs to reload (server-sent events on `/_marquee/events`).
package final class PreviewServer: Sendable {
    /// The site folder.
    package let root: URL
    /// The address listened on.
    package let host: String
    /// The port asked for (0: any free port, reported to `onReady`).
    package let port: Int
    /// Where the preview is built (never the real output folder: pages carry the reload script).
    package let previewFolder: URL
    let hub = ReloadHub()
    private let log: @Sendable (String) -> Void

    /// Creates a server; `log` receives build summaries and errors.
    package init(root: URL, host: String = "127.0.0.1", port: Int = 8000, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.root = root.standardizedFileURL
        self.host = host
        self.port = port
        self.previewFolder = self.root.appending(path: ".marquee-cache/preview")
        self.log = log
    }

    /// Builds once, then serves until the task running it is cancelled.
    /// `onReady` receives the port actually bound (useful with port 0).
    package func run(onReady: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let address = "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)/"
        let first = await rebuild(baseURL: URL(string: address))
        var logger = Logger(label: "marquee.serve")
        logger.logLevel = ProcessInfo.processInfo.environment["MARQUEE_SERVER_LOG"] == "debug" ? .debug : .critical
        // The files are read on threads of the server's own, stopped with it: NIO's process-wide
        // pool would outlive the server.
        let fileReads = NIOThreadPool(numberOfThreads: 2)
        fileReads.start()
        let router = Router()
        // Added before the routes, as Hummingbird applies middleware to the routes added after
        // it; both act only on requests that no route answers.
        router.add(middleware: SiteNotFoundPage(folder: previewFolder))
        let files = PreviewFiles(root: previewFolder, threads: fileReads, logger: logger)
        let noCache = CacheControl([(MediaType(type: .any), [.noCache])])
        router.add(middleware: FileMiddleware(fileProvider: files, cacheControl: noCache, searchForIndexHtml: true)
            .withAdditionalMediaTypes(forFileExtensions: Self.textTypes))
        let hub = self.hub
        router.get("/_marquee/events") { _, _ -> Response in
            let stream = await hub.subscribe()
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: ResponseBody { writer in
                    for await chunk in stream { try await writer.write(ByteBuffer(string: chunk)) }
                    try await writer.finish(nil)
                })
        }
        router.get("/_marquee/reload.js") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-store"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: LiveReloadPlugin.script)))
        }

        let watcher = WatchService(server: self, itemFiles: first.itemFiles ?? [])
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "marquee"),
            services: [watcher],
            onServerRunning: { channel in onReady(channel.localAddress?.port ?? 0) },
            logger: logger)
        var failure: (any Error)?
        do {
            // Signals are handled by the caller (the CLI cancels this task on Ctrl-C).
            try await app.runService(gracefulShutdownSignals: [])
        } catch {
            failure = error
        }
        await hub.finishAll()
        try? await fileReads.shutdownGracefully()
        if let failure {
            if "\(failure)".contains("Address already in use") || "\(failure)".contains("errno: 98") {
                throw BuildError("port \(port) on \(host) is already in use; stop the other server or pass --port with another number.")
            }
            throw failure
        }
    }

    /// What a preview build did.
    struct Rebuild {
        /// True when the preview was built and the tabs told to reload.
        var succeeded: Bool
        /// The local files the site's items are loaded from (``Site/itemFiles(in:)``), for the
        /// watcher; nil when `site.yml` or the theme could not be read.
        var itemFiles: [URL]?
    }

    /// Builds the preview; reports to the terminal and to the open tabs.
    ///
    /// A build that fails while `sourcesChanged()` says the sources changed since it started
    /// (an editor caught halfway through writing a file, which it truncates first) reports
    /// nothing to the tabs: the watcher sees the change and builds again.
    @discardableResult
    func rebuild(baseURL: URL?, sourcesChanged: () -> Bool = { false }) async -> Rebuild {
        var itemFiles: [URL]?
        do {
            var site = try Site.fromConfig(root: root, output: previewFolder, baseURL: baseURL)
            itemFiles = site.itemFiles(in: BuildContext(root: site.root, config: site.config, theme: site.theme)).files
            site.plugins.append(LiveReloadPlugin())
            let report = try await SiteBuilder(site: site, progress: log).build()
            log(report.summary(relativeTo: root))
            await hub.buildSucceeded()
            return Rebuild(succeeded: true, itemFiles: itemFiles)
        } catch {
            if sourcesChanged() {
                log("the sources changed during the build (a file being saved?); building again")
            } else {
                log("\(error)")
                await hub.buildFailed("\(error)")
            }
            return Rebuild(succeeded: false, itemFiles: itemFiles)
        }
    }

    /// Ends every open event stream, so that a graceful shutdown need not wait for open tabs.
    func closeEventStreams() async {
        await hub.finishAll()
    }

    /// A comment line to every open tab, so connections of closed tabs are noticed and dropped.
    func pingEventStreams() async {
        await hub.ping()
    }

    var baseURL: URL? { URL(string: "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)/") }

    /// The text files' media types from Hummingbird's table, with their character set, which
    /// browsers would otherwise guess.
    static let textTypes: [String: MediaType] = ["html", "css", "js", "json", "xml", "txt", "svg"].reduce(into: [:]) { types, name in
        guard let type = MediaType.getMediaType(forExtension: name) else { return }
        types[name] = MediaType(type: type.type, subType: type.subType, parameter: ("charset", "utf-8"))
    }
}

/// Polls the site's sources for changes (``SourceStamps``: `Content/`, `Templates/` and the
/// lists the site names outside them) and rebuilds (polling needs no platform API and costs
/// little for a site's inputs).
struct WatchService: Service {
    let server: PreviewServer
    /// The files the last build's items were loaded from; `site.yml` may name other ones after
    /// an edit, so each rebuild tells them again.
    var itemFiles: [URL]
    var interval: Duration = .milliseconds(300)

    func run() async throws {
        let server = self.server, interval = self.interval, firstItemFiles = self.itemFiles
        try? await cancelWhenGracefulShutdown {
            var itemFiles = firstItemFiles
            func stamps() -> SourceStamps { SourceStamps(root: server.root, files: itemFiles) }
            var last = stamps()
            var ticks = 0
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                ticks += 1
                if ticks % 50 == 0 { await server.pingEventStreams() }
                let now = stamps()
                if now != last {
                    let rebuild = await server.rebuild(baseURL: server.baseURL) { stamps() != now }
                    // A site.yml naming another list: stamp that one from now on.
                    if let files = rebuild.itemFiles, files != itemFiles {
                        itemFiles = files
                        last = stamps()
                    } else {
                        last = now
                    }
                }
            }
        }
        // Ctrl-C: end the open event streams, or the server would wait for those tabs forever.
        await server.closeEventStreams()
    }
}
