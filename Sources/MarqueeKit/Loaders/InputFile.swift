import Foundation

/// Reading local input files with the checks every loader needs.
package enum InputFile {
    /// Input files larger than this are refused (a feed or movie list is far smaller).
    package static let maximumSize = 256 * 1024 * 1024

    /// The file's bytes; a missing, unreadable, oversized or empty file is a ``BuildError``.
    package static func read(_ file: URL, display: String) throws(BuildError) -> [UInt8] {
        // `stat` rather than `FileManager.attributesOfItem`, which also looks up the owner's
        // name (reading /etc/nsswitch.conf and /etc/passwd on every build).
        var status = stat()
        guard stat(file.path, &status) == 0 else {
            throw BuildError(file: display, "the file does not exist; check the `path:` in Content/site.yml (paths are relative to Content/).")
        }
        func checkSize(_ size: Int) throws(BuildError) {
            guard size > maximumSize else { return }
            throw BuildError(file: display, "the file is \(size / 1_048_576) MiB, over the \(maximumSize / 1_048_576) MiB limit for inputs.")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw BuildError(file: display, "this is not a regular file (a folder, a device or a pipe); name the file itself.")
        }
        try checkSize(Int(status.st_size))
        // Straight into an array, which the JSON reader takes: read as `Data`, a large movie list
        // was copied once more.
        guard let bytes = FileIO.bytes(of: file.path) else {
            throw BuildError(file: display, "cannot read the file (\(String(cString: strerror(errno)))).")
        }
        try checkSize(bytes.count)  // the file may have grown since
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw BuildError(file: display, place: .lineColumn(line: 1, column: 1), "the file is empty.")
        }
        return bytes
    }
}
