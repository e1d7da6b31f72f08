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
        /// Until when the server said the copy stays current (`Cache-Control: max-age`, `Expires`):
        /// no request is sent before then.
        package var freshUntil: Date?
        /// Until when the server asked not to be asked again (`Retry-After` with `429` or `503`).
        package var retryAfter: Date?
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
        guard let entry = entry(url), let body = try? Data(contentsOf: folder.appending(path: key(url) + ".body")) else { return nil }
        return (entry, body)
    }

    /// What is known about `url`, with or without a copy of its body (a server may ask to wait
    /// before ever answering with one).
    package func entry(_ url: URL) -> Entry? {
        guard let meta = try? Data(contentsOf: folder.appending(path: key(url) + ".meta.json")) else { return nil }
        return try? JSONDecoder().decode(Entry.self, from: meta)
    }

    /// Changes what is known about `url` (from nothing, when nothing is), keeping its body.
    package func update(_ url: URL, _ change: (inout Entry) -> Void) {
        var entry = entry(url) ?? Entry(url: url.absoluteString, fetched: .distantPast)
        change(&entry)
        write(entry, for: url)
    }

    /// Forgets the copy of `url` (one that no longer parses).
    package func remove(_ url: URL) {
        unlink(folder.appending(path: key(url) + ".body").path)
        unlink(folder.appending(path: key(url) + ".meta.json").path)
    }

    /// Stores a body that parsed, replacing the previous copy.
    package func store(_ url: URL, body: Data, etag: String?, lastModified: String?, freshUntil: Date?) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try body.write(to: folder.appending(path: key(url) + ".body"), options: .atomic)
        } catch {
            return  // A cache that cannot be written costs a refetch next time, nothing more.
        }
        write(Entry(url: url.absoluteString, etag: etag, lastModified: lastModified, fetched: Date(), freshUntil: freshUntil), for: url)
    }

    private func write(_ entry: Entry, for url: URL) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? JSONEncoder().encode(entry).write(to: folder.appending(path: key(url) + ".meta.json"), options: .atomic)
    }
}
