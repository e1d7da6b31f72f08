import Foundation
import Testing
@testable import MarqueeKit

@Suite("Input files", .removesTemporaryFolders)
struct InputFileTests {
    /// Inputs of any size come out whole and in order, for sizes around a megabyte that end
    /// mid-page.
    @Test func largeFilesAreReadWhole() throws {
        let folder = try TestSupport.temporaryFolder()
        for size in [(1 << 20) - 1, 1 << 20, (1 << 20) + 12_345] {
            // Bytes that depend on their position: a page in the wrong place shows.
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 0x9E37_79B1) >> 16) | 0x01 }
            let file = folder.appending(path: "input-\(size).json")
            try Data(bytes).write(to: file)
            let read = try InputFile.read(file, display: "input.json")
            #expect(read.count == size)
            #expect(read == bytes)
        }
    }

    /// A folder or a named pipe where an input file should be is refused by name, at once: a
    /// pipe is never read (which would wait for a writer forever).
    @Test func foldersAndPipesAreRefused() throws {
        let folder = try TestSupport.temporaryFolder()
        let pipe = folder.appending(path: "movies.json")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let inner = folder.appending(path: "feed.xml")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
        for (file, display) in [(pipe, "movies.json"), (inner, "feed.xml")] {
            #expect {
                _ = try InputFile.read(file, display: display)
            } throws: { error in
                let error = error as? BuildError
                return error?.file == display && error?.message.contains("not a regular file") == true
            }
        }
    }
}
