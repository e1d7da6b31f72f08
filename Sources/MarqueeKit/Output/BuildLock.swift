import Foundation

/// One build at a time per output folder: an exclusive `flock` on a lock file beside the cache.
/// The kernel releases it when the process ends, however it ends, so a killed build never
/// leaves a stale lock.
final class BuildLock {
    private let descriptor: Int32

    /// Takes the lock or throws a clear error naming the process that holds it.
    init(for site: Site) throws(BuildError) {
        let folder = site.root.appending(path: ".marquee-cache")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appending(path: "build-\(StableHash.hex(site.output.path).prefix(12)).lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BuildError(file: path, "cannot create the build lock (\(String(cString: strerror(errno)))).")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &buffer, buffer.count, 0)
            let holder = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            throw BuildError(
                file: site.output.path,
                "another build of this site is running\(holder.isEmpty ? "" : " (process \(holder))"); wait for it to finish, then build again.")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
