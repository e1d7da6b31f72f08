import Foundation

/// The feeds an OPML file lists (the subscription list every feed reader exports): each
/// `<outline>` with an `xmlUrl`, named by its `title` (or `text`), and the folder outline it is in.
package struct OPMLFeed: Sendable, Equatable {
    /// The outline's title, shown as the feed's source name.
    package var title: String?
    /// The feed's address.
    package var url: URL
    /// The title of the folder outline holding it, if any: its group.
    package var group: String?

    /// The feeds of the OPML document `data`, in document order; an outline whose `xmlUrl` is not
    /// an http(s) address is left out with a warning (passed to `warn` with the outline's line).
    package static func feeds(in data: Data, display: String, warn: (Int, String) -> Void) throws(BuildError) -> [OPMLFeed] {
        let root = try XMLTree.parse(data, display: display)
        guard root.name.lowercased() == "opml", let body = root.children.first(where: { $0.name == "body" }) else {
            throw BuildError(file: display, place: .lineColumn(line: root.line, column: 1), "expected an OPML document (<opml> with a <body> of outlines), found <\(root.name)>.")
        }
        var feeds: [OPMLFeed] = []
        func walk(_ element: XMLTreeElement, group: String?) {
            for outline in element.children where outline.name == "outline" {
                let title = (outline.attributes["title"] ?? outline.attributes["text"])?.trimmingCharacters(in: .whitespacesAndNewlines)
                let name = title?.isEmpty == false ? title : nil
                if let address = outline.attributes["xmlUrl"]?.trimmingCharacters(in: .whitespaces) {
                    guard let url = URL(string: address), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                        warn(outline.line, "the outline \(ConfigNode.excerpt(name ?? address)) has xmlUrl \(ConfigNode.excerpt(address)), which is not an http(s) address; it is left out.")
                        continue
                    }
                    feeds.append(OPMLFeed(title: name, url: url, group: group))
                }
                // A folder's feeds take its title as their group; a feed's own children (rare) too.
                walk(outline, group: name ?? group)
            }
        }
        walk(body, group: nil)
        if feeds.count > maximumFeeds {
            warn(root.line, "the file lists \(feeds.count) feeds; only the first \(maximumFeeds) are read.")
            feeds.removeLast(feeds.count - maximumFeeds)
        }
        return feeds
    }

    /// The most feeds one OPML file brings in: a list of a million outlines (hostile, or a
    /// mistake) must not become a million requests.
    package static let maximumFeeds = 1000
}
