import Foundation
import Testing
@testable import MarqueeKit

@Suite("Build memo", .removesTemporaryFolders)
struct BuildMemoTests {
    /// A memo keeps what the build stored and what it reused from the previous build (copied as
    /// stored), and drops the rest.
    @Test func keepsStoredAndReusedEntriesOnly() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let values: [UInt64: String] = [1: "one", 2: "", 3: "drei · 三", UInt64.max: String(repeating: "long ", count: 100_000)]
        let first = BuildMemo(file: file)
        #expect(first.value(for: 1) == nil)
        for (key, value) in values { first.store(value, for: key) }
        first.save()

        let second = BuildMemo(file: file)
        // Compared before expecting: a failed expectation would print the long value whole.
        for (key, value) in values {
            let same = second.value(for: key) == value
            #expect(same, "key \(key)")
        }
        #expect(second.value(for: 4) == nil)
        second.store("new", for: 4)
        second.store("changed", for: 3)
        second.save()

        // 1, 2 and max were reused, 3 changed, 4 added.
        let third = BuildMemo(file: file)
        #expect(third.value(for: 1) == "one" && third.value(for: 2) == "")
        let longValueKept = third.value(for: UInt64.max) == values[UInt64.max]
        #expect(longValueKept)
        #expect(third.value(for: 3) == "changed" && third.value(for: 4) == "new")
        // Only 1 is looked up in the fourth build: the rest is dropped.
        let fourth = BuildMemo(file: file)
        #expect(fourth.value(for: 1) == "one")
        fourth.save()
        let fifth = BuildMemo(file: file)
        #expect(fifth.value(for: 1) == "one" && fifth.value(for: 4) == nil && fifth.value(for: 2) == nil)
    }

    /// Lookups from every core at once each mark the entry they find (without a lock): the next
    /// save keeps exactly the entries looked up. Keys here are small numbers, not hashes, so the
    /// index also meets keys that share their low bits.
    @Test func lookupsFromEveryCoreKeepWhatTheyFound() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let first = BuildMemo(file: file)
        for key in 0..<3_000 as Range<UInt64> { first.store("value \(key)", for: key << 32) }
        first.save()

        let second = BuildMemo(file: file)
        let found = Array(0..<3_000 as Range<UInt64>).concurrentMap { key in
            key % 3 == 0 ? second.value(for: key << 32) == "value \(key)" : second.value(for: key << 32 | 1) == nil
        }
        #expect(!found.contains(false))
        second.save()

        let third = BuildMemo(file: file)
        let kept = (0..<3_000 as Range<UInt64>).filter { third.value(for: $0 << 32) != nil }
        #expect(kept == (0..<3_000 as Range<UInt64>).filter { $0 % 3 == 0 })
    }

    /// A rebuild takes unchanged items' HTML from the memo, read only where it is shown: what
    /// the items show, their digests and the text blocks the layout reads are a fresh render's,
    /// and remembered texts stay readable after the next build has replaced the memo's file.
    @Test func rememberedHTMLReadsAsRendered() throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder.appending(path: "site.memo")
        let theme = try Theme.load(siteRoot: folder)
        func markedUp(with memo: BuildMemo) throws -> [Item] {
            var items = ["Plain *words*", "A [link](https://example.org) and `code`\n\n- one\n- two", ""].enumerated().map {
                Item(id: "\($0.offset)", source: "s", title: "T", body: .markdown($0.element, base: nil))
            }
            _ = BuildState.fingerprint(items: &items, contentStamps: "", environment: "")
            try MarkupPlugin().transformItems(&items, in: BuildContext(root: folder, config: SiteConfig(title: "T"), theme: theme, memo: memo))
            return items
        }
        let first = BuildMemo(file: file)
        let rendered = try markedUp(with: first)
        first.save()
        let remembered = try markedUp(with: BuildMemo(file: file))
        #expect(rendered.map(\.bodyHTML) == ["<p>Plain <em>words</em></p>\n", remembered[1].bodyHTML, ""])
        #expect(remembered.map(\.bodyHTML) == rendered.map(\.bodyHTML))
        #expect(remembered.map(\.bodyHTMLDigest) == rendered.map(\.bodyHTMLDigest))
        #expect(remembered.map(\.bodyTextBlocks) == rendered.map(\.bodyTextBlocks))
        #expect(PageWriter.digests(of: remembered) == PageWriter.digests(of: rendered))

        try FileManager.default.removeItem(at: file)
        let next = BuildMemo(file: file)
        next.store("other", for: 1)
        next.save()
        #expect(remembered.map(\.bodyHTML) == rendered.map(\.bodyHTML))
    }

    /// A build that reuses most entries appends only what it computed; once unused entries
    /// would make up more than half the file, the file is written anew with the used ones only.
    @Test func appendsNewEntriesUntilHalfTheFileIsUnused() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let first = BuildMemo(file: file)
        for key in 0..<100 as Range<UInt64> { first.store(String(repeating: "v\(key)", count: 20), for: key) }
        first.save()
        let written = try Data(contentsOf: file)

        let second = BuildMemo(file: file)
        for key in 0..<100 as Range<UInt64> { _ = second.value(for: key) }
        second.store("new", for: 100)
        second.save()
        let appended = try Data(contentsOf: file)
        #expect(appended.count == written.count + 12 + 3)
        #expect(appended.prefix(written.count) == written)

        let third = BuildMemo(file: file)
        #expect(third.value(for: 100) == "new" && third.value(for: 42) == String(repeating: "v42", count: 20))
        // Ten of 101 entries used: the file is rewritten with those ten.
        let fourth = BuildMemo(file: file)
        for key in 0..<10 as Range<UInt64> { _ = fourth.value(for: key) }
        fourth.save()
        let rewritten = try Data(contentsOf: file)
        #expect(rewritten.count < written.count / 5)
        let fifth = BuildMemo(file: file)
        #expect(fifth.value(for: 9) == String(repeating: "v9", count: 20) && fifth.value(for: 10) == nil && fifth.value(for: 100) == nil)
    }

    /// A memo written by another program (another build of Marquee) is not read, and the next
    /// save replaces it.
    @Test func aMemoOfAnotherProgramIsNotRead() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let older = BuildMemo(file: file, program: "marquee 1")
        older.store("old", for: 7)
        older.save()
        #expect(BuildMemo(file: file, program: "marquee 1").value(for: 7) == "old")
        let newer = BuildMemo(file: file, program: "marquee 2")
        #expect(newer.value(for: 7) == nil)
        newer.store("new", for: 8)
        newer.save()
        #expect(BuildMemo(file: file, program: "marquee 2").value(for: 8) == "new")
        #expect(BuildMemo(file: file, program: "marquee 1").value(for: 7) == nil)
    }

    /// The index written with the file (see `StoredEntries`) is read instead of the entries'
    /// headers; one that does not fit the file makes the memo ignored whole, never read astray.
    @Test func anIndexThatDoesNotFitIsIgnored() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let memo = BuildMemo(file: file)
        for key in 1...3 as ClosedRange<UInt64> { memo.store("value \(key)", for: key) }
        memo.save()
        let good = try Data(contentsOf: file)
        let indexField = try #require(good.firstIndex(of: UInt8(ascii: "\n"))) + 1
        func number(at offset: Int) -> UInt64 {
            good[offset..<offset + 8].enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
        func reads(_ edit: (inout Data) -> Void) throws -> [String?] {
            var bytes = good
            edit(&bytes)
            try bytes.write(to: file)
            let read = BuildMemo(file: file)
            return (1...3 as ClosedRange<UInt64>).map { read.value(for: $0) }
        }
        func put(_ value: UInt64, at offset: Int, in bytes: inout Data) {
            for byte in 0..<8 { bytes[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte))) }
        }
        #expect(try reads { _ in } == ["value 1", "value 2", "value 3"])
        let indexStart = Int(number(at: indexField))
        #expect(number(at: indexStart) == 3, "the index does not start where the file says")
        // The index's place past the end of the file, or before the entries.
        #expect(try reads { put(UInt64(good.count), at: indexField, in: &$0) } == [nil, nil, nil])
        #expect(try reads { put(0, at: indexField, in: &$0) } == [nil, nil, nil])
        // A count larger than the index holds.
        #expect(try reads { put(1_000, at: indexStart, in: &$0) } == [nil, nil, nil])
        // A value's place past the index, where no value of the indexed part can be.
        #expect(try reads { put(UInt64(indexStart + 1), at: indexStart + 8 + 3 * 8, in: &$0) } == [nil, nil, nil])
    }

    /// Entries are written in the order the build first stored them (a rebuild looks them up in
    /// the items' order, and finds them one after another), a value stored again in its place.
    @Test func entriesKeepTheOrderTheyWereStoredIn() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let memo = BuildMemo(file: file)
        let keys: [UInt64] = (0..<200).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
        for key in keys { memo.store("first <\(key)>", for: key) }
        memo.store("again", for: keys[7])
        memo.save()
        let text = try #require(String(data: try Data(contentsOf: file), encoding: .isoLatin1))
        let places = keys.map { key in text.range(of: key == keys[7] ? "again" : "first <\(key)>")?.lowerBound }
        #expect(!places.contains(nil))
        #expect(places.compactMap { $0 } == places.compactMap { $0 }.sorted())
    }

    /// A damaged memo is ignored whole, never half read.
    @Test func aDamagedMemoIsIgnored() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let memo = BuildMemo(file: file)
        memo.store("value", for: 7)
        memo.save()
        var bytes = try Data(contentsOf: file)
        bytes.removeLast(2)
        try bytes.write(to: file)
        #expect(BuildMemo(file: file).value(for: 7) == nil)
        try Data("marquee-memo-0\n".utf8).write(to: file)
        #expect(BuildMemo(file: file).value(for: 7) == nil)
    }
}
