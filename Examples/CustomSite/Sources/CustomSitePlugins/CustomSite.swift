import Foundation
import MarqueeKit

/// The site, defined in Swift instead of a config file's `sources:`.
public enum CustomSite {
    /// The site described by `root/Content/site.yml` (title and options), with the CSV source and
    /// the reading-time plugin added to the built-in stages.
    public static func make(root: URL, output: URL? = nil) throws -> Site {
        var site = try Site.fromConfig(root: root, output: output)
        let films = CSVFilmSource(file: root.appending(path: "Content/films.csv"))
        site.plugins = [films] + site.plugins + [ReadingTimePlugin()]
        return site
    }
}
