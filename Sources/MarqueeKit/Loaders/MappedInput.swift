import CInputGuard
import Foundation

/// A large input file mapped into memory instead of copied: reading a 13.5 MB movie list into
/// fresh memory (a copy, and a zeroed page for every 4 KiB of it) was a quarter of a one-item
/// rebuild's loading.
///
/// Another program may cut the file short while it is mapped (an editor saving in place
/// truncates it first). The mapping is guarded (`marquee_input_guard_add`): its missing pages
/// read as zeros instead of ending the program with SIGBUS, and its ``watch`` tells the build
/// that the bytes it read are not a whole version of the file, so that it stops before writing.
final class MappedInput: @unchecked Sendable {
    /// The file's bytes as they were mapped; they stay valid (or zeros) while this object lives.
    let bytes: UnsafeRawBufferPointer
    /// Whether the file changed since it was mapped; it outlives the mapping when a build keeps
    /// it (the mapping goes as soon as nothing reads it: a 100,000-item list is 135 MB).
    let watch: InputWatch
    private let mappedLength: Int
    private let guardNumber: Int32

    /// Maps the file at `path`; nil when it cannot be mapped (it is then read the usual way, which
    /// reports why), or when every guard is in use.
    init?(path: String) {
        guard let watch = InputWatch(path: path), watch.openedStamp.size > 0 else { return nil }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = (Int(watch.openedStamp.size) + pageSize - 1) / pageSize * pageSize
        // The page cache's pages, mapped at once (`MAP_POPULATE`): no copy, no page faults later.
        guard let start = mmap(nil, length, PROT_READ, MAP_PRIVATE | MAP_POPULATE, watch.descriptor, 0), start != MAP_FAILED else {
            return nil
        }
        let guardNumber = marquee_input_guard_add(start, length)
        guard guardNumber >= 0 else {
            munmap(start, length)
            return nil
        }
        self.watch = watch
        self.guardNumber = guardNumber
        mappedLength = length
        bytes = UnsafeRawBufferPointer(start: start, count: Int(watch.openedStamp.size))
    }

    deinit {
        marquee_input_guard_remove(guardNumber)
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), mappedLength)
    }

    /// The bytes as `Data`, which keeps the mapping alive.
    var data: Data {
        Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes.baseAddress!), count: bytes.count, deallocator: .custom { _, _ in
            withExtendedLifetime(self) {}
        })
    }
}

/// An input file held open to tell whether it was written to since it was opened.
final class InputWatch: Sendable {
    fileprivate let descriptor: Int32
    /// The file's device, inode, size and modification time when it was opened (the theme's
    /// mapped files are told apart the same way).
    fileprivate let openedStamp: MappedFile.Stamp

    fileprivate init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard let stamp = Self.stamp(descriptor) else {
            close(descriptor)
            return nil
        }
        openedStamp = stamp
    }

    deinit { close(descriptor) }

    /// Whether the file was written to since it was opened (its stamp differs): what was read
    /// from a mapping of it may then mix two versions, or hold zeros where it was cut. A new file
    /// saved in its place (the usual way editors save) leaves the opened one as it was, and is
    /// read by the next build.
    var hasChanged: Bool {
        Self.stamp(descriptor) != openedStamp
    }

    /// The file's stamp now; nil when it cannot be read.
    private static func stamp(_ descriptor: Int32) -> MappedFile.Stamp? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? MappedFile.Stamp(info) : nil
    }
}
