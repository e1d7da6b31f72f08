import Foundation

/// Reading local input files with the checks every loader needs.
public enum InputFile {
    /// Input files larger than this are refused (a feed or movie list is far smaller).
    public static let maximumSize = 256 * 1024 * 1024

    /// The file's bytes; a missing, unreadable, oversized or empty file is a ``BuildError``.
    public static func read(_ file: URL, display: String) throws(BuildError) -> Data {
        // `stat` rather than `FileManager.attributesOfItem`, which also looks up the owner's
        // name (reading /etc/nsswitch.conf and /etc/passwd on every build).
        var status = stat()
        guard stat(file.path, &status) == 0 else {
            throw BuildError(file: display, "the file does not exist; check the `path:` in Content/site.yml (paths are relative to Content/).")
        }
        let size = Int(status.st_size)
        if size > maximumSize {
            throw BuildError(file: display, "the file is \(size / 1_048_576) MiB, over the \(maximumSize / 1_048_576) MiB limit for inputs.")
        }
        let data: Data
        if size >= parallelReadSize, let read = readOnEveryCore(file.path, size: size) {
            data = read
        } else {
            do {
                // An empty file is not read: Foundation leaks a 4 KiB buffer for each (LeakSanitizer).
                data = size == 0 ? Data() : try Data(contentsOf: file)
            } catch {
                throw BuildError(file: display, "cannot read the file (\(error.localizedDescription)).")
            }
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw BuildError(file: display, place: .lineColumn(line: 1, column: 1), "the file is empty.")
        }
        return data
    }

    /// Files at least this large are read by every core at once.
    static let parallelReadSize = 4 * 1024 * 1024

    /// The file's `size` bytes, read in four pieces per core, taken by whichever core is free:
    /// copying a large list into fresh memory (and the page faults of that memory) was a fifth of
    /// loading it. (With one piece per core, a core that also loads the build state finished its
    /// piece late while the other waited.) Each piece's memory is made present before it is read
    /// into (`MADV_POPULATE_WRITE`, one call instead of a page fault per 4 KiB: 4.5 -> 3.7 ms for
    /// a 13.5 MB list on two cores). Nil when the file could not be read whole (it is then read the
    /// usual way, which reports why).
    private static func readOnEveryCore(_ path: String, size: Int) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let start = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), start != MAP_FAILED else { return nil }
        nonisolated(unsafe) let buffer = start
        let pieces = max(1, 4 * processorCount)
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let complete = Array(0..<pieces).concurrentMap { piece -> Bool in
            var offset = piece * size / pieces
            let end = (piece + 1) * size / pieces
            // Whole pages (a page shared with the next piece is made present twice, harmlessly);
            // a kernel without the advice (before Linux 5.14) faults the pages in as they are read.
            let firstPage = offset / pageSize * pageSize
            _ = madvise(buffer + firstPage, end - firstPage, populateWrite)
            while offset < end {
                let count = pread(descriptor, buffer + offset, end - offset, off_t(offset))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }.allSatisfy { $0 }
        guard complete else {
            munmap(start, size)
            return nil
        }
        return Data(bytesNoCopy: start, count: size, deallocator: .custom { start, count in munmap(start, count) })
    }

    /// `MADV_POPULATE_WRITE` (Linux 5.14), which Glibc's Swift module does not export.
    private static let populateWrite: Int32 = 23
}
