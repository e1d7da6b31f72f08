import Foundation
import NIOHTTP1
import Testing
@testable import MarqueeKit

/// Remote feeds against a real HTTP server on 127.0.0.1.
@Suite("Fetching feeds over HTTP", .serialized, .timeLimit(.minutes(5)), .removesTemporaryFolders)
struct FetchTests {
    static func rss(_ titles: [String]) -> Data {
        let items = titles.enumerated().map { "<item><title>\($0.element)</title><guid>g\($0.offset)-\($0.element)</guid><description>About \($0.element).</description></item>" }
        return Data("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Remote</title><link>http://127.0.0.1/</link>\(items.joined())</channel></rss>".utf8)
    }

    static func gzip(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return compressed
    }

    let server: LoopbackFeedServer

    init() throws {
        let gzipped = try Self.gzip(Self.rss(["Compressed"]))
        server = try LoopbackFeedServer(routes: [
            "/ok.xml": { headers, _ in
                if headers.first(name: "If-None-Match") == "\"v1\"" { return .init(status: .notModified) }
                return .init(headers: [("ETag", "\"v1\""), ("Content-Type", "application/rss+xml")], body: Self.rss(["Fresh one", "Fresh two"]))
            },
            "/flaky.xml": { _, count in
                count == 1 ? .init(body: Self.rss(["Good copy"])) : .init(body: Data("<rss><channel><item>cut".utf8))
            },
            "/error.xml": { _, _ in .init(status: .internalServerError) },
            "/slow.xml": { _, _ in .init(body: Self.rss(["Too late"]), delay: .seconds(4)) },
            // The head at once, then the body a byte every 0.2 s (a minute for the whole feed).
            "/drip.xml": { _, _ in .init(body: Self.rss(["Dripped"]), drip: .milliseconds(200)) },
            "/good-then-drip.xml": { _, count in
                count == 1 ? .init(body: Self.rss(["Good copy"])) : .init(body: Self.rss(["Dripped"]), drip: .milliseconds(200))
            },
            "/r3": { _, _ in .init(status: .found, headers: [("Location", "/r2")]) },
            "/r2": { _, _ in .init(status: .found, headers: [("Location", "/r1")]) },
            "/r1": { _, _ in .init(status: .movedPermanently, headers: [("Location", "/ok.xml")]) },
            "/loop-a": { _, _ in .init(status: .found, headers: [("Location", "/loop-b")]) },
            "/loop-b": { _, _ in .init(status: .found, headers: [("Location", "/loop-a")]) },
            "/gzip.xml": { _, _ in .init(headers: [("Content-Encoding", "gzip")], body: gzipped) },
            "/big.xml": { _, _ in .init(body: Self.rss((0..<3000).map { "Item \($0)" })) },
            "/page.html": { _, _ in .init(headers: [("Content-Type", "text/html")], body: Data("<!DOCTYPE html><html><body>Sign in</body></html>".utf8)) },
        ])
    }

    func build(_ path: String, root: URL? = nil, offline: Bool = false) async throws -> (BuildReport, String, URL) {
        let root = try root ?? TestSupport.makeSite(config: "title: Remote\nsources:\n  - type: feed\n    url: \(server.url(path))\n")
        var options = FeedFetcher.Options()
        options.timeout = .seconds(1)
        options.maximumBytes = 64 * 1024
        options.offline = offline
        return try await TestSupport.build(root, fetching: options)
    }

    @Test func etagThenNotModifiedUsesTheCache() async throws {
        defer { server.shutdown() }
        let (first, gallery, root) = try await build("/ok.xml")
        #expect(first.items == 2 && first.warnings.isEmpty)
        #expect(gallery.contains("Fresh one"))
        let cacheFiles = try FileManager.default.contentsOfDirectory(atPath: root.appending(path: ".marquee-cache/feeds").path)
        #expect(cacheFiles.count == 2)
        let (second, again, _) = try await build("/ok.xml", root: root)
        #expect(server.requests("/ok.xml") == 2)
        #expect(second.items == 2 && second.warnings.isEmpty)
        #expect(again.contains("Fresh two"))
        // Offline: the cache only, no request.
        let (offline, _, _) = try await build("/ok.xml", root: root, offline: true)
        #expect(offline.items == 2)
        #expect(server.requests("/ok.xml") == 2)
    }

    @Test func anUnparseableBodyKeepsTheLastGoodCopy() async throws {
        defer { server.shutdown() }
        let (_, _, root) = try await build("/flaky.xml")
        let (report, gallery, _) = try await build("/flaky.xml", root: root)
        #expect(gallery.contains("Good copy"))
        #expect(report.warnings.count == 1)
        #expect(report.warnings[0].file == server.url("/flaky.xml"))
        #expect(report.warnings[0].message.contains("could not be read"))
        #expect(report.warnings[0].message.contains("using the last good copy"))
    }

    @Test(arguments: [
        ("/error.xml", "500"),
        ("/slow.xml", "no complete answer within 1 s"),
        ("/drip.xml", "no complete answer within 1 s"),
        ("/loop-a", "redirect"),
        ("/big.xml", "limit"),
        ("/page.html", "HTML page, not a feed"),
        ("/missing.xml", "404"),
    ])
    func failuresWarnAndTheBuildGoesOn(path: String, words: String) async throws {
        defer { server.shutdown() }
        let started = ContinuousClock.now
        let (report, gallery, _) = try await build(path)
        #expect(report.items == 0)
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.message.contains(words) == true, "\(report.warnings)")
        #expect(report.warnings.first?.message.contains("no cached copy") == true)
        #expect(gallery.contains("class=\"gallery\""))
        #expect(started.duration(to: .now) < .seconds(10))
    }

    @Test func aDrippingBodyEndsAtTheDeadlineWithTheLastGoodCopy() async throws {
        defer { server.shutdown() }
        let (_, _, root) = try await build("/good-then-drip.xml")
        let started = ContinuousClock.now
        let (report, gallery, _) = try await build("/good-then-drip.xml", root: root)
        #expect(started.duration(to: .now) < .seconds(4))
        #expect(gallery.contains("Good copy"))
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.message.contains("no complete answer within 1 s; using the last good copy") == true, "\(report.warnings)")
    }

    @Test func aCachedCopyThatNoLongerParsesIsReportedNotUsedAsNothing() async throws {
        defer { server.shutdown() }
        let (_, _, root) = try await build("/ok.xml")
        let folder = root.appending(path: ".marquee-cache/feeds")
        let body = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".body") })
        try Data("<rss><channel><item>damaged".utf8).write(to: folder.appending(path: body))
        // The server answers 304 to the cached validator: the damaged copy is all there is.
        let (report, _, _) = try await build("/ok.xml", root: root)
        #expect(report.items == 0)
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.message.contains("cached copy of this source can no longer be read") == true, "\(report.warnings)")
        // It was removed: the next build asks without validators and gets the feed whole.
        let (again, _, _) = try await build("/ok.xml", root: root)
        #expect(again.items == 2 && again.warnings.isEmpty)
    }

    @Test func redirectsAndGzipAreFollowed() async throws {
        defer { server.shutdown() }
        let (redirected, _, _) = try await build("/r3")
        #expect(redirected.items == 2 && redirected.warnings.isEmpty)
        let (compressed, gallery, _) = try await build("/gzip.xml")
        #expect(compressed.warnings.isEmpty)
        #expect(gallery.contains("Compressed"))
    }

    @Test func configChecksURLs() {
        defer { server.shutdown() }
        #expect(throws: BuildError.self) { try SiteConfig.parse("title: T\nsources:\n  - type: feed\n    url: ftp://x/y\n", file: "s.yml") }
        #expect(throws: BuildError.self) { try SiteConfig.parse("title: T\nsources:\n  - type: movies\n    url: file:///etc/passwd\n", file: "s.yml") }
        #expect(throws: BuildError.self) { try SiteConfig.parse("title: T\nsources:\n  - type: feed\n    url: http://x/y\n    path: a.xml\n", file: "s.yml") }
    }
}
