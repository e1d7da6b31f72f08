import Foundation
import NIOHTTP1
import Testing
@testable import MarqueeKit

/// A movie list from a URL (the webservice the app this grew from reads) is fetched, cached and
/// falls back exactly as a remote feed does. Against a real HTTP server on 127.0.0.1.
@Suite("Movie lists by URL", .serialized, .timeLimit(.minutes(5)), .removesTemporaryFolders)
struct RemoteMovieListTests {
    // Made anew for each use, as the other suites' feeds are: a global would outlive the
    // server's threads, which AddressSanitizer's leak check reports.
    static var list: Data { Data(#"""
        {"movies": [
          {"Title": "Arrival", "Description": "A linguist and *seven* legs.", "Photo": "posters/arrival.jpg"},
          {"Title": "Moana", "Description": "Short.", "Photo": "https://cdn.example.org/moana.jpg"},
          {"Title": "Paterson", "Description": "A bus driver who writes poems."}
        ]}
        """#.utf8) }

    let server: LoopbackFeedServer

    init() throws {
        server = try LoopbackFeedServer(routes: [
            "/api/movies.json": { headers, count in
                if count >= 3 { return .init(headers: [("Content-Type", "application/json")], body: Data(#"{"movies": [{"Title": "cut"#.utf8)) }
                if headers.first(name: "If-None-Match") == "\"m1\"" { return .init(status: .notModified) }
                return .init(headers: [("ETag", "\"m1\""), ("Content-Type", "application/json")], body: Self.list)
            },
        ])
    }

    func build(root: URL? = nil, offline: Bool = false) async throws -> (BuildReport, String, URL) {
        let root = try root ?? TestSupport.makeSite(config: "title: Remote\nsources:\n  - type: movies\n    url: \(server.url("/api/movies.json"))\n")
        var options = FeedFetcher.Options()
        options.offline = offline
        return try await TestSupport.build(root, fetching: options)
    }

    @Test func fetchedCachedAndKeptWhenBroken() async throws {
        defer { server.shutdown() }
        let (first, gallery, root) = try await build()
        #expect(first.items == 3 && first.warnings.isEmpty, "\(first.warnings)")
        #expect(gallery.contains("<em>seven</em>"))
        // A relative photo is an address beside the list on its server; nothing local is read.
        #expect(gallery.contains("src=\"\(server.url("/api/posters/arrival.jpg"))\""))
        #expect(gallery.contains("src=\"https://cdn.example.org/moana.jpg\""))

        // 304: the cached copy.
        let (second, _, _) = try await build(root: root)
        #expect(server.requests("/api/movies.json") == 2)
        #expect(second.sources == ["\(server.url("/api/movies.json")): not modified, 3 items"])
        #expect(second.items == 3 && second.warnings.isEmpty)

        // A broken list warns, naming the URL and the place, and keeps the last good copy.
        let (third, again, _) = try await build(root: root)
        #expect(third.items == 3 && again.contains("Paterson"))
        #expect(third.warnings.count == 1)
        #expect(third.warnings.first?.file == server.url("/api/movies.json"))
        #expect(third.warnings.first?.message.contains("could not be read") == true && third.warnings.first?.message.contains("at 1:") == true,
                "\(third.warnings)")

        // Offline: the cache, no request.
        let (offline, _, _) = try await build(root: root, offline: true)
        #expect(offline.items == 3)
        #expect(offline.sources == ["\(server.url("/api/movies.json")): offline, from the cache, 3 items"])
        #expect(server.requests("/api/movies.json") == 3)
    }
}
