import Foundation
@testable import MarqueeKit

/// Paths and helpers shared by the tests.
enum TestSupport {
    /// The repository root.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Tests/Fixtures`: the inputs the tests build sites from.
    static let fixtures = repository.appending(path: "Tests/Fixtures")

    /// A new empty folder inside the running suite's scratch folder, which is removed when the
    /// suite ends (the suite needs the `.removesTemporaryFolders` trait).
    static func temporaryFolder() throws -> URL {
        guard let scratch = RemovesTemporaryFolders.scratch else {
            throw MissingTrait()
        }
        let folder = scratch.appending(path: UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    struct MissingTrait: Error, CustomStringConvertible {
        var description: String { "a suite that makes temporary folders needs the .removesTemporaryFolders trait" }
    }

    /// A site folder with `Content/site.yml` and the given files copied into `Content/`.
    static func makeSite(config: String, files: [String: URL] = [:], texts: [String: String] = [:]) throws -> URL {
        let root = try temporaryFolder()
        let content = root.appending(path: "Content")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try config.write(to: content.appending(path: "site.yml"), atomically: true, encoding: .utf8)
        for (path, source) in files {
            let target = content.appending(path: path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: target)
        }
        for (path, text) in texts {
            let target = content.appending(path: path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: target, atomically: true, encoding: .utf8)
        }
        return root
    }

    static let fixtureConfig = """
        title: "Fixture <Gallery> & Co"
        sources:
          - type: movies
            path: movies.json
          - type: feed
            path: feeds/popular.xml
        """

    /// The fixture site: the shared movie list (with its posters) and the DeviantArt feed, with
    /// `config` (by default a title and those two sources).
    static func makeFixtureSite(config: String = fixtureConfig) throws -> URL {
        try makeSite(
            config: config,
            files: [
                "movies.json": fixtures.appending(path: "movies/movies-2016.json"),
                "images": fixtures.appending(path: "images"),
                "feeds/popular.xml": fixtures.appending(path: "feeds/deviantart-popular.xml"),
            ])
    }

    /// `dictionary`'s entries inserted in reverse order into a dictionary of `capacity`: the same
    /// contents, most likely listed in another order (tests of order-independence try capacities
    /// until the order differs).
    static func reinserted<Key: Hashable, Value>(_ dictionary: [Key: Value], capacity: Int) -> [Key: Value] {
        var copy = [Key: Value](minimumCapacity: capacity)
        for (key, value) in dictionary.reversed() { copy[key] = value }
        return copy
    }

    /// Builds the site at `root` and returns the report.
    static func build(_ root: URL, output: URL? = nil) async throws -> BuildReport {
        let site = try Site.fromConfig(root: root, output: output)
        return try await SiteBuilder(site: site).build()
    }

    /// Builds the site at `root`, fetching its remote sources with `options`; returns the report,
    /// the gallery page and the root.
    static func build(_ root: URL, fetching options: FeedFetcher.Options) async throws -> (BuildReport, String, URL) {
        let site = try Site.fromConfig(root: root, output: nil, baseURL: nil, fetchOptions: options)
        let report = try await SiteBuilder(site: site).build()
        return (report, try read(root, "index.html"), root)
    }

    static func read(_ root: URL, _ path: String) throws -> String {
        try String(contentsOf: root.appending(path: "Site/\(path)"), encoding: .utf8)
    }

    /// Every file under a folder with its contents, for comparing whole trees.
    static func snapshot(_ folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        let base = folder.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return result }
        for case let file as URL in walker {
            // Empty files are not read: Foundation leaks a 4 KiB buffer for each (seen with LeakSanitizer).
            let isEmpty = ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? nil) == 0
            if let data = isEmpty ? Data() : FileManager.default.contents(atPath: file.path), !file.hasDirectoryPath {
                result[String(file.standardizedFileURL.path.dropFirst(base.count + 1))] = data
            }
        }
        return result
    }
}

extension String {
    /// The number of non-overlapping occurrences of `needle`.
    func occurrences(of needle: String) -> Int {
        components(separatedBy: needle).count - 1
    }
}

extension FileIO {
    /// The paths (relative, `/`-separated) of the regular files under `folder` (a build lists
    /// every entry instead: see `StagedOutput.strays`).
    static func regularFiles(under folder: String) -> Set<String> {
        var result: Set<String> = []
        walk(folder) { path, type in
            if type == Int32(DT_REG) { result.insert(path) }
        }
        return result
    }
}

/// Notes which pages reach post-processing (reused pages do not).
final class PageCounter: Plugin, Sendable {
    let name = "page-counter"
    private let pages = Locked<[String]>([])
    func postProcess(_ file: inout OutputFile, in context: BuildContext) throws {
        if file.isPage { pages.withLock { $0.append(file.path) } }
    }
    func take() -> [String] { pages.withLock { let all = $0.sorted(); $0 = []; return all } }
}
