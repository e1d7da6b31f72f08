import Foundation

/// The last good copy of each remote document (a feed, a movie list, a downloaded image), with
/// the validators for conditional requests. Lives in `ROOT/.marquee-cache/feeds/` (git-ignored).
///
/// What is known about each document is an ``Entry`` kept through the build's cache API, a
/// ``BuildMemo``, in `entries.memo`; unlike the build's own memo, this one is kept across
/// upgrades of Marquee, for a last good copy must outlive the program that fetched it. The
/// bodies, up to megabytes each, are files beside it (`<key>.body`), read only when used.
package struct FeedCache: Sendable {
    /// What is known about a cached document.
    package struct Entry: Sendable, Codable, Equatable {
        /// The document's address.
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
    private let entries: BuildMemo

    /// Creates a cache in `folder` (made when first written).
    package init(folder: URL) {
        self.folder = folder
        entries = BuildMemo(file: folder.appending(path: "entries.memo"), program: "kept")
    }

    private func key(_ url: URL) -> UInt64 {
        var hasher = StableHasher("fetched-1")
        hasher.combine(url.absoluteString)
        return hasher.value
    }

    private func bodyFile(_ url: URL) -> URL {
        folder.appending(path: StableHash.hexDigits(key(url)) + ".body")
    }

    /// The cached body and its metadata, if any.
    package func load(_ url: URL) -> (entry: Entry, body: Data)? {
        guard let entry = entry(url), let body = FileIO.contents(of: bodyFile(url).path) else { return nil }
        return (entry, body)
    }

    /// What is known about `url`, with or without a copy of its body (a server may ask to wait
    /// before ever answering with one).
    package func entry(_ url: URL) -> Entry? {
        entries.value(Entry.self, for: key(url))
    }

    /// Changes what is known about `url` (from nothing, when nothing is), keeping its body.
    package func update(_ url: URL, _ change: (inout Entry) -> Void) {
        var entry = entry(url) ?? Entry(url: url.absoluteString, fetched: .distantPast)
        change(&entry)
        entries.store(entry, for: key(url))
    }

    /// Forgets the copy of `url` (one that no longer parses) and its validators.
    package func remove(_ url: URL) {
        unlink(bodyFile(url).path)
        update(url) { entry in
            entry.etag = nil
            entry.lastModified = nil
            entry.freshUntil = nil
        }
    }

    /// Stores a body that parsed, replacing the previous copy. The body is written at once, and
    /// its entry when the build ends (see ``save()``): a build that stops before then leaves the
    /// new body with the old validators, which at worst cost the next build a full answer.
    package func store(_ url: URL, body: Data, etag: String?, lastModified: String?, freshUntil: Date?) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try body.write(to: bodyFile(url), options: .atomic)
        } catch {
            return  // A cache that cannot be written costs a refetch next time, nothing more.
        }
        entries.store(Entry(url: url.absoluteString, etag: etag, lastModified: lastModified, fetched: Date(), freshUntil: freshUntil), for: key(url))
    }

    /// Writes what this build learnt about its documents, whether or not the build succeeded:
    /// the validators and a server's request to wait hold whatever became of the pages.
    func save() {
        entries.save()
    }
}
