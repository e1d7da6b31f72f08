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
    private let mapping: GuardedMapping

    /// Maps the file at `path`; nil when it cannot be mapped (it is then read the usual way, which
    /// reports why), or when every guard is in use.
    init?(path: String) {
        guard let watch = InputWatch(path: path), watch.openedStamp.size > 0,
              // The page cache's pages, mapped at once (`MAP_POPULATE`): no copy, no page faults later.
              let mapping = GuardedMapping(descriptor: watch.descriptor, size: Int(watch.openedStamp.size), protection: PROT_READ, populated: true)
        else { return nil }
        self.watch = watch
        self.mapping = mapping
        bytes = UnsafeRawBufferPointer(mapping.bytes)
    }

    deinit { mapping.release() }

    /// The bytes as `Data`, which keeps the mapping alive.
    var data: Data {
        Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes.baseAddress!), count: bytes.count, deallocator: .custom { _, _ in
            withExtendedLifetime(self) {}
        })
    }
}

/// A private mapping of a file, guarded against the file being cut short while it is mapped
/// (`marquee_input_guard_add`): pages past the file's new end read as zeros instead of ending
/// the program with SIGBUS. (Sendable: whoever releases it owns it, and no one writes to a
/// mapping that others read.)
struct GuardedMapping: @unchecked Sendable {
    /// The file's bytes, as many as it held when mapped.
    let bytes: UnsafeMutableRawBufferPointer
    private let mappedLength: Int
    private let guardNumber: Int32

    /// Maps the first `size` bytes (more than zero) of the open file `descriptor`, with its pages
    /// in place at once when `populated`; nil when the mapping fails or every guard is in use.
    init?(descriptor: Int32, size: Int, protection: Int32, populated: Bool = false) {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = (size + pageSize - 1) / pageSize * pageSize
        guard size > 0, let start = mmap(nil, length, protection, MAP_PRIVATE | (populated ? MAP_POPULATE : 0), descriptor, 0),
              start != MAP_FAILED
        else { return nil }
        let guardNumber = marquee_input_guard_add(start, length, protection & PROT_WRITE != 0 ? 1 : 0)
        guard guardNumber >= 0 else {
            munmap(start, length)
            return nil
        }
        bytes = UnsafeMutableRawBufferPointer(start: start, count: size)
        mappedLength = length
        self.guardNumber = guardNumber
    }

    /// Stops guarding the mapping and removes it; its bytes must not be read after.
    func release() {
        marquee_input_guard_remove(guardNumber)
        munmap(bytes.baseAddress, mappedLength)
    }
}

/// An input file held open to tell whether it was written to since it was opened.
final class InputWatch: Sendable {
    let descriptor: Int32
    /// The file's device, inode, size and modification time when it was opened (the theme's
    /// mapped files are told apart the same way).
    let openedStamp: MappedFile.Stamp
    /// Whether it is a regular file (not a folder or a device).
    let isRegularFile: Bool

    /// Opens the file at `path` for reading; nil when it cannot be opened.
    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            return nil
        }
        openedStamp = MappedFile.Stamp(info)
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
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
