import Foundation
import Testing
@testable import MarqueeKit

/// Local images are resized and encoded by libvips into the sizes the theme shows, and hostile
/// files are contained: built from the files in `Tests/Fixtures/image-files`.
@Suite("Image stage", .serialized, .removesTemporaryFolders)
struct ImageStageTests {
    static let files = TestSupport.fixtures.appending(path: "image-files")

    /// A site whose movies show `photos` (file names in `image-files`), one movie each, after
    /// `extra` movies without a photo.
    static func site(photos: [String], extra: Int = 0) throws -> URL {
        var movies = (0..<extra).map { #"{"Title": "Text \#($0)", "Description": "No image here."}"# }
        movies += photos.enumerated().map { #"{"Title": "Movie \#($0.offset)", "Description": "A photo.", "Photo": "images/\#($0.element)"}"# }
        return try TestSupport.makeSite(
            config: "title: Photos\nsources:\n  - type: movies\n    path: movies.json\n",
            files: Dictionary(uniqueKeysWithValues: Set(photos).map { ("images/\($0)", files.appending(path: $0)) }),
            texts: ["movies.json": #"{"movies": [\#(movies.joined(separator: ", "))]}"#])
    }

    static func media(_ root: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appending(path: "Site/media").path).sorted()
    }

    /// The size libvips reads from a written file's header.
    static func size(_ root: URL, _ path: String) throws -> (Int, Int) {
        let header = try Vips.header(of: Data(contentsOf: root.appending(path: "Site/\(path)")))
        return (header.width, header.height)
    }

    @Test func localPhotosBecomeSizedRenditionsInModernFormats() async throws {
        let root = try Self.site(photos: ["photo.jpg", "logo.png"])
        let report = try await TestSupport.build(root)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let media = try Self.media(root)
        // The originals are not copied: only renditions, named after the source and its bytes.
        #expect(!media.contains("photo.jpg") && !media.contains("logo.png"))
        let photo = media.filter { $0.hasPrefix("photo-") }
        #expect(Set(photo.map { ($0 as NSString).pathExtension }) == ["avif", "webp", "jpg"], "\(photo)")
        // Cell squares at 1× and 2×; the detail page's column (680 px) at 1×, and the whole
        // source (900 px wide) where 2× would be larger than it.
        let sizes = Set(photo.map { $0.split(separator: "-").last!.split(separator: ".").first! })
        #expect(sizes == ["100x100", "200x200", "680x453", "900x600"], "\(sizes)")
        for file in photo {
            let size = try Self.size(root, "media/\(file)")
            #expect("\(size.0)x\(size.1)" == String(file.split(separator: "-").last!.split(separator: ".").first!), "\(file)")
        }
        // Transparency keeps a PNG fallback; the photo's is a JPEG.
        let logo = media.filter { $0.hasPrefix("logo-") }
        #expect(Set(logo.map { ($0 as NSString).pathExtension }) == ["avif", "webp", "png"], "\(logo)")

        let gallery = try TestSupport.read(root, "index.html")
        let cell = try #require(gallery.firstRange(of: #/<picture>.*?</picture>/#).map { String(gallery[$0]) })
        #expect(cell.contains(#"<source type="image/avif" srcset="media/photo-"#) && cell.contains(#"-200x200.avif 200w" sizes="100px">"#), "\(cell)")
        #expect(cell.contains(#"<source type="image/webp""#))
        #expect(cell.contains(#"-100x100.jpg" srcset="#) && cell.contains(#"width="100" height="100""#))
        #expect(cell.contains(#"style="background-color: #"#) && cell.contains(#"loading="eager""#))
        let detail = try TestSupport.read(root, "items/movie-0/index.html")
        #expect(detail.contains(#"-680x453.jpg" srcset="#) && detail.contains(#" 900w" sizes="(min-width: 720px) 680px, calc(100vw - 40px)""#), "\(detail)")
        #expect(detail.contains(#"width="900" height="600""#))
    }

    @Test func imagesBelowTheFirstScreenLoadLazily() async throws {
        let root = try Self.site(photos: Array(repeating: "photo.jpg", count: 8))
        _ = try await TestSupport.build(root)
        let gallery = try TestSupport.read(root, "index.html")
        let loading = gallery.matches(of: #/loading="(eager|lazy)"/#).map { String($0.output.1) }
        #expect(loading.count == 8)
        #expect(loading.first == "eager" && loading.last == "lazy", "\(loading)")
        #expect(loading == loading.sorted(), "eager ones first: \(loading)")
        // One image shown by eight items is processed once.
        #expect(try Self.media(root).count == 12)
    }

    @Test(arguments: [
        ("truncated.jpg", "libvips could not read it"),
        ("not-an-image.jpg", "it is not an image Marquee reads"),
        ("bomb.png", "it is 20000×20000 pixels, over the limit of 100 megapixels"),
    ])
    func hostileFilesWarnAndTheItemIsBuiltWithoutThem(file: String, reason: String) async throws {
        let root = try Self.site(photos: [file, "photo.jpg"])
        let report = try await TestSupport.build(root)
        let warning = try #require(report.warnings.first)
        #expect(report.warnings.count == 1)
        #expect(warning.file == "Content/images/\(file)")
        #expect(warning.message.contains("for \u{201C}Movie 0\u{201D}") && warning.message.contains(reason), "\(warning.message)")
        #expect(warning.message.hasSuffix("the item is shown without it."))
        // The item is a text cell; the next one keeps its image.
        let gallery = try TestSupport.read(root, "index.html")
        let cells = gallery.components(separatedBy: "<article").dropFirst()
        #expect(cells.count == 2)
        #expect(cells.first { $0.contains("Movie 0") }?.contains("<picture>") == false)
        #expect(cells.first { $0.contains("Movie 1") }?.contains("<picture>") == true)
        #expect(try Self.media(root).allSatisfy { $0.hasPrefix("photo-") })
    }

    @Test func anSVGIsDrawnIntoPixelsAndNothingOfItIsPublished() async throws {
        let root = try Self.site(photos: ["script.svg"])
        let report = try await TestSupport.build(root)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let media = try Self.media(root)
        #expect(!media.isEmpty && media.allSatisfy { !$0.hasSuffix(".svg") }, "\(media)")
        // Drawn edge to edge, it has nothing that shows through: a JPEG fallback.
        #expect(media.contains { $0.hasSuffix("-240x360.jpg") }, "\(media)")
        for file in media {
            let bytes = try Data(contentsOf: root.appending(path: "Site/media/\(file)"))
            #expect(bytes.range(of: Data("alert".utf8)) == nil && bytes.range(of: Data("<svg".utf8)) == nil, "\(file)")
        }
    }

    @Test func anAnimationGivesItsFirstFrame() async throws {
        // Three frames of 120×80: red, green and blue.
        let root = try Self.site(photos: ["animated.gif"])
        let report = try await TestSupport.build(root)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let media = try Self.media(root)
        #expect(media.contains { $0.hasSuffix("-120x80.jpg") } && !media.contains { $0.contains("x240.") }, "\(media)")
        // The placeholder is the first frame's red, not the mean of the three.
        #expect(try TestSupport.read(root, "index.html").contains("background-color: #c8"))
    }

    @Test func aRebuildReusesTheRenditionsAndAChangedImageReplacesThem() async throws {
        let root = try Self.site(photos: ["photo.jpg"], extra: 1)
        _ = try await TestSupport.build(root)
        let first = try Self.media(root)
        let cache = ImagePlugin.cacheFolder(root: root)
        let cached = try FileManager.default.contentsOfDirectory(atPath: cache.path).sorted()
        let stamps = try cached.map { try FileManager.default.attributesOfItem(atPath: cache.appending(path: $0).path)[.modificationDate] as? Date }

        // Another item changes: the image is neither processed again nor written again.
        let movies = root.appending(path: "Content/movies.json")
        try String(contentsOf: movies, encoding: .utf8).replacingOccurrences(of: "No image here.", with: "Still none.")
            .write(to: movies, atomically: true, encoding: .utf8)
        let second = try await TestSupport.build(root)
        #expect(second.filesWritten < 12, "\(second)")
        #expect(try Self.media(root) == first)
        #expect(try cached.map { try FileManager.default.attributesOfItem(atPath: cache.appending(path: $0).path)[.modificationDate] as? Date } == stamps)

        // The photo's bytes change: new names, and the old renditions leave the site.
        try FileManager.default.removeItem(at: root.appending(path: "Content/images/photo.jpg"))
        try FileManager.default.copyItem(at: Self.files.appending(path: "logo.png"), to: root.appending(path: "Content/images/photo.jpg"))
        _ = try await TestSupport.build(root)
        let third = try Self.media(root)
        // A 300-pixel square: one detail rendition, as 2× would be larger than the source.
        #expect(third.count == 9 && Set(third).isDisjoint(with: first), "\(third)")
        #expect(try TestSupport.read(root, "index.html").contains(third.first { $0.hasSuffix("-100x100.png") } ?? "?"))
    }

    @Test func thePlaceholderIsTheMostCommonColour() {
        // Mostly a dark red, with a few bright blue pixels and one of each grey.
        var pixels: [UInt8] = []
        for _ in 0..<60 { pixels += [140, 20, 30] }
        for _ in 0..<30 { pixels += [20, 40, 250] }
        for grey in stride(from: 0, to: 250, by: 25) { pixels += [UInt8(grey), UInt8(grey), UInt8(grey)] }
        #expect(DominantColour.of(rgb: pixels) == "#8c141e")
        #expect(DominantColour.of(rgb: []) == "#808080")
    }

    /// libvips is opened by the first image to process, not linked: `marquee build` of a site
    /// with no image never loads it, and one with a photo does (the dynamic loader's own log
    /// says which libraries it opened).
    @Test func libvipsIsLoadedOnlyForImages() throws {
        func librariesLoaded(building root: URL) throws -> String {
            let process = Process()
            process.executableURL = TestSupport.repository.appending(path: ".build/debug/marquee")
            process.arguments = ["build", "--root", root.path, "--quiet"]
            process.environment = ProcessInfo.processInfo.environment.merging(["LD_DEBUG": "files"]) { $1 }
            let log = Pipe()
            process.standardError = log
            try process.run()
            let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text.suffix(2000))")
            return text
        }
        #expect(!(try librariesLoaded(building: Self.site(photos: [], extra: 3))).contains("libvips.so"))
        #expect(try librariesLoaded(building: Self.site(photos: ["photo.jpg"])).contains("libvips.so"))
    }
}
