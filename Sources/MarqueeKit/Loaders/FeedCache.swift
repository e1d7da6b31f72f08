import Foundation

/// The last good copy of each remote feed, with the validators for conditional requests.
/// Lives in `ROOT/.marquee-cache/feeds/` (git-ignored): `<key>.body` and `<key>.meta.json`.
package struct FeedCache: Sendable {
    /// What is known about a cached feed.
    package struct Entry: Sendable, Codable, Equatable {
        /// The feed's address.
        package var url: String
        /// The `ETag` the server sent, for `If-None-Match`.
        package var etag: String?
        /// The `Last-Modified` the server sent, for `If-Modified-Since`.
        package var lastModified: String?
        /// When the copy was fetched.
        package var fetched: Date
    }

    /// The cache folder.
    package let folder: URL

    /// Creates a cache in `folder` (made when first written).
    package init(folder: URL) {
        self.folder = folder
    }

    func key(_ url: URL) -> String { StableHash.hex(url.absoluteString) }

    /// The cached body and its metadata, if any.
    package func load(_ url: URL) -> (entry: Entry, body: Data)? {
        let base = folder.appending(path: key(url))
        guard let meta = try? Data(contentsOf: base.appendingPathExtension("meta.json")),
              let entry = try? JSONDecoder().decode(Entry.self, from: meta),
              let body = try? Data(contentsOf: base.appendingPathExtension("body"))
        else { return nil }
        return (entry, body)
    }

    /// Forgets the copy of `url` (one that no longer parses).
    package func remove(_ url: URL) {
        let base = folder.appending(path: key(url))
        unlink(base.appendingPathExtension("body").path)
        unlink(base.appendingPathExtension("meta.json").path)
    }

    /// Stores a body that parsed, replacing the previous copy.
    package func store(_ url: URL, body: Data, etag: String?, lastModified: String?) {
        let base = folder.appending(path: key(url))
        let entry = Entry(url: url.absoluteString, etag: etag, lastModified: lastModified, fetched: Date())
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try body.write(to: base.appendingPathExtension("body"), options: .atomic)
            try JSONEncoder().encode(entry).write(to: base.appendingPathExtension("meta.json"), options: .atomic)
        } catch {
            // A cache that cannot be written costs a refetch next time, nothing more.
        }
    }
}
