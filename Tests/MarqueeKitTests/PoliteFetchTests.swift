import Foundation
import NIOHTTP1
import Testing
@testable import MarqueeKit

/// Remote feeds are asked for as their servers ask: not while fresh, not before Retry-After,
/// two at a time per server, with a User-Agent that names the site. Against a real HTTP server
/// on 127.0.0.1.
@Suite("Polite fetching", .serialized, .timeLimit(.minutes(5)), .removesTemporaryFolders)
struct PoliteFetchTests {
    static let httpDate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()

    let server: LoopbackFeedServer

    init() throws {
        let feed = FetchTests.rss(["First", "Second"])
        var routes: [String: LoopbackFeedServer.Route] = [
            "/fresh.xml": { _, _ in .init(headers: [("Cache-Control", "public, max-age=3600")], body: feed) },
            "/expires.xml": { _, _ in
                .init(headers: [("Date", Self.httpDate.string(from: Date())), ("Expires", Self.httpDate.string(from: Date().addingTimeInterval(600)))], body: feed)
            },
            "/no-cache.xml": { _, _ in .init(headers: [("Cache-Control", "no-cache, max-age=600")], body: feed) },
            "/limited.xml": { _, count in
                count == 1 ? .init(body: feed) : .init(status: .tooManyRequests, headers: [("Retry-After", "120")])
            },
            "/busy.xml": { _, _ in
                .init(status: .serviceUnavailable, headers: [("Retry-After", Self.httpDate.string(from: Date().addingTimeInterval(3600)))])
            },
            "/ua.xml": { headers, _ in
                let agent = headers.first(name: "User-Agent") ?? ""
                return agent.hasPrefix("Marquee/") && agent.contains("+https://example.org/gallery/") ? .init(body: feed) : .init(status: .forbidden)
            },
        ]
        for index in 0..<6 {
            routes["/slow-\(index).xml"] = { _, _ in .init(body: FetchTests.rss(["Slow \(index)"]), delay: .milliseconds(300)) }
        }
        server = try LoopbackFeedServer(routes: routes)
    }

    func build(_ paths: [String], root: URL? = nil, refresh: Bool = false, extra: String = "") async throws -> (BuildReport, String, URL) {
        let sources = paths.map { "  - type: feed\n    url: \(server.url($0))\n" }.joined()
        let root = try root ?? TestSupport.makeSite(config: "title: Remote\n\(extra)sources:\n" + sources)
        var options = FeedFetcher.Options()
        options.timeout = .seconds(5)
        options.refresh = refresh
        return try await TestSupport.build(root, fetching: options)
    }

    @Test func aFreshCopyIsNotAskedForAgain() async throws {
        defer { server.shutdown() }
        for path in ["/fresh.xml", "/expires.xml"] {
            let (first, _, root) = try await build([path])
            #expect(first.sources == ["\(server.url(path)): fetched, 2 items"])
            let (again, gallery, _) = try await build([path], root: root)
            #expect(server.requests(path) == 1, "\(path)")
            #expect(again.items == 2 && again.warnings.isEmpty && gallery.contains("Second"))
            #expect(again.sources.count == 1 && again.sources[0].contains(": still fresh until ") && again.sources[0].hasSuffix("not asked, 2 items"), "\(again.sources)")
            // --refresh asks all the same.
            let (refreshed, _, _) = try await build([path], root: root, refresh: true)
            #expect(server.requests(path) == 2, "\(path)")
            #expect(refreshed.sources == ["\(server.url(path)): fetched, 2 items"])
        }
        // `no-cache` outweighs a max-age.
        let (_, _, root) = try await build(["/no-cache.xml"])
        _ = try await build(["/no-cache.xml"], root: root)
        #expect(server.requests("/no-cache.xml") == 2)
    }

    @Test func retryAfterKeepsTheLastGoodCopyWithoutAsking() async throws {
        defer { server.shutdown() }
        let (_, _, root) = try await build(["/limited.xml"])
        let (limited, gallery, _) = try await build(["/limited.xml"], root: root)
        #expect(gallery.contains("Second"))
        #expect(limited.warnings.count == 1)
        let warning = limited.warnings.first?.message ?? ""
        #expect(warning.contains("429") && warning.contains("asked not to be asked again before") && warning.contains("using the last good copy"), "\(warning)")
        let (waiting, again, _) = try await build(["/limited.xml"], root: root)
        #expect(server.requests("/limited.xml") == 2)
        #expect(again.contains("Second") && waiting.items == 2)
        #expect(waiting.warnings.first?.message.contains("(Retry-After); using the last good copy") == true, "\(waiting.warnings)")
        #expect(waiting.sources.first?.contains(": retry later: the server asked not to be asked before ") == true, "\(waiting.sources)")
        #expect(waiting.sources.first?.hasSuffix(", 2 items") == true)

        // A date in Retry-After, with no copy yet: nothing to show, and still not asked again.
        let (busy, _, busyRoot) = try await build(["/busy.xml"])
        #expect(busy.warnings.first?.message.contains("503") == true)
        #expect(busy.sources.first?.hasSuffix(", 0 items") == true)
        _ = try await build(["/busy.xml"], root: busyRoot)
        #expect(server.requests("/busy.xml") == 1)
    }

    /// What a server said is kept whatever becomes of the build: a build that fails after
    /// fetching still records the server's request to wait, and neither the build's own memo
    /// nor its state (both dropped by an upgrade of Marquee) holds it.
    @Test func whatTheServerSaidOutlivesAFailedBuildAndTheBuildsOwnCache() async throws {
        defer { server.shutdown() }
        struct Failing: Plugin {
            let name = "failing"
            func transformItems(_ items: inout [Item], in context: BuildContext) throws {
                throw BuildError(file: "failing", "fails on purpose")
            }
        }
        let root = try TestSupport.makeSite(config: "title: Remote\nsources:\n  - type: feed\n    url: \(server.url("/busy.xml"))\n")
        var site = try Site.fromConfig(root: root, output: nil, baseURL: nil, fetchOptions: FeedFetcher.Options())
        site.plugins.append(Failing())
        await #expect(throws: BuildError.self) { try await SiteBuilder(site: site).build() }
        #expect(server.requests("/busy.xml") == 1)
        let cache = root.appending(path: ".marquee-cache")
        for file in try FileManager.default.contentsOfDirectory(atPath: cache.path) where file.hasPrefix("build-") {
            try FileManager.default.removeItem(at: cache.appending(path: file))
        }
        let (waiting, _, _) = try await build(["/busy.xml"], root: root)
        #expect(server.requests("/busy.xml") == 1)
        #expect(waiting.sources.first?.contains(": retry later: the server asked not to be asked before ") == true, "\(waiting.sources)")
    }

    @Test func atMostTwoRequestsAtOnceToOneServer() async throws {
        defer { server.shutdown() }
        let (report, _, _) = try await build((0..<6).map { "/slow-\($0).xml" })
        #expect(report.items == 6 && report.warnings.isEmpty)
        #expect(server.mostAtOnce == 2)
    }

    @Test func theUserAgentNamesTheSite() async throws {
        defer { server.shutdown() }
        let (report, _, _) = try await build(["/ua.xml"], extra: "base_url: https://example.org/gallery/\n")
        #expect(report.items == 2 && report.warnings.isEmpty, "\(report.warnings)")
        let (anonymous, _, _) = try await build(["/ua.xml"])
        #expect(anonymous.warnings.first?.message.contains("403") == true)
    }

    @Test func headersReadAsTheStandardsSay() {
        defer { server.shutdown() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func headers(_ pairs: [(String, String)]) -> HTTPHeaders { HTTPHeaders(pairs) }
        #expect(HTTPFreshness.freshUntil(headers([("Cache-Control", "max-age=60")]), now: now) == now.addingTimeInterval(60))
        #expect(HTTPFreshness.freshUntil(headers([("Cache-Control", "no-store")]), now: now) == nil)
        #expect(HTTPFreshness.freshUntil(headers([("Cache-Control", "max-age=0")]), now: now) == nil)
        #expect(HTTPFreshness.freshUntil(headers([("Cache-Control", "max-age=99999999")]), now: now) == now.addingTimeInterval(7 * 86_400))
        // Expires is counted from the server's Date, not from this machine's clock.
        let sent = Self.httpDate.string(from: now.addingTimeInterval(-5000))
        let expires = Self.httpDate.string(from: now.addingTimeInterval(-4400))
        #expect(HTTPFreshness.freshUntil(headers([("Date", sent), ("Expires", expires)]), now: now) == now.addingTimeInterval(600))
        #expect(HTTPFreshness.retryAfter(headers([("Retry-After", "30")]), now: now) == now.addingTimeInterval(30))
        #expect(HTTPFreshness.retryAfter(headers([("Retry-After", "soon")]), now: now) == nil)
    }
}
