import Foundation

/// The few file operations the output writer needs, on POSIX calls: Foundation's
/// `FileManager.createFile` writes every file through a temporary file and a rename, and
/// `contents(atPath:)` reads a file even when its size alone shows it differs.
enum FileIO {
    /// The file's status when the regular file at `path` (inside `folder` when given) holds
    /// exactly `contents`, else nil.
    static func matching(_ path: String, _ contents: Data, in folder: OpenFolder? = nil) -> stat? {
        let descriptor = openat(folder?.descriptor ?? AT_FDCWD, path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == contents.count else { return nil }
        return hasContents(descriptor, contents) ? info : nil
    }

    private static func hasContents(_ descriptor: Int32, _ contents: Data) -> Bool {
        if contents.isEmpty { return true }
        var existing = [UInt8](repeating: 0, count: contents.count)
        var offset = 0
        while offset < existing.count {
            let count = existing.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + offset, $0.count - offset, off_t(offset)) }
            if count <= 0 { return false }
            offset += count
        }
        return contents.withUnsafeBytes { new in existing.withUnsafeBytes { memcmp(new.baseAddress!, $0.baseAddress!, new.count) == 0 } }
    }

    /// The whole regular file at `path`; nil when it cannot be read (or is not a regular file).
    static func contents(of path: String) -> Data? {
        bytes(of: path).map { Data($0) }
    }

    /// ``contents(of:)`` as an array; nil too when the file shrinks while it is read.
    static func bytes(of path: String) -> [UInt8]? {
        readingParts(of: path) { read, size in
            let bytes = read(0, size)
            return bytes.count == size ? bytes : nil
        } ?? nil
    }

    /// `body`'s result, given the size of the regular file at `path` and a function that reads
    /// it in parts: the bytes at an offset, as many as asked for or as the file still holds. Nil
    /// when the file cannot be opened or is not a regular file.
    static func readingParts<T, Failure: Error>(
        of path: String, _ body: (_ read: (_ offset: Int, _ count: Int) -> [UInt8], _ size: Int) throws(Failure) -> T
    ) throws(Failure) -> T? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        let read = { (offset: Int, count: Int) -> [UInt8] in
            guard offset >= 0, count > 0, offset < size else { return [] }
            // Read into uninitialized room: zeroing megabytes first (a large site's memo) only
            // to overwrite them doubled the cost of reading.
            return [UInt8](unsafeUninitializedCapacity: min(count, size - offset)) { buffer, initialized in
                while initialized < buffer.count {
                    let count = pread(descriptor, buffer.baseAddress! + initialized, buffer.count - initialized, off_t(offset + initialized))
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    initialized += count
                }
            }
        }
        return try body(read, size)
    }

    /// Creates or truncates `path` (inside `folder` when given) and writes `contents`; returns
    /// the file's stamp as written (read from the open file: no second path lookup).
    @discardableResult
    static func write(_ contents: Data, to path: String, in folder: OpenFolder? = nil) throws(BuildError) -> FileStamp {
        let descriptor = openat(folder?.descriptor ?? AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(path, in: folder) }
        defer { close(descriptor) }
        guard contents.withUnsafeBytes({ writeAll($0, to: descriptor) }) else { throw failure(path, in: folder) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(path, in: folder) }
        return FileStamp(info)
    }

    /// Replaces the file at `path` with `bytes` whole: written to a temporary file beside it and
    /// renamed over it, so a reader sees the old file or the new one. Not synced to the disk (as
    /// Foundation's atomic writes are, each `fsync` waiting for the disk): for the build's own
    /// caches, which a later build checks and remakes when damaged.
    /// False when writing failed (the old file is left as it was).
    @discardableResult
    static func replace(_ path: String, with bytes: some ContiguousBytes) -> Bool {
        replace(path) { writeAll(bytes, to: $0) }
    }

    /// ``replace(_:with:)`` with the UTF-8 of `text`.
    @discardableResult
    static func replace(_ path: String, withText text: String) -> Bool {
        replace(path, with: Array(text.utf8))
    }

    /// ``replace(_:with:)`` with the new contents written by `write` to the temporary file's
    /// descriptor (for contents made a piece at a time); `write` returns false when a write failed.
    @discardableResult
    static func replace(_ path: String, writing write: (Int32) -> Bool) -> Bool {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        let written = write(descriptor)
        close(descriptor)
        guard written, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// Writes all of `bytes` to the open file `descriptor`; false when a write fails.
    static func writeAll(_ contents: some ContiguousBytes, to descriptor: Int32) -> Bool {
        contents.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// A file's device, inode, size, and modification and change times (seconds and
    /// nanoseconds), for hashing; nil when the file cannot be read. Any write to a file changes
    /// its change time, which no program can set back, so equal numbers mean the same bytes.
    static func changeStamp(of path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [Int(truncatingIfNeeded: info.st_dev), Int(truncatingIfNeeded: info.st_ino), Int(info.st_size),
                info.st_mtim.tv_sec, info.st_mtim.tv_nsec, info.st_ctim.tv_sec, info.st_ctim.tv_nsec]
    }

    /// Creates `path` (inside `folder` when given) and its missing parents (`mkdir -p`).
    static func makeFolders(_ path: String, in folder: OpenFolder? = nil) throws(BuildError) {
        let base = folder?.descriptor ?? AT_FDCWD
        if mkdirat(base, path, 0o755) == 0 || errno == EEXIST { return }
        guard errno == ENOENT, let slash = path.lastIndex(of: "/"), slash != path.startIndex else { throw failure(path, in: folder) }
        try makeFolders(String(path[..<slash]), in: folder)
        guard mkdirat(base, path, 0o755) == 0 || errno == EEXIST else { throw failure(path, in: folder) }
    }

    /// Calls `visit` with the relative path (`/`-separated) and `d_type` of every entry under
    /// `folder`, folders before their contents; symbolic links are visited, not followed.
    static func walk(_ folder: String, _ visit: (String, Int32) -> Void) {
        walk(folder, prefix: "", visit)
    }

    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    private static func walk(_ folder: String, prefix: String, _ visit: (String, Int32) -> Void) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            // The name is read in place, up to its NUL: a dirent record can be shorter than
            // `struct dirent`, so copying the whole `d_name` array reads past it (AddressSanitizer
            // caught exactly that at the end of readdir's buffer).
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            if name == "." || name == ".." { continue }
            var type = Int32(entry.pointee.d_type)
            if type == Int32(DT_UNKNOWN) {
                var info = stat()
                guard lstat(folder + "/" + name, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: type = Int32(DT_DIR)
                case S_IFREG: type = Int32(DT_REG)
                case S_IFLNK: type = Int32(DT_LNK)
                default: break
                }
            }
            visit(prefix + name, type)
            if type == Int32(DT_DIR) { walk(folder + "/" + name, prefix: prefix + name + "/", visit) }
        }
    }

    /// The error for a failed call on `path` (inside `folder` when given), from `errno`.
    static func failure(_ path: String, in folder: OpenFolder? = nil) -> BuildError {
        let reason = String(cString: strerror(errno))  // before anything else can set errno
        return BuildError(file: folder.map { $0.path + "/" + path } ?? path, "cannot write this file: \(reason) (is the disk full or the folder read-only?).")
    }
}

/// A folder held open, so that paths inside it are looked up from it (`fstatat`): the kernel
/// then walks only the relative part of each path, and a rebuild looks up every page and folder
/// of the output.
final class OpenFolder: Sendable {
    /// The open folder, for the `…at` calls.
    let descriptor: Int32
    /// Where it was opened, for error messages.
    let path: String

    /// Opens the folder at `path`; nil when it cannot be opened.
    init?(_ path: String) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    deinit { close(descriptor) }

    /// The status of `relative` inside the folder (symbolic links followed, like `stat`); `""`
    /// is the folder itself. Nil when there is no such entry.
    func status(of relative: String) -> stat? {
        var info = stat()
        let found = relative.isEmpty ? fstat(descriptor, &info) : fstatat(descriptor, relative, &info, 0)
        return found == 0 ? info : nil
    }
}

extension stat {
    /// The modification time in nanoseconds since 1970.
    var modifiedNanoseconds: Int64 {
        Int64(st_mtim.tv_sec) * 1_000_000_000 + Int64(st_mtim.tv_nsec)
    }
}
