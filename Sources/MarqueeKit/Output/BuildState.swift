import Foundation

/// What the last successful build of a site produced, so that a rebuild whose inputs have not
/// changed can stop right after loading: a fingerprint of the loaded items, the configuration,
/// the theme and the plugins, and the size and modification time of every file written.
/// Stored in `ROOT/.marquee-cache/build-<hash of the output path>.json`.
struct BuildState: Codable, Equatable {
    var fingerprint: String
    /// Hash of what every page depends on besides its own values (see ``environment(of:)``).
    var environment: String
    /// Path → digest of the values the page was rendered from (see ``OutputSet/reuse(_:digest:)``).
    var digests: [String: UInt64]
    var items: Int
    var pages: Int
    /// Path → [size, modification time in ms].
    var files: [String: [Int64]]

    static let version = "marquee-0.2"

    static func file(for site: Site) -> URL {
        site.root.appending(path: ".marquee-cache/build-\(StableHash.hex(site.output.path).prefix(12)).json")
    }

    static func load(for site: Site) -> BuildState? {
        guard let data = try? Data(contentsOf: file(for: site)) else { return nil }
        return try? JSONDecoder().decode(BuildState.self, from: data)
    }

    func save(for site: Site) {
        let target = Self.file(for: site)
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? JSONEncoder().encode(self).write(to: target, options: .atomic)
    }

    /// A hash of what every page depends on besides its own values: Marquee's version, the
    /// configuration, the plugins, the output folder and the theme.
    static func environment(of site: Site) -> String {
        var parts = [version, "\(site.config)", site.plugins.map(\.name).joined(separator: ","), site.output.path]
        let assets = site.theme.assets
        parts.append(assets.files.keys.sorted().joined(separator: ","))
        parts.append([assets.stylesheet, assets.script, assets.filterScript].joined(separator: ","))
        for name in Theme.requiredTemplates { parts.append(site.theme.templates.getTemplate(named: name)?.description ?? "") }
        return StableHash.hex(parts.joined(separator: "\u{1F}"))
    }

    /// A hash of everything the output depends on, given the loaded items.
    static func fingerprint(items: [Item], site: Site, environment: String) -> String {
        var parts = [environment]
        // Local files (posters, images in descriptions) are read later than this check: their
        // sizes and modification times stand in for them.
        let content = site.root.appending(path: "Content")
        if let walker = FileManager.default.enumerator(at: content, includingPropertiesForKeys: [.fileSizeKey, .contentModificationDateKey]) {
            var stamps: [String] = []
            for case let url as URL in walker {
                let values = try? url.resourceValues(forKeys: [.fileSizeKey, .contentModificationDateKey])
                stamps.append("\(url.path):\(values?.fileSize ?? -1):\(values?.contentModificationDate?.timeIntervalSince1970 ?? 0)")
            }
            parts.append(stamps.sorted().joined(separator: ","))
        }
        // Plain concatenation, not "\(value)" of enums and arrays: reflection would dominate.
        for item in items {
            let body: String
            switch item.body {
            case .markdown(let text, let base): body = "m" + text + (base?.path ?? "")
            case .html(let text, let base): body = "h" + text + (base?.absoluteString ?? "")
            case .text(let text): body = "t" + text
            }
            var images = ""
            for image in item.images { images += image.url + ":" + String(image.width ?? 0) + "x" + String(image.height ?? 0) + "," }
            parts.append(item.id + "|" + item.source + "|" + item.title + "|" + (item.link ?? "") + "|" + item.intro + "|" + body
                + "|" + images + "|" + (item.author ?? "") + "|" + String(item.date?.timeIntervalSince1970 ?? 0) + "|" + item.tags.joined(separator: ","))
        }
        return StableHash.hex(parts.joined(separator: "\u{1F}"))
    }

    /// A file's size and modification time in milliseconds, as recorded.
    static func stamp(_ info: stat) -> [Int64] {
        [Int64(info.st_size), Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000]
    }

    /// Sizes and modification times of the files now in `output`.
    static func snapshot(_ output: URL, paths: [String]) -> [String: [Int64]] {
        // POSIX stat: Foundation's attributesOfItem costs ~100 µs a file here.
        var result: [String: [Int64]] = [:]
        result.reserveCapacity(paths.count)
        let base = output.path + "/"
        for path in paths {
            var info = stat()
            guard stat(base + path, &info) == 0 else { continue }
            result[path] = stamp(info)
        }
        return result
    }

    /// True when the output folder still holds exactly the files this state recorded, untouched.
    func matches(_ output: URL) -> Bool {
        let now = Self.snapshot(output, paths: Array(files.keys))
        guard now == files else { return false }
        return FileIO.regularFiles(under: output.path).count == files.count
    }
}
