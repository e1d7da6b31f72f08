import Foundation

/// Writes the HTML pages: the gallery split into pages (`index.html`, `page/2/`, …), a listing per
/// source (`sources/<name>/`), per group of sources (`groups/<name>/`, see ``SourceGroup``) and per
/// author (`by/<name>/`), and one detail page per item (`items/<slug>/`), with the theme's
/// Mustache templates.
package struct PageWriter: Plugin {
    package let name = "pages"
    /// Loads no items.
    package func itemFiles(in context: BuildContext) -> [URL]? { [] }

    /// Creates the plugin with its default settings.
    package init() {}

    package func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws {
        let renderer = PageRenderer(context: context)
        let pageSize = context.config.pageSize
        // Each item's digest, by position (looked up once per page that shows the item).
        let digests = Self.digests(of: items)
        let sources = Self.group(items, by: { $0.source })
        let authors = Self.group(items, by: { $0.author })
        let groups = Self.group(items, by: { $0.metadata[SourceGroup.self] })
        let sourceLinks = Self.folders(for: sources.map(\.key), under: "sources")
        let groupLinks = Self.folders(for: groups.map(\.key), under: "groups")
        let authorLinks = Self.folders(for: authors.map(\.key), under: "by")
        func listing(_ group: (key: String, positions: [Int]), folder: String, heading: String) -> Listing {
            Listing(
                folder: folder, heading: heading, items: group.positions.map { items[$0] },
                digests: group.positions.map { digests[$0] }, isGallery: false)
        }

        let gallery = Listing(folder: "", heading: context.config.title, items: items, digests: digests, isGallery: true)
        var listings = [gallery]
        // With a single source its listing would repeat the gallery page for page.
        if sources.count > 1 {
            listings += sources.map { listing($0, folder: sourceLinks[$0.key]!, heading: $0.key) }
        }
        listings += groups.map { listing($0, folder: groupLinks[$0.key]!, heading: $0.key) }
        listings += authors.map { listing($0, folder: authorLinks[$0.key]!, heading: "By \($0.key)") }
        let shownSources = sources.count > 1 ? sourceLinks : [:]
        // The navigation's links: the groups of sources (OPML folders), then the sources.
        let navigationLinks = groups.map { ($0.key, groupLinks[$0.key]!) }
            + (shownSources.isEmpty ? [] : sources.map { ($0.key, shownSources[$0.key]!) })

        // Every listing page, as (listing, page number, the positions of its items in the listing).
        var listingPages: [ListingPage] = []
        for listing in listings {
            let count = max(1, (listing.items.count + pageSize - 1) / pageSize)
            for page in 1...count {
                let shown = min((page - 1) * pageSize, listing.items.count)..<min(page * pageSize, listing.items.count)
                listingPages.append(ListingPage(listing: listing, number: page, total: count, shown: shown))
            }
        }

        let config = context.config
        // The sources navigation, the same on every listing page but for which one is current.
        var navigation = StableHasher("sources")
        for (name, folder) in navigationLinks {
            navigation.combine(name)
            navigation.combine(folder)
        }
        let sourcesDigest = navigation.value
        // Pages go to the output as soon as they are rendered, so memory does not grow with the site.
        _ = try listingPages.concurrentMap { page in
            let listing = page.listing
            let path = listing.folder(page: page.number) + "index.html"
            let root = SiteURL.relativeRoot(fromPage: path)
            var inputs = StableHasher("listing-page")
            inputs.combine(listing.heading)
            for number in [listing.isGallery ? 1 : 0, page.number, page.total, listing.items.count] { inputs.combine(number) }
            inputs.combine(Int(truncatingIfNeeded: sourcesDigest))
            for digest in listing.digests[page.shown] { inputs.combine(Int(truncatingIfNeeded: digest)) }
            try renderer.writePage("gallery", path: path, inputs: inputs.value, root: root, into: output) {
                let title = page.number == 1 ? listing.heading : "\(listing.heading) · page \(page.number)"
                return PageHead(title: listing.isGallery && page.number == 1 ? title : "\(title) · \(config.title)", description: config.description)
            } values: {
                var values = renderer.common(root: root)
                values["heading"] = .text(listing.heading)
                values["isGallery"] = .flag(listing.isGallery)
                let shown = listing.items[page.shown]
                let eager = renderer.cellsOnFirstScreen(shown)
                values["items"] = .list(shown.enumerated().map { .object(renderer.cell($1, root: root, eager: $0 < eager)) })
                values["count"] = .number(listing.items.count)
                values["expand"] = .text(config.expand.rawValue)
                values["hasSources"] = .flag(!navigationLinks.isEmpty)
                values["sources"] = .list(navigationLinks.map { name, folder in
                    .object(["name": .text(name), "url": .text(root + folder), "current": .flag(listing.folder == folder)])
                })
                values["pagination"] = Self.pagination(listing, current: page.number, total: page.total, root: root).map(TemplateValue.object)
                return values
            }
        }
        // What every detail page shares, worked out once rather than per page: the way to the
        // site's root (slugs hold no `/`), and the folder of each gallery page.
        let root = SiteURL.relativeRoot(fromPage: Self.detailPath(slug: "slug"))
        let galleryFolders = (0..<max(1, (items.count + pageSize - 1) / pageSize)).map { gallery.folder(page: $0 + 1) }
        _ = try Array(items.indices).concurrentMap { position in
            let item = items[position]
            let path = Self.detailPath(slug: item.slug)
            // The gallery page that shows the item.
            let home = galleryFolders[position / pageSize]
            let authorFolder = item.author.flatMap { authorLinks[$0] }
            let sourceFolder = shownSources.isEmpty ? nil : shownSources[item.source]
            // By number where a number tells (the gallery page; whether there is a folder).
            var inputs = Self.itemPageNamespace
            inputs.combine(Int(truncatingIfNeeded: digests[position]))
            inputs.combine(position / pageSize)
            func combine(_ folder: String?) {
                inputs.combine(folder == nil ? 0 : 1)
                if let folder { inputs.combine(folder) }
            }
            combine(authorFolder)
            combine(sourceFolder)
            try renderer.writePage("item", path: path, inputs: inputs.value, root: root, into: output) {
                PageHead(title: "\(item.title) · \(config.title)", description: item.intro, image: ImageChoice.largest(item.images))
            } values: {
                var values = renderer.common(root: root)
                var detail = renderer.detail(item, root: root)
                detail["back"] = .text(root + home + "#cell-\(item.slug)")
                if let authorFolder { detail["authorURL"] = .text(root + authorFolder) }
                if let sourceFolder { detail["sourceURL"] = .text(root + sourceFolder) }
                values["item"] = .object(detail)
                return values
            }
        }
    }

    /// The path of the detail page of the item whose slug is `slug`: `items/SLUG/index.html`.
    static func detailPath(slug: String) -> String {
        var path = "items/"
        path.reserveCapacity(path.utf8.count + slug.utf8.count + 11)
        path += slug
        path += "/index.html"
        return path
    }

    /// Each item's digest, in the items' order: its ``Item/originDigest`` when it still has one
    /// (equal origins make equal items), else its ``Item/combine(into:)`` digest.
    static func digests(of items: [Item]) -> [UInt64] {
        items.concurrentMap { item in
            if let origin = item.originDigest {
                var hasher = originNamespace
                hasher.combine(Int(truncatingIfNeeded: origin))
                return hasher.value
            }
            var hasher = fieldsNamespace
            item.combine(into: &hasher)
            return hasher.value
        }
    }

    private static let itemPageNamespace = StableHasher("item-page-2")
    private static let originNamespace = StableHasher("item-origin"), fieldsNamespace = StableHasher("item")

    struct ListingPage: Sendable {
        let listing: Listing
        let number: Int
        let total: Int
        /// The positions in `listing.items` of the items this page shows.
        let shown: Range<Int>
    }

    struct Listing: Sendable {
        /// "" for the gallery, `sources/x/` or `by/x/` otherwise.
        let folder: String
        let heading: String
        let items: [Item]
        /// The digests of `items`, in the same order.
        let digests: [UInt64]
        let isGallery: Bool

        func folder(page: Int) -> String { page == 1 ? folder : folder + "page/\(page)/" }
    }

    /// Pages linked around the current one; the first and last are always linked, the others
    /// stand behind a gap, so that a page's navigation does not grow with the site.
    static let paginationWindow = 3

    static func pagination(_ listing: Listing, current: Int, total: Int, root: String) -> TemplateObject? {
        guard total > 1 else { return nil }
        func url(_ page: Int) -> String { root + listing.folder(page: page) }
        var shown = [1, total] + Array(max(1, current - paginationWindow)...min(total, current + paginationWindow))
        shown = Array(Set(shown)).sorted()
        var pages: [TemplateValue] = []
        for (position, number) in shown.enumerated() {
            if position > 0 && number > shown[position - 1] + 1 { pages.append(.object(["gap": .flag(true)])) }
            pages.append(.object(["number": .number(number), "url": .text(url(number)), "current": .flag(number == current), "gap": .flag(false)]))
        }
        var values: TemplateObject = ["pages": .list(pages), "current": .number(current), "total": .number(total)]
        if current > 1 { values["previous"] = .text(url(current - 1)) }
        if current < total { values["next"] = .text(url(current + 1)) }
        return values
    }

    /// The positions of the items grouped by a key, groups in order of first appearance; items
    /// without a key are left out. (The keys are read on every core: reading an item's fields is
    /// most of the work.)
    static func group(_ items: [Item], by key: @Sendable (Item) -> String?) -> [(key: String, positions: [Int])] {
        let keys = items.concurrentMap(key)
        var groups: [(key: String, positions: [Int])] = []
        var numbers: [String: Int] = [:]
        // The key as the last item with one gave it, and its group: items of one source come one
        // after another, usually sharing the very string, which compares equal without being read
        // (a one-source gallery of 10,000 items is spared that many trims and dictionary lookups).
        var previous: (given: String, group: Int)?
        for position in items.indices {
            guard let given = keys[position] else { continue }
            if let previous, previous.given == given {
                groups[previous.group].positions.append(position)
                continue
            }
            let value = given.trimmed(newlines: false)
            guard !value.isEmpty else { continue }
            let number: Int
            if let known = numbers[value] {
                number = known
                groups[number].positions.append(position)
            } else {
                number = groups.count
                numbers[value] = number
                groups.append((value, [position]))
            }
            previous = (given, number)
        }
        return groups
    }

    /// A unique folder (`sources/movies-of-2016/`) for each name.
    static func folders(for names: [String], under parent: String) -> [String: String] {
        var taken: Set<String> = []
        var result: [String: String] = [:]
        for name in names {
            let base = Slug.fileName(name)
            var slug = base
            var counter = 2
            while !taken.insert(slug).inserted {
                slug = "\(base)-\(counter)"
                counter += 1
            }
            result[name] = "\(parent)/\(slug)/"
        }
        return result
    }
}
