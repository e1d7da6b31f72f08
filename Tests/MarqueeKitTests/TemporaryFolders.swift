import Foundation
import Testing

/// Gives a suite one scratch folder under the system's temporary folder and removes it when the
/// suite ends, pass or fail, so that running the tests does not leave copies of the fixture sites
/// behind. `TestSupport.temporaryFolder()` makes its folders inside it.
///
///     @Suite("Writing the output", .removesTemporaryFolders)
struct RemovesTemporaryFolders: SuiteTrait, TestScoping {
    /// The scratch folder of the suite that is running, if it has this trait.
    @TaskLocal static var scratch: URL?

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "marquee-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.$scratch.withValue(folder, operation: function)
    }
}

extension Trait where Self == RemovesTemporaryFolders {
    /// Removes the folders the suite's tests made with `TestSupport.temporaryFolder()` when it ends.
    static var removesTemporaryFolders: Self { Self() }
}
