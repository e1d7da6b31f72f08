import Foundation
import NIOHTTP1
import Testing
@testable import MarqueeKit

/// With `images: {download: true}`, the images of a remote feed are fetched like feeds and
/// processed like local ones: against a real HTTP server on 127.0.0.1 serving good images, a
/// `404`, HTML served as an image, a decompression bomb and a stall.
@Suite("Downloaded images", .serialized, .timeLimit(.minutes(5)), .removesTemporaryFolders)
struct ImageDownloadTests {
    let server: LoopbackFeedServer
    /// The image requests, with whether each was conditional.
    let requests = Locked<[(path: String, conditional: Bool)]>([])

    init() throws {
        let files = ImageStageTests.files
        let photo = try Data(contentsOf: files.appending(path: "photo.jpg"))
        let logo = try Data(contentsOf: files.appending(path: "logo.png"))
        let bomb = try Data(contentsOf: files.appending(path: "bomb.png"))
        let page = try Data(contentsOf: files.appending(path: "not-an-image.jpg"))
        let requests = self.requests
        func image(_ path: String, _ body: Data, etag: String) -> LoopbackFeedServer.Route {
            { headers, _ in
                let conditional = headers.first(name: "If-None-Match") != nil || headers.first(name: "If-Modified-Since") != nil
                requests.withLock { $0.append((path, conditional)) }
                if headers.first(name: "If-None-Match") == etag { return .init(status: .notModified, headers: [("ETag", etag)]) }
                return .init(headers: [("ETag", etag), ("Content-Type", "image/jpeg")], body: body)
            }
        }
        server = try LoopbackFeedServer(routes: [
            "/good.jpg": image("/good.jpg", photo, etag: "\"photo-1\""),
            "/inline.png": image("/inline.png", logo, etag: "\"logo-1\""),
            "/page.jpg": image("/page.jpg", page, etag: "\"page-1\""),
            "/bomb.png": image("/bomb.png", bomb, etag: "\"bomb-1\""),
            "/stall.jpg": { _, _ in .init(body: photo, delay: .seconds(10)) },
        ])
    }

    /// A local Media RSS feed whose images are on the server: one item per image, the first
    /// with a smaller thumbnail too and an image inside its description (with `stall`, only an
    /// item whose image never comes).
    func feed(stall: Bool = false) -> String {
        let base = server.url("")
        func item(_ title: String, _ path: String, extra: String = "") -> String {
            "<item><title>\(title)</title><guid>\(title)</guid><description>\(extra)About \(title).</description><media:content url=\"\(base)\(path)\" medium=\"image\"/></item>"
        }
        let head = #"<?xml version="1.0"?><rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Images</title>"#
        if stall { return head + item("Stall", "/stall.jpg") + "</channel></rss>" }
        return """
            \(head)
            \(item("Good", "/good.jpg", extra: "&lt;p&gt;&lt;img src=&quot;\(base)/inline.png&quot; width=&quot;30&quot;&gt; Inline.&lt;/p&gt;").replacingOccurrences(of: "</item>", with: "<media:thumbnail url=\"\(base)/good-small.jpg\" width=\"75\" height=\"50\"/></item>"))
            \(item("Missing", "/missing.jpg"))
            \(item("Page", "/page.jpg"))
            \(item("Bomb", "/bomb.png"))
            </channel></rss>
            """
    }

    /// Builds with a timeout of `timeout` seconds per image: long, where every image should come
    /// even to a machine loaded by a sanitizer and the other suites.
    func build(_ root: URL, timeout: Int64 = 60) async throws -> BuildReport {
        var options = FeedFetcher.Options()
        options.timeout = .seconds(timeout)
        return try await TestSupport.build(root, fetching: options).0
    }

    /// Every page of the site, by path.
    static func pages(_ root: URL) throws -> [String: String] {
        let site = root.appending(path: "Site")
        var pages: [String: String] = [:]
        for path in FileIO.regularFiles(under: site.path) where path.hasSuffix(".html") {
            pages[path] = try String(contentsOf: site.appending(path: path), encoding: .utf8)
        }
        return pages
    }

    @Test func imagesAreFetchedProcessedAndNeverLinked() async throws {
        defer { server.shutdown() }
        let root = try TestSupport.makeSite(
            config: "title: Downloads\nimages: {download: true}\nsources:\n  - type: feed\n    path: images.xml\n", texts: ["images.xml": feed()])
        let report = try await build(root)

        // One warning per image that could not be used, naming its address and its item.
        let warnings = Dictionary(uniqueKeysWithValues: report.warnings.map { ($0.file ?? "", $0.message) })
        #expect(warnings.count == 3, "\(report.warnings)")
        #expect(warnings[server.url("/missing.jpg")]?.contains("404") == true)
        #expect(warnings[server.url("/page.jpg")]?.contains("it is not an image Marquee reads") == true)
        #expect(warnings[server.url("/bomb.png")]?.contains("over the limit of 100 megapixels") == true)
        for (title, path) in [("Missing", "/missing.jpg"), ("Page", "/page.jpg"), ("Bomb", "/bomb.png")] {
            #expect(warnings[server.url(path)]?.hasSuffix("\u{201C}\(title)\u{201D} is shown without it.") == true, "\(warnings[server.url(path)] ?? "")")
        }
        // The thumbnail is a smaller copy of the content, and is not asked for.
        #expect(server.requests("/good-small.jpg") == 0)

        // No page links the image host; the good image and the one inside the description are the site's own.
        let pages = try Self.pages(root)
        #expect(!pages.isEmpty && pages.values.allSatisfy { !$0.contains(server.url("")) }, "\(pages.filter { $0.value.contains(server.url("")) }.keys)")
        let gallery = try #require(pages["index.html"])
        #expect(gallery.contains(#"<source type="image/avif" srcset="media/good-"#))
        #expect(gallery.components(separatedBy: "<picture>").count == 2)
        let detail = try #require(pages["items/good/index.html"])
        #expect(detail.contains(#/<img src="\.\./\.\./media/inline-[0-9a-f]{8}-300x300\.png" width="300" height="300" alt=""/#), "\(detail)")
        let media = try ImageStageTests.media(root)
        #expect(media.contains { $0.hasPrefix("good-") } && media.contains { $0.hasPrefix("inline-") })
        #expect(media.allSatisfy { !$0.hasPrefix("page-") && !$0.hasPrefix("bomb-") })

        // A rebuild that renders every page again asks only conditionally, and decodes nothing again.
        let cache = ImagePlugin.cacheFolder(root: root)
        let manifests = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".json") }.sorted()
        let stamps = try manifests.map { try FileManager.default.attributesOfItem(atPath: cache.appending(path: $0).path)[.modificationDate] as? Date }
        requests.withLock { $0 = [] }
        let config = root.appending(path: "Content/site.yml")
        try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: "title: Downloads", with: "title: Downloads again")
            .write(to: config, atomically: true, encoding: .utf8)
        let again = try await build(root)
        #expect(again.warnings.count == 3)
        let asked = requests.withLock { $0 }
        #expect(Set(asked.map(\.path)) == ["/good.jpg", "/inline.png", "/page.jpg", "/bomb.png"], "\(asked)")
        // The images that never read were never kept, so they are asked for whole again.
        #expect(asked.filter { $0.path == "/good.jpg" || $0.path == "/inline.png" }.allSatisfy { $0.conditional }, "\(asked)")
        #expect(try manifests.map { try FileManager.default.attributesOfItem(atPath: cache.appending(path: $0).path)[.modificationDate] as? Date } == stamps)
        #expect(try TestSupport.read(root, "index.html").contains(#"srcset="media/good-"#))
    }

    @Test func anImageThatNeverComesEndsAtTheTimeout() async throws {
        defer { server.shutdown() }
        let root = try TestSupport.makeSite(
            config: "title: Stall\nimages: {download: true}\nsources:\n  - type: feed\n    path: images.xml\n", texts: ["images.xml": feed(stall: true)])
        let report = try await build(root, timeout: 1)
        let warning = try #require(report.warnings.first)
        #expect(report.warnings.count == 1 && warning.file == server.url("/stall.jpg"))
        #expect(warning.message.contains("could not be fetched") && warning.message.hasSuffix("\u{201C}Stall\u{201D} is shown without it."), "\(warning.message)")
        #expect(try !TestSupport.read(root, "index.html").contains(server.url("")))
    }

    @Test func withoutDownloadingRemoteImagesAreLinked() async throws {
        defer { server.shutdown() }
        let root = try TestSupport.makeSite(config: "title: Links\nsources:\n  - type: feed\n    path: images.xml\n", texts: ["images.xml": feed()])
        let report = try await build(root)
        #expect(report.warnings.isEmpty)
        // The cell shows the thumbnail the feed states a size for.
        #expect(try TestSupport.read(root, "index.html").contains("src=\"\(server.url("/good-small.jpg"))\""))
        #expect(try TestSupport.read(root, "items/good/index.html").contains("src=\"\(server.url("/inline.png"))\""))
        #expect(server.requests("/good.jpg") == 0 && server.requests("/inline.png") == 0)
    }
}
