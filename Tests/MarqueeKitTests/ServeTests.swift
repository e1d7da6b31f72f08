import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
@testable import MarqueeKit
@testable import MarqueeServer

#if canImport(Glibc)
import Glibc
#endif

/// `marquee serve` over real HTTP on loopback.
@Suite("Preview server", .serialized, .timeLimit(.minutes(5)), .removesTemporaryFolders)
struct ServeTests {
    /// Starts a preview server for a new scaffolded site, changed first by `prepare`; returns the
    /// site root, port and task.
    func start(prepare: (URL) throws -> Void = { _ in }) async throws -> (URL, Int, Task<Void, any Error>) {
        let root = try TestSupport.temporaryFolder().appending(path: "site")
        try SiteScaffold.create(in: root)
        try prepare(root)
        let server = PreviewServer(root: root, port: 0)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task { try await server.run { continuation.yield($0) } }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        return (root, port, task)
    }

    /// Sends a request exactly as written (no client-side path normalization) and returns the
    /// status code.
    func rawStatus(port: Int, target: String) throws -> Int {
        let head = try rawHead(port: port, target: target)
        return Int(head.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    /// Sends a request exactly as written and returns the response's head.
    func rawHead(port: Int, target: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        let request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
    }

    @Test func redirectsNeverLeadToAnotherHost() async throws {
        let (_, port, task) = try await start()
        defer { task.cancel() }
        // A folder's redirect repeats the path with a `/` added: `//items/` would be the address
        // of a host named `items`. Such paths name nothing.
        for target in ["//items", "/%2Fitems", "//items?x=1", "/./items", "///items", "/items//", "/\\items", "/%5Citems"] {
            let head = try rawHead(port: port, target: target)
            #expect(!head.lowercased().contains("location:"), "\(target): \(head)")
            #expect(head.hasPrefix("HTTP/1.1 404"), "\(target): \(head)")
        }
        let head = try rawHead(port: port, target: "/items")
        #expect(head.hasPrefix("HTTP/1.1 301") && head.lowercased().contains("location: /items/"), "\(head)")
    }

    func get(_ client: HTTPClient, _ url: String, headers: [(String, String)] = []) async throws -> (HTTPClientResponse, String) {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 10 << 20)
        return (response, String(buffer: body))
    }

    @Test func servesPagesAssetsMissesAndValidators() async throws {
        let (root, port, task) = try await start()
        defer { task.cancel() }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        try await check(root: root, port: port, client: client)
        try await client.shutdown()
    }

    func check(root: URL, port: Int, client: HTTPClient) async throws {
        let base = "http://127.0.0.1:\(port)"

        let (home, html) = try await get(client, base + "/")
        #expect(home.status == .ok)
        #expect(home.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
        #expect(html.contains("<script src=\"/_marquee/reload.js\"></script>"))
        let stylesheet = try #require(html.firstMatch(of: /href="(assets\/marquee\.[0-9a-f]+\.css)"/)).output.1
        let (css, _) = try await get(client, "\(base)/\(stylesheet)")
        #expect(css.headers.first(name: "Content-Type")?.hasPrefix("text/css") == true)

        let (folder, _) = try await get(client, base + "/items")
        #expect(folder.status == .movedPermanently)
        #expect(folder.headers.first(name: "Location") == "/items/")
        let (missing, notFoundPage) = try await get(client, base + "/nothing/here")
        #expect(missing.status == .notFound)
        #expect(notFoundPage.contains("Page not found"))

        let etag = try #require(home.headers.first(name: "ETag"))
        let (again, _) = try await get(client, base + "/", headers: [("If-None-Match", etag)])
        #expect(again.status == .notModified)
        #expect(again.headers.first(name: "Cache-Control") == "no-cache")
        // A page rewritten at the same size, as a quick rebuild can, is sent again.
        try await Task.sleep(for: .milliseconds(20))
        let index = root.appending(path: ".marquee-cache/preview/index.html")
        let changed = html.replacingOccurrences(of: "<html", with: "<HTML")
        #expect(changed != html && changed.utf8.count == html.utf8.count)
        try changed.write(to: index, atomically: false, encoding: .utf8)
        let (rewritten, rewrittenHTML) = try await get(client, base + "/", headers: [("If-None-Match", etag)])
        #expect(rewritten.status == .ok)
        #expect(rewrittenHTML == changed)
        #expect(rewritten.headers.first(name: "ETag") != etag)

        // Nothing outside the preview folder can be read.
        let secret = root.appending(path: ".marquee-cache/preview/leak")
        try FileManager.default.createSymbolicLink(atPath: secret.path, withDestinationPath: root.appending(path: "Content/site.yml").path)
        for target in ["//etc/passwd", "/leak", "/%00index.html"] {
            #expect(try rawStatus(port: port, target: target) == 404, "\(target)")
        }
        // Hummingbird's file middleware refuses any path holding `..` as a bad request.
        for target in ["/../Content/site.yml", "/%2e%2e/%2e%2e/Content/site.yml", "/items/..%2f..%2fContent/site.yml", "/items/%5c..%5c..%5cContent"] {
            #expect(try rawStatus(port: port, target: target) == 400, "\(target)")
        }
        // The preview never writes the real output folder.
        #expect(!FileManager.default.fileExists(atPath: root.appending(path: "Site").path))
    }

    @Test func editsRebuildAndReloadAndBrokenEditsShowAnError() async throws {
        let (root, port, task) = try await start()
        defer { task.cancel() }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        try await watch(root: root, port: port, client: client)
        try await client.shutdown()
    }

    func watch(root: URL, port: Int, client: HTTPClient) async throws {
        let next = try await events(port: port, client: client)
        try await Task.sleep(for: .milliseconds(400))  // let the watcher take its first fingerprint

        let movies = root.appending(path: "Content/movies.json")
        let original = try String(contentsOf: movies, encoding: .utf8)
        try original.replacingOccurrences(of: "Your First Movie", with: "Edited Title").write(to: movies, atomically: true, encoding: .utf8)
        _ = try await next("reload")
        let page = try String(contentsOf: root.appending(path: ".marquee-cache/preview/index.html"), encoding: .utf8)
        #expect(page.contains("Edited Title"))

        try "{\"movies\": [,]}".write(to: movies, atomically: true, encoding: .utf8)
        let failure = try await next("failure")
        #expect(failure.contains("Content/movies.json:1:13"))

        try original.write(to: movies, atomically: true, encoding: .utf8)
        _ = try await next("reload")
    }

    /// Opens the live-reload event stream; returns a function that waits for the named event and
    /// returns the text received up to it.
    func events(port: Int, client: HTTPClient) async throws -> (String) async throws -> String {
        let response = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/_marquee/events"), timeout: .seconds(30))
        #expect(response.headers.first(name: "Content-Type") == "text/event-stream")
        var events = response.body.makeAsyncIterator()
        _ = try await events.next()  // ": connected"
        return { name in
            var text = ""
            while !text.contains("event: \(name)\n") {
                guard let chunk = try await events.next() else { throw CancellationError() }
                text += String(buffer: chunk)
            }
            return text
        }
    }

    @Test func aListOutsideContentIsWatchedToo() async throws {
        let (root, port, task) = try await start { root in
            let data = root.appending(path: "data")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            try #"{"movies": [{"Title": "Kept Outside", "Description": "A list beside Content/."}]}"#
                .write(to: data.appending(path: "movies.json"), atomically: true, encoding: .utf8)
            let config = root.appending(path: "Content/site.yml")
            let text = try String(contentsOf: config, encoding: .utf8)
            #expect(text.contains("path: movies.json"))
            try text.replacingOccurrences(of: "path: movies.json", with: "path: ../data/movies.json").write(to: config, atomically: true, encoding: .utf8)
        }
        defer { task.cancel() }
        let page = root.appending(path: ".marquee-cache/preview/index.html")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("Kept Outside"))
        // The shared client needs no shutdown, so a missed reload fails by the time limit, cleanly.
        let next = try await events(port: port, client: .shared)
        try await Task.sleep(for: .milliseconds(400))  // let the watcher take its first stamps

        try #"{"movies": [{"Title": "Edited Outside", "Description": "A list beside Content/."}]}"#
            .write(to: root.appending(path: "data/movies.json"), atomically: true, encoding: .utf8)
        _ = try await next("reload")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("Edited Outside"))
    }

    @Test func theWatcherSeesFilesAddedAndRewrittenInPlace() throws {
        let root = try TestSupport.temporaryFolder().appending(path: "site")
        try SiteScaffold.create(in: root)
        let start = SourceStamps(root: root)
        #expect(SourceStamps(root: root) == start)

        // Rewritten in place, same size, modification time set back: only the change time tells.
        let movies = root.appending(path: "Content/movies.json")
        var before = stat()
        #expect(stat(movies.path, &before) == 0)
        let text = try String(contentsOf: movies, encoding: .utf8)
        try text.replacingOccurrences(of: "Your First Movie", with: "Your Fir5t Movie").write(to: movies, atomically: false, encoding: .utf8)
        let times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, movies.path, times, 0) == 0)
        let rewritten = SourceStamps(root: root)
        #expect(rewritten != start)

        try "{{! a partial }}".write(to: root.appending(path: "Templates/extra.mustache"), atomically: true, encoding: .utf8)
        #expect(SourceStamps(root: root) != rewritten)
    }

    @Test func aBuildBrokenByAFileBeingSavedIsNotShown() async throws {
        let root = try TestSupport.temporaryFolder().appending(path: "site")
        try SiteScaffold.create(in: root)
        let lines = Locked<[String]>([])
        let server = PreviewServer(root: root, port: 0) { line in lines.withLock { $0.append(line) } }
        // An editor that truncates the file, then writes it, caught in between.
        try Data().write(to: root.appending(path: "Content/movies.json"))

        #expect(await server.rebuild(baseURL: nil, sourcesChanged: { true }).succeeded == false)
        #expect(await server.hub.lastFailure == nil)
        #expect(lines.withLock { $0 }.contains { $0.contains("building again") })

        #expect(await server.rebuild(baseURL: nil).succeeded == false)
        let failure = try #require(await server.hub.lastFailure)
        #expect(failure.contains("Content/movies.json"))
    }

    @Test func aBusyPortIsAClearError() async throws {
        let (root, port, task) = try await start()
        defer { task.cancel() }
        let second = PreviewServer(root: root, port: port)
        await #expect { try await second.run() } throws: { error in
            "\(error)".contains("port \(port) on 127.0.0.1 is already in use")
        }
    }
}
