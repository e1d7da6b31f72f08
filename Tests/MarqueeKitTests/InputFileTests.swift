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
            #expect(read == Data(bytes))
        }
    }
}
