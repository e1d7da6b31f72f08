import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
@testable import MarqueeKit

@Suite("marquee serve as a process", .timeLimit(.minutes(5)), .removesTemporaryFolders)
struct ServeProcessTests {
    @Test func ctrlCStopsTheServerCleanly() async throws {
        let binary = TestSupport.repository.appending(path: ".build/debug/marquee")
        let root = try TestSupport.temporaryFolder().appending(path: "site")
        try SiteScaffold.create(in: root)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--root", root.path, "--port", "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait for the "Serving … on http://127.0.0.1:PORT/" line.
        var text = ""
        while !text.contains("Ctrl-C to stop") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        #expect(text.contains("Serving site on http://127.0.0.1:"))
        kill(process.processIdentifier, SIGINT)
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        if process.isRunning { process.terminate() }
        #expect(process.terminationStatus == 0)
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("Stopped."))
    }
}
