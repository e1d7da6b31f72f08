import Foundation
import Testing
@testable import MarqueeKit

@Suite("File digests", .removesTemporaryFolders)
struct FileDigestCacheTests {
    /// A digest is worked out once, remembered in the file by the file's stamp, and worked out
    /// again when the file changes (even rewritten in place to the same size); damaged lines and
    /// a missing cache file are an empty cache.
    @Test func digestsAreRememberedUntilTheFileChanges() throws {
        let folder = try TestSupport.temporaryFolder()
        let font = folder.appending(path: "font.ttf"), cacheFile = folder.appending(path: "cache/file-digests")
        try Data("first bytes".utf8).write(to: font)
        var reads = 0
        func digest(_ cache: FileDigestCache) throws -> UInt64 {
            try cache.digest(of: font.path) { () throws(BuildError) in
                reads += 1
                return (try? Data(contentsOf: font)) ?? Data()
            }
        }
        let first = FileDigestCache(file: cacheFile)
        #expect(try digest(first) == StableHasher.value(of: Data("first bytes".utf8)) && reads == 1)
        first.save()
        let second = FileDigestCache(file: cacheFile)
        #expect(try digest(second) == StableHasher.value(of: Data("first bytes".utf8)) && reads == 1)

        // Past the file system's clock tick (coarse on some kernels), so that the times differ.
        Thread.sleep(forTimeInterval: 0.02)
        let handle = try FileHandle(forWritingTo: font)
        try handle.write(contentsOf: Data("other bytes".utf8))
        try handle.close()
        #expect(try digest(FileDigestCache(file: cacheFile)) == StableHasher.value(of: Data("other bytes".utf8)) && reads == 2)

        try Data("zz 1 2 3\nnot a line at all\n".utf8).write(to: cacheFile)
        #expect(try digest(FileDigestCache(file: cacheFile)) == StableHasher.value(of: Data("other bytes".utf8)) && reads == 3)
        #expect(try digest(FileDigestCache(file: folder.appending(path: "missing"))) != 0 && reads == 4)

        // Digests of another version of the hash are not read.
        let older = FileDigestCache(file: cacheFile, hashVersion: StableHasher.version - 1)
        _ = try digest(older)
        older.save()
        #expect(reads == 5)
        #expect(try digest(FileDigestCache(file: cacheFile)) != 0 && reads == 6)
        #expect(try digest(FileDigestCache(file: cacheFile, hashVersion: StableHasher.version - 1)) != 0 && reads == 6)
    }
}
