import Foundation

/// `marquee init`: a new site folder that builds and serves at once — a config, a small movie
/// list with a poster, a local Media RSS feed, the default theme's templates to customise, and a
/// GitHub Actions workflow that rebuilds and publishes it every hour.
package enum SiteScaffold {
    /// Writes the scaffold into `folder`. Refuses a folder that has files unless `force` is set
    /// (then only the scaffold's own files are replaced). Returns the paths written.
    @discardableResult
    package static func create(in folder: URL, force: Bool = false) throws(BuildError) -> [String] {
        let fileManager = FileManager.default
        if let existing = try? fileManager.contentsOfDirectory(atPath: folder.path), !existing.isEmpty, !force {
            throw BuildError(file: folder.path, "the folder is not empty; choose a new folder, or pass --force to write the scaffold into it anyway.")
        }
        var files = [
            "Content/site.yml": siteConfig,
            "Content/movies.json": movies,
            "Content/feeds/art.xml": feed,
            "Content/images/poster.svg": poster("#355070", "Marquee"),
            "Content/images/art.svg": poster("#e76f51", "Art"),
            ".gitignore": "Site/\n.marquee-cache/\n",
            ScheduledBuildWorkflow.path: ScheduledBuildWorkflow.text,
        ]
        for (path, data) in Theme.defaultFiles() {
            files["Templates/\(path)"] = String(decoding: data, as: UTF8.self)
        }
        do {
            for (path, text) in files {
                let target = folder.appending(path: path)
                try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: target, atomically: true, encoding: .utf8)
            }
        } catch {
            throw BuildError(file: folder.path, "cannot write the new site: \(error.localizedDescription)")
        }
        return files.keys.sorted()
    }

    static let siteConfig = """
        # Marquee site configuration. Paths are relative to this Content/ folder.
        title: "My Gallery"
        description: "Movies and art, in cells that expand on tap."
        # base_url: "https://user.github.io/gallery/"   # where the site will live
        expand: multiple        # or single: one open cell at a time
        page_size: 50
        sources:
          - type: movies        # {"movies": [{"Title","Photo","Intro","Description"}]}
            path: movies.json
          - type: feed          # RSS 2.0 / Media RSS, RSS 1.0, Atom or JSON Feed
            path: feeds/art.xml
          # - type: feed
          #   url: https://example.org/rss.xml
        # deploy:
        #   git: git@github.com:user/gallery.git
        #   branch: gh-pages

        """

    static let movies = """
        {
          "movies": [
            {
              "Title": "Your First Movie",
              "Photo": "images/poster.svg",
              "Intro": "Replace this list with your own.",
              "Description": "Descriptions are **Markdown**. Long ones are cut to a few lines in the gallery and expand when tapped.\\n\\nEdit `Content/movies.json` while `marquee serve` runs and the page reloads by itself."
            },
            {
              "Title": "A Text-Only Entry",
              "Intro": "Entries without a photo get the basic cell.",
              "Description": "No photo here, so the layout engine picks the basic template and shows three lines while collapsed."
            },
            {
              "Title": "Short",
              "Description": "Short text gets no toggle."
            }
          ]
        }

        """

    static let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
        <channel>
          <title>Sample Art</title>
          <link>https://example.org/art/</link>
          <item>
            <title>A Painting</title>
            <guid>sample-art-1</guid>
            <pubDate>Mon, 14 Nov 2016 10:00:00 GMT</pubDate>
            <media:credit role="author">Someone</media:credit>
            <media:description type="html"><![CDATA[Feed HTML is <b>sanitized</b>: scripts and event handlers never reach the page.]]></media:description>
            <media:thumbnail url="../images/art.svg" width="300" height="300" />
          </item>
          <item>
            <title>A Journal Post</title>
            <guid>sample-art-2</guid>
            <pubDate>Sun, 13 Nov 2016 10:00:00 GMT</pubDate>
            <media:text type="plain">Text-only items, like journal posts, become basic cells.</media:text>
          </item>
        </channel>
        </rss>

        """

    static func poster(_ color: String, _ label: String) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300"><rect width="300" height="300" fill="\(color)"/><text x="150" y="160" font-family="sans-serif" font-size="36" fill="#fff" text-anchor="middle">\(label)</text></svg>

        """
    }
}
