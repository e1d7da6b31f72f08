import Foundation
import Testing
@testable import MarqueeKit

@Suite("Source filters: include, exclude, since", .removesTemporaryFolders)
struct SourceFilterTests {
    /// An RSS feed of items dated `daysAgo` days before now, with a category and an author each.
    static func feed(_ items: [(title: String, tag: String, author: String, daysAgo: Int)]) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let entries = items.enumerated().map { index, item in
            """
            <item><title>\(item.title)</title><link>https://example.org/\(index)</link><guid>item-\(index)</guid>
            <category>\(item.tag)</category><author>\(item.author)</author>
            <pubDate>\(formatter.string(from: Date().addingTimeInterval(-Double(item.daysAgo) * 86_400)))</pubDate></item>
            """
        }
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>F</title><link>https://example.org/</link>\(entries.joined())</channel></rss>"
    }

    static let items = [
        (title: "Sponsored: buy now", tag: "ads", author: "shop@example.org (Shop)", daysAgo: 1),
        (title: "A walk in the hills", tag: "travel", author: "ann@example.org (Ann)", daysAgo: 2),
        (title: "Ad: another offer", tag: "deals", author: "shop@example.org (Shop)", daysAgo: 3),
        (title: "Unsponsored thoughts", tag: "essays", author: "bo@example.org (Bo)", daysAgo: 4),
        (title: "Old news", tag: "travel", author: "ann@example.org (Ann)", daysAgo: 90),
    ]

    /// The titles of the items a site with `settings` under its one feed source shows.
    func titles(_ settings: String) async throws -> [String] {
        let root = try TestSupport.makeSite(
            config: "title: T\nsources:\n  - type: feed\n    path: f.xml\n" + settings,
            texts: ["f.xml": Self.feed(Self.items)])
        _ = try await TestSupport.build(root)
        let index = try JSONSerialization.jsonObject(with: Data(TestSupport.read(root, "search.json").utf8)) as? [[String: Any]] ?? []
        return index.compactMap { $0["t"] as? String ?? $0["title"] as? String }
    }

    @Test func wordsAndExpressionsKeepAndDropItems() async throws {
        let all = try await titles("")
        #expect(all.count == 5)
        // A word matches whole and in any case: "Unsponsored" stays; a regular expression as written.
        #expect(try await titles("    exclude: [sponsored, \"/^Ad:/\"]\n") == ["A walk in the hills", "Unsponsored thoughts", "Old news"])
        // Tags and authors are matched too.
        #expect(try await titles("    include: [travel]\n") == ["A walk in the hills", "Old news"])
        #expect(try await titles("    include: Bo\n") == ["Unsponsored thoughts"])
        #expect(try await titles("    since: 30d\n    exclude: [\"/(?i)^ad\\\\b/\"]\n") == ["Sponsored: buy now", "A walk in the hills", "Unsponsored thoughts"])
    }

    /// The limit counts the items the filter keeps.
    @Test func limitCountsKeptItems() async throws {
        #expect(try await titles("    limit: 2\n    include: [travel, essays]\n") == ["A walk in the hills", "Unsponsored thoughts"])
    }

    @Test func badPatternsAndAgesNameTheirPlace() {
        let cases: [(String, line: Int, column: Int, message: String)] = [
            ("    exclude: [ok, \"/(unclosed/\"]\n", 5, 19, "sources[0].exclude[1]: \"/(unclosed/\" is not a regular expression"),
            ("    since: a while\n", 5, 12, "sources[0].since: \"a while\" is not an age"),
            ("    include: [\"\"]\n", 5, 15, "sources[0].include[0]: an empty entry matches nothing"),
        ]
        for (settings, line, column, message) in cases {
            #expect {
                try SiteConfig.parse("title: T\nsources:\n  - type: feed\n    path: f.xml\n" + settings, file: "Content/site.yml")
            } throws: { error in
                let error = error as! BuildError
                return error.place == .lineColumn(line: line, column: column) && error.message.contains(message)
            }
        }
    }

    @Test func agesReadTheirUnit() {
        #expect(ItemFilter.seconds(inAge: "90m") == 5400)
        #expect(ItemFilter.seconds(inAge: "30d") == 30 * 86_400)
        #expect(ItemFilter.seconds(inAge: "2w") == 14 * 86_400)
        for bad in ["", "d", "30", "-3d", "0d", "3y", "99999999999999999999d"] { #expect(ItemFilter.seconds(inAge: bad) == nil, "\(bad)") }
    }
}
