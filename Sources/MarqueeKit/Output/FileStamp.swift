import Foundation

/// A file's size and modification time (in milliseconds), as recorded to tell whether the file
/// is still as a build left it.
struct FileStamp: Equatable, Sendable {
    var size: Int64
    var modified: Int64

    init(size: Int64, modified: Int64) {
        self.size = size
        self.modified = modified
    }

    init(_ info: stat) {
        self.init(size: Int64(info.st_size), modified: Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000)
    }
}
