import Foundation

/// The group an item's source belongs to (an OPML folder outline): the gallery gets a page per
/// group, linked from its navigation, and templates see it as `{{meta.group}}`.
package enum SourceGroup: ItemMetadataKey {
    package typealias Value = String
    package static var templateName: String? { "group" }
}

/// A source of many feeds: the outlines of an OPML file (a path or a URL), each loaded as a remote
/// feed named by its outline; feeds inside a folder outline are grouped (``SourceGroup``).
struct OPMLSource: Plugin {
    let location: FeedLocation
    /// At most this many items from each feed.
    let limit: Int?
    let fetcher: FeedFetcher?

    var name: String { "opml" }

    func loadItems(in context: BuildContext) async throws -> [Item] {
        let feeds: [OPMLFeed]
        switch location {
        case .file(let file):
            let display = context.displayPath(file)
            feeds = try OPMLFeed.feeds(in: Data(InputFile.read(file, display: display)), display: display, warn: { line, message in
                context.warn(BuildWarning(file: "\(display):\(line)", message))
            })
        case .remote(let url):
            let display = url.absoluteString
            let document = RemoteDocument(url: url, fetcher: fetcher)
            var warnings: [BuildWarning] = []
            let (list, fetch) = await document.load(in: context) { body throws(BuildError) in
                warnings = []
                return try OPMLFeed.feeds(in: body, display: display, warn: { line, message in warnings.append(BuildWarning(file: "\(display):\(line)", message)) })
            }
            warnings.forEach(context.warn)
            document.record(fetch, items: list?.count ?? 0, in: context)
            feeds = list ?? []
        }
        // The feeds load side by side; their items are kept in the order of the outlines.
        let loaded = await withTaskGroup(of: (Int, [Item]).self) { group in
            for (index, feed) in feeds.enumerated() {
                group.addTask {
                    let source = FeedSource(location: .remote(feed.url), displayName: feed.title, limit: limit, fetcher: fetcher)
                    // A remote feed reports its problems as warnings and never throws.
                    var items = (try? await source.loadItems(in: context)) ?? []
                    if let name = feed.group {
                        for index in items.indices { items[index].metadata[SourceGroup.self] = name }
                    }
                    return (index, items)
                }
            }
            var loaded = [[Item]](repeating: [], count: feeds.count)
            for await (index, items) in group { loaded[index] = items }
            return loaded
        }
        return Array(loaded.joined())
    }
}
