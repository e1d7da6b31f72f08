import Foundation

/// What the last successful build of a site produced, so that a rebuild whose inputs have not
/// changed can stop right after loading, and a rebuild after an edit can keep the pages whose
/// values did not change: a fingerprint of the loaded items, the configuration, the theme and
/// the plugins, and for every file written its size, modification time and digest.
/// Stored in `ROOT/.marquee-cache/build-<hash of the output path>.state`, one line per file.
struct BuildState: Equatable {
    var fingerprint: String
    /// Hash of what every page depends on besides its own values (see ``environment(of:)``).
    var environment: String
    /// Path → digest of the values the page was rendered from (see ``OutputSet/reuse(_:digest:)``).
    var digests: [String: UInt64]
    var items: Int
    var pages: Int
    /// Path → [size, modification time in ms].
    var files: [String: [Int64]]
    /// Every folder holding those files (`""` is the output folder) → its modification time in
    /// ns. A folder's time changes whenever an entry is added to it or removed from it, so while
    /// these are unchanged the output holds exactly the files listed, without reading a folder.
    var folders: [String: Int64] = [:]

    static let version = "marquee-0.3"

    static func file(for site: Site) -> URL {
        site.root.appending(path: ".marquee-cache/build-\(StableHash.hex(site.output.path).prefix(12)).state")
    }

    static func load(for site: Site) -> BuildState? {
        guard let data = try? Data(contentsOf: file(for: site)) else { return nil }
        return BuildState(text: String(decoding: data, as: UTF8.self))
    }

    func save(for site: Site) {
        let target = Self.file(for: site)
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: target, options: .atomic)
    }

    /// `version fingerprint environment items pages`, then `size mtime digest path` per file and
    /// `d mtime - path` per folder
    /// (paths never hold control characters, see ``OutputSet/isSafe(_:)``).
    var text: String {
        var text = "\(Self.version) \(fingerprint) \(environment) \(items) \(pages)\n"
        text.reserveCapacity(files.count * 64)
        for (path, stamp) in files {
            text += "\(stamp[0]) \(stamp[1]) \(digests[path].map { String($0, radix: 16) } ?? "-") \(path)\n"
        }
        for (path, time) in folders {
            text += "d \(time) - \(path)\n"
        }
        return text
    }

    /// The running program's size and modification time: a rebuilt or upgraded Marquee may make
    /// pages differently from the same values, so nothing of an earlier program's output is reused.
    static let executableStamp: String = {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return "" }
        return "\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }()

    /// A hash of what every page depends on besides its own values: Marquee's version and binary, the
    /// configuration, the plugins, the output folder and the theme.
    static func environment(of site: Site) -> String {
        var parts = [version, executableStamp, "\(site.config)", site.plugins.map(\.name).joined(separator: ","), site.output.path]
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
        // Fed to the hasher field by field; not "\(value)" of enums and arrays (reflection is slow).
        var hasher = StableHasher("fingerprint")
        for part in parts { hasher.combine(part) }
        for item in items {
            switch item.body {
            case .markdown(let text, let base): hasher.combine("m"); hasher.combine(text); hasher.combine(base?.path ?? "")
            case .html(let text, let base): hasher.combine("h"); hasher.combine(text); hasher.combine(base?.absoluteString ?? "")
            case .text(let text): hasher.combine("t"); hasher.combine(text)
            }
            // Every other field, the way page digests take them (most are still empty here).
            item.combine(into: &hasher)
        }
        return hasher.hex
    }

    /// A file's size and modification time in milliseconds, as recorded.
    static func stamp(_ info: stat) -> [Int64] {
        [Int64(info.st_size), Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000]
    }

    /// True when the output folder still holds exactly the files this state recorded, untouched
    /// (same sizes and modification times, no folder changed). POSIX `stat` on every core:
    /// Foundation's `attributesOfItem` costs ~100 µs a file here.
    func matches(_ output: URL) -> Bool {
        let base = output.path + "/"
        let unchanged = Array(files).concurrentMap { entry -> Bool in
            var info = stat()
            return stat(base + entry.key, &info) == 0 && Self.stamp(info) == entry.value
        }
        return !unchanged.contains(false) && foldersUnchanged(in: output)
    }

    /// The paths of the files in `output` when no folder of it changed since this state was
    /// recorded (so none was added or removed), without reading the folders; nil otherwise.
    func listing(of output: URL) -> Set<String>? {
        foldersUnchanged(in: output) ? Set(files.keys) : nil
    }

    private func foldersUnchanged(in output: URL) -> Bool {
        guard !folders.isEmpty else { return false }
        let stamps = Self.folderStamps(Array(folders.keys), in: output)
        return stamps == folders
    }

    /// Every folder holding one of `files`, with its ancestors; `""` is the output folder.
    static func folders(holding files: some Sequence<String>) -> [String] {
        var folders: Set<String> = [""]
        for path in files {
            var folder = path
            while let slash = folder.lastIndex(of: "/") {
                folder = String(folder[..<slash])
                guard folders.insert(folder).inserted else { break }
            }
        }
        return Array(folders)
    }

    /// The modification times (ns) of `folders` under `output`; a missing folder is left out.
    static func folderStamps(_ folders: [String], in output: URL) -> [String: Int64] {
        let base = output.path
        let times = folders.concurrentMap { folder -> Int64? in
            var info = stat()
            guard stat(folder.isEmpty ? base : base + "/" + folder, &info) == 0 else { return nil }
            return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        }
        var stamps: [String: Int64] = [:]
        for (folder, time) in zip(folders, times) { stamps[folder] = time }
        return stamps
    }
}

extension BuildState {
    /// Reads ``text``; nil when it is of another version or damaged.
    init?(text: String) {
        // Split as bytes: splitting a String by Characters cost more than the rest of loading it.
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"))
        guard !lines.isEmpty else { return nil }
        let header = lines.removeFirst().split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
        guard header.count == 5, header[0] == Self.version, let items = Int(header[3]), let pages = Int(header[4]) else { return nil }
        func number(_ bytes: Substring.UTF8View.SubSequence) -> Int64? { Int64(String(decoding: bytes, as: UTF8.self)) }
        var files: [String: [Int64]] = [:]
        var folders: [String: Int64] = [:]
        var digests: [String: UInt64] = [:]
        files.reserveCapacity(lines.count)
        for line in lines {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, let time = number(fields[1]) else { return nil }
            let path = String(decoding: fields[3], as: UTF8.self)
            if fields[0].elementsEqual("d".utf8) {
                folders[path] = time
                continue
            }
            guard let size = number(fields[0]) else { return nil }
            files[path] = [size, time]
            if let digest = UInt64(String(decoding: fields[2], as: UTF8.self), radix: 16) { digests[path] = digest }
        }
        self.init(
            fingerprint: header[1], environment: header[2], digests: digests, items: items, pages: pages,
            files: files, folders: folders)
    }
}
