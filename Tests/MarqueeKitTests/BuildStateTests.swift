import Foundation
import Testing
@testable import MarqueeKit

@Suite("Build state", .removesTemporaryFolders)
struct BuildStateTests {
    @Test func stateSurvivesItsTextForm() throws {
        let state = BuildState(
            fingerprint: "0123abcd", environment: "e5", inputs: "9f0e", items: 2, pages: 2,
            files: [
                "index.html": FileStamp(size: 1200, modified: 1_700_000_000_123),
                "items/a b/index.html": FileStamp(size: 0, modified: -5),
                "assets/x.css": FileStamp(size: 7, modified: 1),
            ],
            folders: ["": 1_700_000_000_123_456_789, "items": 2, "items/a b": -3])
        #expect(BuildState(text: state.text) == state)
        // Damaged or foreign states are refused rather than half read.
        let text = state.text
        #expect(BuildState(text: String(text.dropLast(3))) == nil)
        #expect(BuildState(text: text.replacingOccurrences(of: "1200 ", with: "12x0 ")) == nil)
        #expect(BuildState(text: text.replacingOccurrences(of: "1200 ", with: "12345678901234567890 ")) == nil)
        #expect(BuildState(text: text.replacingOccurrences(of: "1200 ", with: "1200\n")) == nil)
        #expect(BuildState(text: text.replacingOccurrences(of: "d 2 - items\n", with: "d 2 -\n")) == nil)
        #expect(BuildState(text: text.replacingOccurrences(of: "7 1 assets/x.css", with: "7 assets/x.css")) == nil)
        #expect(BuildState(text: text.replacingOccurrences(of: BuildState.version, with: "marquee-0.0")) == nil)
        #expect(BuildState(text: "") == nil)
        #expect(BuildState(text: text)?.inputs == "9f0e")
    }

    /// A rebuild appends the lines it changed or removed and its summary; what is read back is
    /// the whole new state. A file that does not end with the previous state's summary (another
    /// build wrote it), changes that the paths named do not account for, and appends that would
    /// make the file a quarter larger than a fresh one are written anew; an append cut short is
    /// refused.
    @Test func changedLinesAreAppendedAndReadBackWhole() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.state")
        func record(_ size: Int64) -> FileStamp { FileStamp(size: size, modified: 7) }
        let first = BuildState(
            fingerprint: "f1", environment: "e", inputs: "i1", items: 2, pages: 2,
            files: ["index.html": record(1), "items/a/index.html": record(2), "items/b/index.html": record(3)],
            folders: ["": 1, "items": 2, "items/a": 3, "items/b": 4])
        first.save(to: file)
        let freshSize = try Data(contentsOf: file).count
        var second = first
        second.fingerprint = "f2"
        second.files["items/a/index.html"] = record(20)
        second.folders["items/a"] = 30
        second.save(to: file, replacing: first, changed: (["items/a/index.html", "index.html"], ["items/a"]))
        let appended = try String(contentsOf: file, encoding: .utf8)
        #expect(appended.hasPrefix(first.text) && appended.count < first.text.count + 100, "\(appended)")
        #expect(BuildState.load(from: file) == second)

        // Cut short, in the summary or before it: refused. Then the file no longer ends with the
        // summary: written anew.
        let withoutSummary = appended.split(separator: "\n").dropLast().joined(separator: "\n") + "\n"
        try Data(withoutSummary.utf8).write(to: file)
        #expect(BuildState.load(from: file) == nil)
        try Data(appended.utf8.dropLast(5)).write(to: file)
        #expect(BuildState.load(from: file) == nil)
        var third = second
        third.inputs = "i3"
        third.save(to: file, replacing: second, changed: ([], []))
        #expect(try String(contentsOf: file, encoding: .utf8) == third.text)
        #expect(BuildState.load(from: file) == third)

        // The file holds another build's state: written anew.
        var other = first
        other.fingerprint = "other"
        other.files["items/b/index.html"] = record(99)
        other.save(to: file)
        third.save(to: file, replacing: second, changed: ([], []))
        #expect(BuildState.load(from: file) == third)

        // A file added, and another removed, that are not named as changed: written anew.
        var fourth = third
        fourth.files["new.html"] = record(5)
        fourth.save(to: file, replacing: third, changed: ([], []))
        #expect(try String(contentsOf: file, encoding: .utf8) == fourth.text)
        var fifth = fourth
        fifth.files["new.html"] = nil
        fifth.save(to: file, replacing: fourth, changed: (["index.html"], []))
        #expect(try String(contentsOf: file, encoding: .utf8) == fifth.text)

        // A page moved to a new folder, its old folder gone, and a path that was a file becoming
        // a folder: appended as removals and additions, and read back as the new state.
        var moved = fifth
        moved.files["items/a/index.html"] = nil
        moved.folders["items/a"] = nil
        moved.files["items/c/index.html"] = record(4)
        moved.folders["items/c"] = 5
        moved.files["index.html"] = nil
        moved.files["index.html/inner.html"] = record(6)
        moved.folders["index.html"] = 6
        let beforeMove = try String(contentsOf: file, encoding: .utf8)
        moved.save(to: file, replacing: fifth, changed: (
            ["items/a/index.html", "items/c/index.html", "index.html", "index.html/inner.html", "never.html"],
            ["items/a", "items/c", "index.html"]))
        let afterMove = try String(contentsOf: file, encoding: .utf8)
        #expect(afterMove.hasPrefix(beforeMove) && afterMove.contains("\nr items/a/index.html\n"), "\(afterMove)")
        #expect(BuildState.load(from: file) == moved)
        third.save(to: file)

        // Appending again and again: the file is written anew whenever it would grow past about
        // a quarter more than a fresh one's size (estimated from the lines of a large site: here
        // ~356 bytes), instead of growing by 45 bytes a round to ~9 KB.
        var state = third, largest = 0, rewrites = 0
        for round in 1...200 {
            let previous = state, before = try Data(contentsOf: file).count
            state.fingerprint = "f\(round)"
            state.files["index.html"] = record(Int64(round))
            state.save(to: file, replacing: previous, changed: (["index.html"], []))
            let size = try Data(contentsOf: file).count
            if size < before { rewrites += 1 }
            largest = max(largest, size)
        }
        #expect(freshSize < 200 && largest <= 360 && rewrites >= 10, "\(largest) bytes at most, \(rewrites) rewrites")
        #expect(BuildState.load(from: file) == state)
        #expect(BuildState.load(from: file)?.files["index.html"] == record(200))
    }
}
