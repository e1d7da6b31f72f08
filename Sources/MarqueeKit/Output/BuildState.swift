import Foundation
import OrderedCollections

/// What the last successful build of a site produced, so that a rebuild whose inputs have not
/// changed can stop right after loading, and a rebuild after an edit can keep the pages whose
/// values did not change: a fingerprint of the loaded items, the configuration, the theme and
/// the plugins, and for every file written its size and modification time. (Which values made
/// each file is the memo's to remember: see ``FileMakers``.)
/// Stored in `ROOT/.marquee-cache/build-<hash of the output path>.state`, one line per file; a
/// build that changed a few files appends their lines instead of writing every line again (see
/// ``save(for:replacing:changed:)``).
struct BuildState: Equatable {
    var fingerprint: String
    /// Hash of what every page depends on besides its own values (see ``environment(of:)``).
    var environment: String
    /// Hash of what the items were loaded from, taken before loading (see
    /// ``inputs(files:contentStamps:environment:)``); `-` when a plugin could not say.
    var inputs: String = "-"
    var items: Int
    var pages: Int
    /// Path → size and modification time of every file of the output.
    var files: OutputPaths<FileStamp>
    /// Every folder holding those files (`""` is the output folder) → its modification time in
    /// ns. A folder's time changes whenever an entry is added to it or removed from it, so while
    /// these are unchanged the output holds exactly the files listed, without reading a folder.
    var folders: OutputPaths<Int64> = [:]

    static let version = "marquee-0.7"

    static func file(for site: Site) -> URL {
        site.root.appending(path: ".marquee-cache/build-\(StableHash.hex(site.output.path).prefix(12)).state")
    }

    static func load(for site: Site) -> BuildState? {
        load(from: file(for: site))
    }

    static func load(from file: URL) -> BuildState? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return parse(Array(data))
    }

    /// Saves the state. When `previous` is the state the file holds and `changed` names every
    /// file and folder whose line differs from it (added, changed or removed), only those lines
    /// and a new summary are appended: a one-item rebuild changes a few lines of a large site's
    /// megabyte. Otherwise, or once the file would be over a quarter larger than a fresh one, the
    /// whole state is written anew: every build reads all of it, lines replaced by later ones
    /// too, and one written anew every few hundred rebuilds costs less than reading up to twice
    /// the lines on every one.
    func save(for site: Site, replacing previous: BuildState? = nil, changed: (files: [String], folders: [String])? = nil) {
        save(to: Self.file(for: site), replacing: previous, changed: changed)
    }

    /// ``save(for:replacing:changed:)`` to `target`.
    func save(to target: URL, replacing previous: BuildState? = nil, changed: (files: [String], folders: [String])? = nil) {
        if let previous, let changed, append(to: target.path, replacing: previous, files: changed.files, folders: changed.folders) { return }
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        FileIO.replace(target.path, with: bytes)
    }

    /// Appends the lines of `files` and `folders` that differ from `previous` (removals first,
    /// so that a path removed as a file and added as a folder, or the other way, reads back
    /// added), and the summary, to the file at `path` if it holds `previous`; false (the file as
    /// it was) otherwise, and when those lines would not make this state of `previous`'s.
    private func append(to path: String, replacing previous: BuildState, files changedFiles: [String], folders changedFolders: [String]) -> Bool {
        var removals: [UInt8] = [], additions: [UInt8] = []
        /// The lines of `changed` paths of `table` that differ from `earlier`, and whether they
        /// account for every difference in the tables' sizes (a path named twice does not, and
        /// the state is then written whole).
        func lines<Value>(
            _ changed: [String], of table: OutputPaths<Value>, against earlier: OutputPaths<Value>,
            _ line: (String, Value) -> Void
        ) -> Bool {
            var count = earlier.count
            for path in changed {
                let value = table[path], earlierValue = earlier[path]
                guard value != earlierValue else { continue }
                count += (value == nil ? 0 : 1) - (earlierValue == nil ? 0 : 1)
                if let value { line(path, value) } else { Self.append(removal: path, to: &removals) }
            }
            return count == table.count
        }
        guard lines(changedFiles, of: files, against: previous.files, { Self.append($0, $1, to: &additions) }),
              lines(changedFolders, of: folders, against: previous.folders, { Self.append(folder: $0, $1, to: &additions) })
        else { return false }
        let descriptor = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, Self.lastLine(of: descriptor, size: Int(info.st_size)) == previous.summaryLine else { return false }
        var added = removals + additions
        added += summaryLine.utf8
        added.append(UInt8(ascii: "\n"))
        let freshSize = files.pathBytes + 40 * files.count + folders.pathBytes + 25 * folders.count
        guard Int(info.st_size) + added.count <= freshSize + freshSize / 4 else { return false }
        let complete = FileIO.writeAll(added, to: descriptor)
        // A half-written line would make the next build ignore the whole state.
        if !complete { _ = ftruncate(descriptor, info.st_size) }
        return complete
    }

    /// The file's last line (without its line break), read from its end.
    private static func lastLine(of descriptor: Int32, size: Int) -> String? {
        let length = min(size, 512)
        var tail = [UInt8](repeating: 0, count: length)
        guard length > 1, pread(descriptor, &tail, length, off_t(size - length)) == length, tail.last == UInt8(ascii: "\n") else { return nil }
        let start = tail.dropLast().lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return String(decoding: tail[start..<(length - 1)], as: UTF8.self)
    }

    /// The `inputs` that the state at `file(for: site)` recorded, read from its last line only
    /// (a large site's state is a megabyte).
    static func recordedInputs(for site: Site) -> String? {
        let descriptor = open(file(for: site).path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, let summary = lastLine(of: descriptor, size: Int(info.st_size)) else { return nil }
        let fields = summary.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0] == version else { return nil }
        return String(fields[3])
    }

    /// The line that sums a build up: `version fingerprint environment inputs items pages`.
    private var summaryLine: String {
        "\(Self.version) \(fingerprint) \(environment) \(inputs) \(items) \(pages)"
    }

    /// The state as text: `size mtime path` per file and `d mtime - path` per folder (paths
    /// never hold control characters, see ``OutputSet/isSafe(_:)``), then the summary line.
    /// Lines appended later replace earlier lines of the same path, `r path` removes them, and
    /// the last summary counts.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// ``text`` as UTF-8.
    private var bytes: [UInt8] {
        var bytes: [UInt8] = []
        for (path, stamp) in files { Self.append(path, stamp, to: &bytes) }
        for (path, time) in folders { Self.append(folder: path, time, to: &bytes) }
        bytes += summaryLine.utf8
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Appends a file's line.
    private static func append(_ path: String, _ stamp: FileStamp, to bytes: inout [UInt8]) {
        bytes += String(stamp.size).utf8
        bytes.append(UInt8(ascii: " "))
        bytes += String(stamp.modified).utf8
        bytes.append(UInt8(ascii: " "))
        bytes += path.utf8
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends the line that removes a file's or a folder's earlier line.
    private static func append(removal path: String, to bytes: inout [UInt8]) {
        bytes += "r ".utf8
        bytes += path.utf8
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends a folder's line.
    private static func append(folder path: String, _ time: Int64, to bytes: inout [UInt8]) {
        bytes += "d ".utf8
        bytes += String(time).utf8
        bytes += " - ".utf8
        bytes += path.utf8
        bytes.append(UInt8(ascii: "\n"))
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
        let parts = [
            version, executableStamp, site.outputSettings, site.plugins.map(\.name).joined(separator: ","), site.output.path,
            site.theme.fingerprint,
        ]
        return StableHash.hex(parts.joined(separator: "\u{1F}"))
    }

    /// ``SourceStamps/stamps(under:)`` of `Content/`: `all` of them, for ``inputs(files:contentStamps:environment:)``,
    /// and those of every entry but the item files, for ``fingerprint(items:contentStamps:environment:)``.
    /// Local files (posters, images in descriptions) are read later than the checks that use
    /// these: their stamps stand in for them, and a file rewritten in place with its size and
    /// modification time kept still shows, by its change time. An item file's bytes are in the
    /// items the fingerprint hashes, so a list saved again unchanged (by an editor, a checkout)
    /// leaves the fingerprint as it was and the build stops after loading.
    static func contentStamps(of site: Site, itemFiles: [URL]) -> (all: String, besideItemFiles: String) {
        let content = site.root.appending(path: "Content").standardizedFileURL.path
        let inside = Set(itemFiles.map(\.standardizedFileURL.path).compactMap { path in
            path.hasPrefix(content + "/") ? String(path.dropFirst(content.count + 1)) : nil
        })
        let stamps = SourceStamps.stamps(under: content, settingAside: inside)
        return (stamps.all, stamps.rest)
    }

    /// A hash of what the items are loaded from, to be taken before loading: the environment,
    /// the stamps under `Content/`, and the device, inode, size, modification and change times of
    /// every file the sources declare (``Plugin/itemFiles(in:)``). Any write to a file changes its
    /// change time, which no program can set back. Nil when a declared file cannot be read.
    static func inputs(files: [URL], contentStamps: String, environment: String) -> String? {
        var hasher = StableHasher("inputs")
        hasher.combine(environment)
        hasher.combine(contentStamps)
        for file in files {
            guard let stamp = FileIO.changeStamp(of: file.path) else { return nil }
            hasher.combine(file.path)
            for number in stamp { hasher.combine(number) }
        }
        return hasher.hex
    }

    /// A hash of everything the output depends on, given the loaded items; each item keeps the
    /// digest of its body worked out for it (``Item/recordBodyDigest()``).
    static func fingerprint(items: inout [Item], contentStamps: String, environment: String) -> String {
        let parts = [environment, contentStamps]
        // Items are hashed on every core, field by field (not "\(value)" of enums and arrays:
        // reflection is slow), then their hashes in order. Each body's digest stays on its item
        // for the markup stage's key.
        let itemHashes = items.concurrentUpdate { item in
            let origin = item.originDigest
            item.recordBodyDigest()
            // What the item was made from, when its loader knows (most of a large list's movies).
            if let origin {
                var hasher = originNamespace
                hasher.combine(Int(truncatingIfNeeded: origin))
                return hasher.value
            }
            var hasher = StableHasher()
            hasher.combine(Int(truncatingIfNeeded: item.bodyDigest))
            // Every other field, the way page digests take them (most are still empty here).
            item.combine(into: &hasher)
            return hasher.value
        }
        var hasher = StableHasher("fingerprint")
        for part in parts { hasher.combine(part) }
        for hash in itemHashes { hasher.combine(Int(truncatingIfNeeded: hash)) }
        return hasher.hex
    }

    /// Where an item's hash in the fingerprint starts when it is its origin (hashed once, not
    /// per item).
    private static let originNamespace = StableHasher("origin")

    /// True when the output folder still holds exactly the files this state recorded, untouched
    /// (same sizes and modification times, no folder changed).
    func matches(_ output: URL) -> Bool {
        check(output)?.isUntouched ?? false
    }

    /// The output compared with this state (see ``check(_:)``).
    struct OutputCheck: Sendable {
        /// Per place of ``BuildState/files``: true when the file has the recorded size and
        /// modification time.
        let untouchedFiles: [Bool]
        /// True when every folder has its recorded time: none had an entry added or removed, so
        /// the output holds exactly the files the state lists.
        let foldersUnchanged: Bool

        /// Every file and folder as recorded.
        var isUntouched: Bool { foldersUnchanged && !untouchedFiles.contains(false) }
    }

    /// Compares every file and folder of `output` with this state: one POSIX `stat` each, on
    /// every core (Foundation's `attributesOfItem` costs far more). Each file's folder is looked at
    /// right after the file, while its name is fresh in the kernel's caches. Nil when the output
    /// folder cannot be opened.
    func check(_ output: URL) -> OutputCheck? {
        guard let outputFolder = OpenFolder(output.path) else { return nil }
        let files = files, folders = folders
        @Sendable func folderUnchanged(_ path: String, since time: Int64) -> Bool {
            outputFolder.status(of: path)?.modifiedNanoseconds == time
        }
        let checked = Array(files.places).concurrentMap { place -> (file: Bool, folder: Int?, folderUnchanged: Bool) in
            guard let recorded = files.value(at: place) else { return (true, nil, true) }
            let path = files.path(at: place)
            let untouched = outputFolder.status(of: path).map { FileStamp($0) == recorded } ?? false
            let parent = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? ""
            guard let folder = folders.place(of: parent), let time = folders.value(at: folder) else { return (untouched, nil, true) }
            return (untouched, folder, folderUnchanged(parent, since: time))
        }
        var foldersUnchanged = folders.count > 0
        var seen = [Bool](repeating: false, count: folders.places.count)
        for result in checked {
            guard let folder = result.folder else { continue }
            seen[folder] = true
            foldersUnchanged = foldersUnchanged && result.folderUnchanged
        }
        // The folders that hold only folders (`items/`, `page/`).
        if foldersUnchanged {
            let rest = folders.places.filter { !seen[$0] }
            foldersUnchanged = !rest.concurrentMap { place in
                guard let time = folders.value(at: place) else { return true }
                return folderUnchanged(folders.path(at: place), since: time)
            }.contains(false)
        }
        return OutputCheck(untouchedFiles: checked.map(\.file), foldersUnchanged: foldersUnchanged)
    }

    /// Every folder holding one of `files`, with its ancestors; `""` is the output folder. In the
    /// order the files name them, which the state keeps: a page's folder is then looked up beside
    /// the page, in the order the file system made both.
    static func folders(holding files: some Sequence<String>) -> [String] {
        var folders: OrderedSet<String> = [""]
        for path in files {
            // By bytes: `lastIndex(of:)` on the characters would walk grapheme clusters.
            var folder = Substring(path)
            while let slash = folder.utf8.lastIndex(of: UInt8(ascii: "/")) {
                folder = folder[..<slash]
                guard folders.append(String(folder)).inserted else { break }
            }
        }
        return folders.elements
    }

    /// The times of the folders holding `files` after a commit that made `changes` in place, and
    /// which folders were read again (nil: all were).
    /// `known` is the previous state when its folder times were confirmed before the commit (see
    /// ``check(_:)``): then only the folders of the files moved in or removed (with their
    /// ancestors) are read again; those the commit left empty, and so removed, are gone, and
    /// those it made are added. Otherwise, or when the output was replaced whole, all are read.
    static func folderStamps(
        holding files: OutputPaths<FileStamp>, in output: URL, known: BuildState?, changes: (moved: [String], removed: [String])?
    ) -> (stamps: OutputPaths<Int64>, reread: [String]?) {
        guard let known, let changes else { return (folderStamps(folders(holding: files.paths), in: output), nil) }
        var stamps = known.folders
        let changed = folders(holding: changes.moved + changes.removed)
        let reread = folderStamps(changed, in: output)
        for folder in changed { stamps[folder] = reread[folder] }
        return (stamps, changed)
    }

    /// The modification times (ns) of `folders` under `output`; a missing folder is left out.
    /// Read on every core: after a full build, one `stat` per item's folder.
    static func folderStamps(_ folders: [String], in output: URL) -> OutputPaths<Int64> {
        guard let outputFolder = OpenFolder(output.path) else { return [:] }
        let times = folders.concurrentMap { folder -> Int64? in outputFolder.status(of: folder)?.modifiedNanoseconds }
        var stamps = OutputPaths<Int64>(minimumCapacity: folders.count)
        for (folder, time) in zip(folders, times) { stamps[folder] = time }
        return stamps
    }
}

extension BuildState {
    /// Reads ``text``; nil when it is of another version or damaged.
    init?(text: String) {
        guard let state = Self.parse(Array(text.utf8)) else { return nil }
        self = state
    }

    /// Reads the lines of ``text``. Every line ends with a line break, and the last one is a
    /// summary: a state whose appending was cut short is not read.
    private static func parse(_ bytes: [UInt8]) -> BuildState? {
        guard bytes.last == UInt8(ascii: "\n") else { return nil }
        var files = OutputPaths<FileStamp>(), folders = OutputPaths<Int64>()
        var summary: (fingerprint: String, environment: String, inputs: String, items: Int, pages: Int)?
        var endsWithSummary = false
        var lineStart = 0
        while let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            var line = Line(rest: bytes[lineStart..<lineEnd])
            lineStart = lineEnd + 1
            endsWithSummary = false
            guard let kind = line.field() else { return nil }
            if kind.elementsEqual("r".utf8) {
                // `r PATH`: the path's earlier line no longer counts.
                let path = line.path
                files[path] = nil
                folders[path] = nil
            } else if kind.elementsEqual(version.utf8) {
                // `VERSION FINGERPRINT ENVIRONMENT INPUTS ITEMS PAGES`
                guard let fingerprint = line.field(), let environment = line.field(), let inputs = line.field(),
                      let items = line.field().flatMap(Line.number), let pages = Line.number(line.rest)
                else { return nil }
                summary = (Line.text(fingerprint), Line.text(environment), Line.text(inputs), Int(items), Int(pages))
                endsWithSummary = true
            } else if kind.elementsEqual("d".utf8) {
                // `d TIME - PATH`
                guard let time = line.field().flatMap(Line.number), line.field() != nil else { return nil }
                folders[line.path] = time
            } else {
                // `SIZE TIME PATH`
                guard let size = Line.number(kind), let time = line.field().flatMap(Line.number) else { return nil }
                files[line.path] = FileStamp(size: size, modified: time)
            }
        }
        guard let summary, endsWithSummary else { return nil }
        return BuildState(
            fingerprint: summary.fingerprint, environment: summary.environment, inputs: summary.inputs, items: summary.items,
            pages: summary.pages, files: files, folders: folders)
    }

    /// A line of the state, read field by field from the front.
    private struct Line {
        var rest: ArraySlice<UInt8>

        /// The next field, up to a space (which is passed); nil when the line has no more spaces.
        mutating func field() -> ArraySlice<UInt8>? {
            guard let space = rest.firstIndex(of: UInt8(ascii: " ")) else { return nil }
            defer { rest = rest[(space + 1)...] }
            return rest[..<space]
        }

        /// The rest of the line: a path, which may hold spaces.
        var path: String { Self.text(rest) }

        static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

        static func number(_ bytes: ArraySlice<UInt8>) -> Int64? { Int64(text(bytes)) }
    }
}
