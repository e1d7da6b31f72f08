import Foundation
import Testing
@testable import MarqueeKit

@Suite("Pagination")
struct PaginationTests {
    func labels(current: Int, total: Int) -> [String] {
        let listing = PageWriter.Listing(folder: "", heading: "All", items: [], digests: [], isGallery: true)
        guard case .list(let pages) = PageWriter.pagination(listing, current: current, total: total, root: "")?["pages"] else { return [] }
        return pages.map { page in
            guard case .object(let values) = page else { return "?" }
            if case .flag(true) = values["gap"] { return "…" }
            guard case .number(let number) = values["number"] else { return "?" }
            return "\(number)"
        }
    }

    /// A page's navigation does not grow with the site: first, last and three either side.
    @Test func pageNavigationIsAWindow() {
        #expect(labels(current: 50, total: 100) == ["1", "…", "47", "48", "49", "50", "51", "52", "53", "…", "100"])
        #expect(labels(current: 1, total: 2000) == ["1", "2", "3", "4", "…", "2000"])
        #expect(labels(current: 2000, total: 2000) == ["1", "…", "1997", "1998", "1999", "2000"])
        #expect(labels(current: 3, total: 6) == ["1", "2", "3", "4", "5", "6"])
        #expect(labels(current: 1, total: 1).isEmpty)
        #expect((1...500).allSatisfy { labels(current: $0, total: 500).count <= 11 })
    }

    /// Listings by source and by author group items by their trimmed key, in order of first
    /// appearance, whether neighbours share one string, equal strings or differently spaced ones.
    @Test func itemsAreGroupedByTheirTrimmedKey() {
        let shared = "Movies"
        let sources = [shared, shared, " Movies ", "Feed", "", "  ", String("xMovies".dropFirst()), shared, "Feed "]
        let items = sources.enumerated().map { Item(id: "\($0)", source: $1, title: "T", body: .text("b")) }
        let groups = PageWriter.group(items, by: { $0.source })
        #expect(groups.map(\.key) == ["Movies", "Feed"])
        #expect(groups.map(\.positions) == [[0, 1, 2, 6, 7], [3, 8]])
        #expect(PageWriter.group(items, by: { _ in nil }).isEmpty)
    }
}
