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
        #expect(first.value(String.self, for: 1) == nil)
        for (key, value) in values { first.store(value, for: key) }
        first.save()

        let second = BuildMemo(file: file)
        // Compared before expecting: a failed expectation would print the long value whole.
        for (key, value) in values {
            let same = second.value(String.self, for: key) == value
            #expect(same, "key \(key)")
        }
        #expect(second.value(String.self, for: 4) == nil)
        second.store("new", for: 4)
        second.store("changed", for: 3)
        second.save()

        // 1, 2 and max were reused, 3 changed, 4 added.
        let third = BuildMemo(file: file)
        #expect(third.value(String.self, for: 1) == "one" && third.value(String.self, for: 2) == "")
        let longValueKept = third.value(String.self, for: UInt64.max) == values[UInt64.max]
        #expect(longValueKept)
        #expect(third.value(String.self, for: 3) == "changed" && third.value(String.self, for: 4) == "new")
        // Only 1 is looked up in the fourth build: the rest is dropped.
        let fourth = BuildMemo(file: file)
        #expect(fourth.value(String.self, for: 1) == "one")
        fourth.save()
        // A build that looks nothing up and stores nothing (one that stopped early) keeps the file.
        BuildMemo(file: file).save()
        let fifth = BuildMemo(file: file)
        #expect(fifth.value(String.self, for: 1) == "one" && fifth.value(String.self, for: 4) == nil && fifth.value(String.self, for: 2) == nil)
    }

    /// A memo names the program that wrote it: another program starts empty, unless both name
    /// the same one (the store of fetched documents, kept across upgrades).
    @Test func anotherProgramStartsEmpty() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "kept.memo")
        let first = BuildMemo(file: file, program: "kept")
        first.store("kept", for: 7)
        first.save()
        #expect(BuildMemo(file: file).value(String.self, for: 7) == nil)
        #expect(BuildMemo(file: file, program: "kept").value(String.self, for: 7) == "kept")
    }

    /// Lookups from every core at once each note the entry they find: the next save keeps
    /// exactly the entries looked up.
    @Test func lookupsFromEveryCoreKeepWhatTheyFound() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let first = BuildMemo(file: file)
        for key in 0..<3_000 as Range<UInt64> { first.store("value \(key)", for: key << 32) }
        first.save()

        let second = BuildMemo(file: file)
        let found = Array(0..<3_000 as Range<UInt64>).concurrentMap { key in
            key % 3 == 0 ? second.value(String.self, for: key << 32) == "value \(key)" : second.value(String.self, for: key << 32 | 1) == nil
        }
        #expect(!found.contains(false))
        second.save()

        let third = BuildMemo(file: file)
        let kept = (0..<3_000 as Range<UInt64>).filter { third.value(String.self, for: $0 << 32) != nil }
        #expect(kept == (0..<3_000 as Range<UInt64>).filter { $0 % 3 == 0 })
    }

    /// A rebuild renders unchanged descriptions only when their HTML is read: what the items
    /// show, their digests and the text blocks the layout reads are a fresh render's, and stay
    /// so after the next build has replaced the memo's file. A description with a local image
    /// is rendered at once (it copies the image into the site).
    @Test func htmlRenderedOnReadIsTheRenderedHTML() throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder.appending(path: "site.memo")
        let theme = try Theme.load(siteRoot: folder)
        try FileManager.default.createDirectory(at: folder.appending(path: "Content"), withIntermediateDirectories: true)
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8).write(to: folder.appending(path: "Content/poster.svg"))
        func markedUp(with memo: BuildMemo) throws -> [Item] {
            let list = folder.appending(path: "Content/movies.json")
            let bodies: [Markup] = [
                .markdown("Plain *words*", base: list), .markdown("A [link](https://example.org) and `code`\n\n- one\n- two", base: nil),
                .markdown("", base: nil), .html("<p onclick=\"x()\">Fed <a href=\"/a\">in</a><script>x()</script></p>", base: URL(string: "https://example.org/feed")),
                .markdown("A poster: ![](poster.svg)", base: list),
            ]
            var items = bodies.enumerated().map { Item(id: "\($0.offset)", source: "s", title: "T", body: $0.element) }
            _ = BuildState.fingerprint(items: &items, contentStamps: "", environment: "")
            try MarkupPlugin().transformItems(&items, in: BuildContext(root: folder, config: SiteConfig(title: "T"), theme: theme, memo: memo))
            return items
        }
        let first = BuildMemo(file: file)
        let rendered = try markedUp(with: first)
        first.save()
        let remembered = try markedUp(with: BuildMemo(file: file))
        #expect(rendered.map(\.bodyHTMLIsRenderedOnRead) == [false, false, false, false, false])
        #expect(remembered.map(\.bodyHTMLIsRenderedOnRead) == [true, true, true, true, false])
        #expect(rendered.map(\.bodyHTML).prefix(4) == ["<p>Plain <em>words</em></p>\n", remembered[1].bodyHTML, "", "<p>Fed <a href=\"https://example.org/a\" rel=\"noopener nofollow ugc\">in</a></p>"])
        #expect(rendered[4].bodyHTML.contains(#"<img src="marquee-root:/media/poster.svg""#), "\(rendered[4].bodyHTML)")
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

    /// A rebuild plans an unchanged item's cell when it is read, from the line counts the last
    /// build measured: the plans and page digests are a fresh layout's; the counts are kept for
    /// the next build though no cell was read; and a memo value that is not counts for the
    /// theme's breakpoints is measured again.
    @Test func cellsPlannedOnReadAreTheMeasuredCells() throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder.appending(path: "site.memo")
        let theme = try Theme.load(siteRoot: folder)
        func laidOut(with memo: BuildMemo) throws -> [Item] {
            let photo = [ImageCandidate(url: "https://example.org/poster.jpg")]
            var items = [
                Item(id: "a", source: "s", title: "Short", body: .markdown("Plain *words*", base: nil)),
                Item(id: "b", source: "s", title: "A title long enough to take a second line in a narrow cell", body: .markdown(
                    String(repeating: "A sentence of ordinary words that goes on for a while. ", count: 12) + "\n\n- one\n- two", base: nil),
                    images: photo),
                Item(id: "c", source: "s", title: "映画 🎬", body: .html("<p>Fed <b>in</b>, with 한국어.</p>", base: nil), images: photo),
                Item(id: "d", source: "s", title: "", body: .text("")),
            ]
            let context = BuildContext(root: folder, config: SiteConfig(title: "T"), theme: theme, memo: memo)
            _ = BuildState.fingerprint(items: &items, contentStamps: "", environment: "")
            try MarkupPlugin().transformItems(&items, in: context)
            try LayoutPlugin().layOutItems(&items, in: context)
            return items
        }
        let first = BuildMemo(file: file)
        let measured = try laidOut(with: first)
        first.save()
        let second = BuildMemo(file: file)
        let remembered = try laidOut(with: second)
        second.store("something new", for: 1)
        second.save()
        let third = try laidOut(with: BuildMemo(file: file))
        #expect(!measured.contains { $0.cellIsPlannedOnRead } && measured.allSatisfy { $0.cell != nil })
        #expect(remembered.allSatisfy { $0.cellIsPlannedOnRead })
        #expect(third.allSatisfy { $0.cellIsPlannedOnRead }, "the counts were kept, though no cell was read")
        let plans = measured.map(\.cell)
        #expect(plans.indices.allSatisfy { one in plans.indices.allSatisfy { one == $0 || plans[one] != plans[$0] } }, "four different plans")
        #expect(measured[2].cell?.isEstimated == true && measured[1].cell?.isTruncatedAnywhere == true)
        #expect(remembered.map(\.cell) == measured.map(\.cell))
        #expect(third.map(\.cell) == measured.map(\.cell))
        #expect(PageWriter.digests(of: remembered) == PageWriter.digests(of: measured))

        let damaged = BuildMemo(file: folder.appending(path: "damaged.memo"))
        damaged.store("not line counts", for: 5)
        damaged.store(LayoutEngine.LineCounts(title: [1], description: [1], blocks: 1, isEstimated: false), for: 6)
        damaged.save()
        let engine = LayoutEngine(metrics: theme.metrics, measurer: try theme.measurer)
        for key in [5, 6, 7] as [UInt64] {
            let planner = RememberedCell.Planner(engine: engine, memo: BuildMemo(file: folder.appending(path: "damaged.memo")))
            let cell = RememberedCell(planner: planner, key: key, hasImage: true)
            #expect(cell.plan(for: measured[1]) == measured[1].cell)
        }
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
        for key in 0..<100 as Range<UInt64> { _ = second.value(String.self, for: key) }
        second.store("new", for: 100)
        second.save()
        let appended = try Data(contentsOf: file)
        // The entry's header, then the string's tag, length and bytes.
        #expect(appended.count == written.count + 12 + 2 + 3)
        #expect(appended.prefix(written.count) == written)

        let third = BuildMemo(file: file)
        #expect(third.value(String.self, for: 100) == "new" && third.value(String.self, for: 42) == String(repeating: "v42", count: 20))
        // Ten of 101 entries used: the file is rewritten with those ten.
        let fourth = BuildMemo(file: file)
        for key in 0..<10 as Range<UInt64> { _ = fourth.value(String.self, for: key) }
        fourth.save()
        let rewritten = try Data(contentsOf: file)
        #expect(rewritten.count < written.count / 5)
        let fifth = BuildMemo(file: file)
        #expect(fifth.value(String.self, for: 9) == String(repeating: "v9", count: 20) && fifth.value(String.self, for: 10) == nil && fifth.value(String.self, for: 100) == nil)
    }

    /// A key stored twice by one build has its later value in the next, whether the file is
    /// written anew or appended to.
    @Test func aKeyStoredTwiceKeepsItsLaterValue() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let first = BuildMemo(file: file)
        for key in 0..<10 as Range<UInt64> { first.store("first \(key)", for: key) }
        first.store("earlier", for: 3)
        first.store("later", for: 3)
        first.save()

        let second = BuildMemo(file: file)
        #expect(second.value(String.self, for: 3) == "later")
        for key in 0..<10 as Range<UInt64> { _ = second.value(String.self, for: key) }
        let size = try Data(contentsOf: file).count
        second.store("earlier again", for: 4)
        second.store("later again", for: 4)
        second.save()
        // Appended: the second build reused more entries than it stored.
        #expect(try Data(contentsOf: file).count > size)

        let third = BuildMemo(file: file)
        #expect(third.value(String.self, for: 3) == "later" && third.value(String.self, for: 4) == "later again")
        #expect(third.value(String.self, for: 9) == "first 9")
    }

    /// A memo written by another program (another build of Marquee) is not read, and the next
    /// save replaces it.
    @Test func aMemoOfAnotherProgramIsNotRead() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let older = BuildMemo(file: file, program: "marquee 1")
        older.store("old", for: 7)
        older.save()
        #expect(BuildMemo(file: file, program: "marquee 1").value(String.self, for: 7) == "old")
        let newer = BuildMemo(file: file, program: "marquee 2")
        #expect(newer.value(String.self, for: 7) == nil)
        newer.store("new", for: 8)
        newer.save()
        #expect(BuildMemo(file: file, program: "marquee 2").value(String.self, for: 8) == "new")
        #expect(BuildMemo(file: file, program: "marquee 1").value(String.self, for: 7) == nil)
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
        #expect(BuildMemo(file: file).value(String.self, for: 7) == nil)
        try Data("marquee-memo-0\n".utf8).write(to: file)
        #expect(BuildMemo(file: file).value(String.self, for: 7) == nil)
    }

    /// A key holds one type of value: looked up as another type, it reads as nothing (and the
    /// caller works the value out again), never as a wrong value.
    @Test func aValueReadAsAnotherTypeIsNothing() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "site.memo")
        let memo = BuildMemo(file: file)
        memo.store([3, 1, 4], for: 1)
        memo.store("text", for: 2)
        memo.save()
        let next = BuildMemo(file: file)
        #expect(next.value([Int].self, for: 1) == [3, 1, 4])
        #expect(next.value(String.self, for: 1) == nil && next.value([String].self, for: 1) == nil)
        #expect(next.value(Int.self, for: 2) == nil && next.value(String.self, for: 2) == "text")
        #expect(next.value(for: 3) { "computed" } == "computed")
        #expect(next.value(for: 2) { "computed" } == "text")
    }
}
