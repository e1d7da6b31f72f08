import Foundation

/// Writes `feed.xml`, an Atom feed of the gallery's newest items, when the site has a `base_url`
/// (Atom needs absolute URLs). Its dates come from the items, so an unchanged site writes an
/// unchanged feed.
package struct AtomFeedWriter: Plugin {
    package let name = "atom-feed"
    /// Loads no items.
    package func itemFiles(in context: BuildContext) -> [URL]? { [] }

    static let path = "feed.xml"
    /// Entries in the feed.
    package var limit = 50

    /// Creates the plugin with its default settings.
    package init() {}

    package func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws {
        guard let base = context.config.baseURL?.absoluteString else { return }
        let entries = FeedParser.newestFirst(items, limit: limit)
        let fallbackDate = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01, for undated sites
        let updated = entries.compactMap(\.date).max() ?? fallbackDate
        func stamp(_ date: Date) -> String { DateText.iso8601(date) }
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
              <title>\(HTMLEscape.text(context.config.title))</title>
              <id>\(HTMLEscape.text(base))</id>
              <link rel="alternate" type="text/html" href="\(HTMLEscape.attribute(base))"/>
              <link rel="self" type="application/atom+xml" href="\(HTMLEscape.attribute(base + Self.path))"/>
              <updated>\(stamp(updated))</updated>
              <author><name>\(HTMLEscape.text(context.config.title))</name></author>

            """
        for item in entries {
            let url = base + "items/\(item.slug)/"
            let content = SiteURL.resolveMarkers(in: item.bodyHTML, root: base)
            xml += """
                  <entry>
                    <title>\(HTMLEscape.text(item.title))</title>
                    <id>\(HTMLEscape.text(url))</id>
                    <link rel="alternate" type="text/html" href="\(HTMLEscape.attribute(url))"/>
                    <updated>\(stamp(item.date ?? updated))</updated>
                \(item.author.map { "    <author><name>\(HTMLEscape.text($0))</name></author>\n" } ?? "")\
                    <summary>\(HTMLEscape.text(item.intro))</summary>
                    <content type="html">\(HTMLEscape.text(content))</content>
                  </entry>

                """
        }
        try output.add(Self.path, text: xml + "</feed>\n")
    }
}
