import Foundation
import Testing
@testable import MarqueeKit

@Suite("Slugs", .removesTemporaryFolders)
struct SlugTests {
    @Test func slugsAreURLSafeAndNeverEscape() {
        #expect(Slug.make("La La Land") == "la-la-land")
        #expect(Slug.make("Café crème — naïve") == "cafe-creme-naive")
        #expect(Slug.make("../../etc/passwd") == "etc-passwd")
        #expect(Slug.make("/") == "")
        #expect(Slug.make("🎻🐒") == "")
        #expect(Slug.make(String(repeating: "long ", count: 40)).count <= 60)
    }

    /// The slug rules spelled out character by character, without `Slug.make`'s shortcuts (no
    /// folding for ASCII titles, stopping at the length limit): the two must agree on every title.
    private func referenceSlug(_ title: String) -> String {
        let folded = title.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var slug = ""
        var pendingHyphen = false
        for character in folded.unicodeScalars {
            if ("a"..."z").contains(character) || ("0"..."9").contains(character) || ("A"..."Z").contains(character) {
                if pendingHyphen && !slug.isEmpty { slug += "-" }
                slug += String(character).lowercased()
                pendingHyphen = false
            } else {
                pendingHyphen = true
            }
        }
        var cut = String(slug.prefix(60))
        while cut.hasSuffix("-") { cut.removeLast() }
        return cut
    }

    @Test func slugsFollowTheRulesForAnyTitle() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "Z", "7", " ", "-", "--", "É", "é", "ß", "Ⅻ", "ｆｕｌｌ", "🎻", "/", "..", "\u{0}", "\n", "Ünïcödé", "long"]
        var titles = ["", "-", "a-", "-a", String(repeating: "ab ", count: 30), String(repeating: "x", count: 59) + " y", String(repeating: "x", count: 60) + " y"]
        for _ in 0..<2_000 {
            titles.append((0..<Int.random(in: 1...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for title in titles {
            #expect(Slug.make(title) == referenceSlug(title), "\(title.debugDescription)")
        }
    }

    /// A rebuild takes the suffixes of repeated titles from the memo when its items ask for the
    /// same slugs in the same order: the same slugs and origins as working them out, any other
    /// order or damaged text working them out again.
    @Test func rememberedSuffixesGiveTheSameSlugs() throws {
        let file = try TestSupport.temporaryFolder().appending(path: "slugs.memo")
        func items(_ titles: [String]) -> [Item] {
            titles.enumerated().map { Item(id: "id-\($0.offset)", source: "s", title: $0.element, body: .text("")) }
        }
        func assigned(_ titles: [String], memo: BuildMemo?) -> [(slug: String, origin: UInt64?)] {
            var list = items(titles)
            let bases = list.map(Slug.base(for:))
            if let memo { Slug.assign(to: &list, bases: bases, memo: memo) } else { Slug.assign(to: &list, bases: bases) }
            return list.map { ($0.slug, $0.originDigest) }
        }
        func same(_ a: [(slug: String, origin: UInt64?)], _ b: [(slug: String, origin: UInt64?)]) -> Bool {
            a.map(\.slug) == b.map(\.slug) && a.map(\.origin) == b.map(\.origin)
        }
        let titles = ["A", "A", "A 3", "B", "A", "b", "", "A"]
        let expected = assigned(titles, memo: nil)
        #expect(expected.map(\.slug).prefix(6) == ["a", "a-2", "a-3", "b", "a-4", "b-2"])
        let first = BuildMemo(file: file)
        #expect(same(assigned(titles, memo: first), expected))
        first.save()
        let second = BuildMemo(file: file)
        #expect(same(assigned(titles, memo: second), expected))
        // The remembered suffixes are what sets the slugs: a value changed in the file shows.
        let key = Slug.suffixMemoKey(items(titles).map(Slug.base(for:)))
        #expect(second.value([Int].self, for: key) == [0, 2, 0, 0, 4, 2, 0, 5])  // "A 3" asks for a-3 itself
        let third = BuildMemo(file: file)
        third.store([0, 7, 0, 0, 4, 2, 0, 5], for: key)
        third.save()
        #expect(assigned(titles, memo: BuildMemo(file: file))[1].slug == "a-7")
        // Anything but one suffix per item is worked out again.
        let damagedValues: [any Encodable & Sendable] = [[0, 2, 0, 0, 4, 2, 0], [0, 2, 0, 0, 4, 2, 0, 5, 0], "0 2 0 0 4 2 0 5", [Int]()]
        for damaged in damagedValues {
            let memo = BuildMemo(file: file)
            memo.store(damaged, for: key)
            memo.save()
            #expect(same(assigned(titles, memo: BuildMemo(file: file)), expected), "\(damaged)")
        }
        // Other titles, or the same in another order, have suffixes of their own.
        let reordered = ["A", "b", "A 3", "B", "A", "A", "", "A"]
        #expect(same(assigned(reordered, memo: BuildMemo(file: file)), assigned(reordered, memo: nil)))
    }

    @Test func collisionsAndEmptyTitlesGetStableUniqueSlugs() {
        var items = ["Arrival", "Arrival", "🎻", "/", "", "arrival"].enumerated().map {
            Item(id: "id-\($0.offset)", source: "s", title: $0.element, body: .text(""))
        }
        Slug.assign(to: &items)
        let slugs = items.map(\.slug)
        #expect(slugs[0] == "arrival" && slugs[1] == "arrival-2" && slugs[5] == "arrival-3")
        #expect(Set(slugs).count == slugs.count)
        #expect(slugs[2].hasPrefix("item-") && slugs[3].hasPrefix("item-"))
        for slug in slugs { #expect(OutputSet.isSafe("items/\(slug)/index.html")) }
        var again = items
        Slug.assign(to: &again)
        #expect(again.map(\.slug) == slugs)
        // A title that is itself a numbered slug takes its number; the next repeat skips it.
        var numbered = ["A", "A", "A 3", "A", "A"].enumerated().map { Item(id: "n\($0.offset)", source: "s", title: $0.element, body: .text("")) }
        Slug.assign(to: &numbered)
        #expect(numbered.map(\.slug) == ["a", "a-2", "a-3", "a-4", "a-5"])
        for counter in [2, 9, 10, 99, 100, 12_345, 1_000_000] {
            #expect(Slug.suffixed("an-é-slug", counter) == "an-é-slug-\(counter)")
            #expect(PageWriter.detailPath(slug: "an-é-slug-\(counter)") == "items/an-é-slug-\(counter)/index.html")
        }
    }

    /// Of items sharing an id, only the first gets a slug and a page; ids are compared through
    /// their hashes, so the answer must not depend on how those fall (here: every id one hash).
    @Test func repeatedIdsKeepTheirFirstItem() throws {
        let items = ["a", "b", "a", "c", "b", "d"].enumerated().map { Item(id: $1, source: "s", title: "T\($0)", body: .text("x")) }
        let expected = [true, true, false, true, false, true]
        #expect(NormalizePlugin.firstOfTheirId(items, idHashes: items.map(\.id.hashValue)) == expected)
        #expect(NormalizePlugin.firstOfTheirId(items, idHashes: Array(repeating: 7, count: items.count)) == expected)

        let folder = try TestSupport.temporaryFolder()
        let context = BuildContext(root: folder, config: SiteConfig(title: "T"), theme: try Theme.load(siteRoot: folder), memo: BuildMemo())
        var normalized = items
        try NormalizePlugin().transformItems(&normalized, in: context)
        #expect(normalized.map(\.title) == ["T0", "T1", "T3", "T5"])
        #expect(Set(normalized.map(\.slug)).count == 4)
    }

    @Test func outputPathsMustStayInside() {
        #expect(!OutputSet.isSafe("../x"))
        #expect(!OutputSet.isSafe("/etc/x"))
        #expect(!OutputSet.isSafe("a/../../x"))
        #expect(!OutputSet.isSafe("a//b"))
        #expect(!OutputSet.isSafe("a\nb/index.html"))
        #expect(OutputSet.isSafe("items/a/index.html"))
        for unsafe in ["", ".", "..", "a/", "/a", "a/./b", "a/..", "./a", "a\\b", "a\u{7F}", "a\u{0}b"] { #expect(!OutputSet.isSafe(unsafe), "\(unsafe)") }
        for safe in ["...", "a/.b", "a/..b", "b../c", ".well-known/x", "été/ü"] { #expect(OutputSet.isSafe(safe), "\(safe)") }
    }

    /// The one-pass check against its definition (split into segments, refuse empty, `.` and
    /// `..` segments and control characters), on random paths of the characters that matter.
    @Test func outputPathCheckMatchesItsDefinition() {
        func reference(_ path: String) -> Bool {
            guard !path.isEmpty, !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }) else { return false }
            return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { $0 != "" && $0 != "." && $0 != ".." }
        }
        var random = SeededRandom(seed: 0x7061_7468)
        let pieces = ["a", "é", ".", "..", "/", "\\", "\n", "\u{7F}", "x.y"]
        var refused = 0
        for _ in 0..<20_000 {
            let path = random.joining(pieces, count: 0...7)
            #expect(OutputSet.isSafe(path) == reference(path), "\(path.debugDescription)")
            if !reference(path) { refused += 1 }
        }
        #expect(refused > 1_000 && refused < 19_000)  // both answers are exercised
    }

    /// Site-root markers are found wherever they are (start, end, beside partial markers and
    /// other `q`s) and only when whole.
    @Test func rootMarkersAreResolvedWhereverTheyAre() {
        let marker = SiteURL.rootMarker
        func reference(_ html: String, _ root: String) -> String {
            html.contains(marker) ? html.replacingOccurrences(of: marker, with: root) : html
        }
        #expect(SiteURL.resolveMarkers(in: "<img src=\"\(marker)media/a.png\">", root: "../../") == "<img src=\"../../media/a.png\">")
        #expect(SiteURL.resolveMarkers(in: marker, root: "R/") == "R/")
        #expect(SiteURL.resolveMarkers(in: "quiet queue \(marker.dropLast())", root: "R/") == "quiet queue \(marker.dropLast())")
        var random = SeededRandom(seed: 0x6d61_726b)
        let pieces = ["q", "m", "marquee-root", ":/", "arq", marker, String(marker.dropFirst()), String(marker.dropLast()), "é", " "]
        var resolved = 0
        for _ in 0..<20_000 {
            let html = random.joining(pieces, count: 0...6)
            let result = SiteURL.resolveMarkers(in: html, root: "../")
            #expect(result == reference(html, "../"), "\(html.debugDescription)")
            if result != html { resolved += 1 }
        }
        #expect(resolved > 1_000 && resolved < 19_000)
    }
}
