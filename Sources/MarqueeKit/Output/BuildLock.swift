import Foundation

/// One build at a time per output folder, however the folder is named: an exclusive `flock` on
/// the folder that holds it (after every symbolic link is resolved), where a build also keeps its
/// staging folder and change journal. Builds into two folders side by side therefore wait for
/// each other too, which costs little and needs no lock file. The kernel releases the lock when
/// the process ends, however it ends, so a killed build never leaves a stale lock.
final class BuildLock {
    private let descriptor: Int32

    /// Takes the lock for the output folder `output` (resolved), or throws a clear error.
    init(output: URL) throws(BuildError) {
        let parent = output.deletingLastPathComponent()
        try FileIO.makeFolders(parent.path)
        let descriptor = open(parent.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw BuildError(file: parent.path, "cannot open the folder that holds the output (\(String(cString: strerror(errno)))).")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw BuildError(
                file: output.path, "another build is writing into this folder (or one beside it in \(parent.path)); wait for it to finish, then build again.")
        }
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
