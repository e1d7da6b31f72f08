import Foundation

/// A source's document at a URL (a feed, a movie list), fetched politely through a
/// ``FeedFetcher`` and kept in its cache once it reads: a problem never fails the build, it warns
/// naming the URL and uses the last good copy (with none, the source adds no items).
struct RemoteDocument {
    let url: URL
    let fetcher: FeedFetcher?
    /// What the document is, in warnings: "source", or "image".
    var noun = "source"
    /// What the build does without it, in warnings.
    var without = "the source adds no items"

    /// What fetching the document did, for the build's report.
    enum Fetch: CustomStringConvertible {
        case fetched, notModified, offline
        case stillFresh(until: Date)
        case waiting(until: Date)
        case failed(String)

        var description: String {
            switch self {
            case .fetched: "fetched"
            case .notModified: "not modified"
            case .offline: "offline, from the cache"
            case .stillFresh(let until): "still fresh until \(FeedFetcher.clockTime(until)), not asked"
            case .waiting(let until): "retry later: the server asked not to be asked before \(FeedFetcher.clockTime(until))"
            case .failed(let reason): "failed: \(reason)"
            }
        }
    }

    /// Records the report line of the document's source: how the fetch went and the items it gave.
    func record(_ fetch: Fetch, items: Int, in context: BuildContext) {
        context.recordSource("\(url.absoluteString): \(fetch), \(items) item\(items == 1 ? "" : "s")")
    }

    /// The document read by `read`, fresh or from the cache; nil (with a warning) when neither is
    /// available. A fresh body is kept only once `read` accepts it.
    func load<Document>(in context: BuildContext, read: (Data) throws(BuildError) -> Document) async -> (document: Document?, fetch: Fetch) {
        let display = url.absoluteString
        guard let fetcher else {
            context.warn(BuildWarning(file: display, "no fetcher is configured for remote \(noun)s; \(without)."))
            return (nil, .failed("no fetcher"))
        }
        let cached = fetcher.cache.load(url)
        /// The cached copy read; a copy that no longer reads (damaged on disk) is reported and
        /// removed, so that the next build fetches the document whole.
        func readCached(_ body: Data) -> Document? {
            do {
                return try read(body)
            } catch {
                fetcher.cache.remove(url)
                context.warn(BuildWarning(
                    file: display,
                    "the cached copy of this \(noun) can no longer be read (\(Self.reason(error))); it was removed, so \(without) and the next build fetches it anew."))
                return nil
            }
        }
        func fallback(_ reason: String) -> Document? {
            guard let cached else {
                context.warn(BuildWarning(file: display, "\(reason); there is no cached copy, so \(without)."))
                return nil
            }
            let age = Int(Date().timeIntervalSince(cached.entry.fetched) / 3600)
            context.warn(BuildWarning(file: display, "\(reason); using the last good copy (\(age) h old)."))
            return readCached(cached.body)
        }
        if fetcher.options.offline {
            guard let cached else {
                context.warn(BuildWarning(file: display, "offline and there is no cached copy; \(without)."))
                return (nil, .offline)
            }
            return (readCached(cached.body), .offline)
        }
        do {
            switch try await fetcher.fetch(url) {
            case .stillFresh(let body, let until):
                return (readCached(body), .stillFresh(until: until))
            case .notModified(let body, let freshUntil):
                fetcher.cache.update(url) { $0.freshUntil = freshUntil; $0.retryAfter = nil }
                return (readCached(body), .notModified)
            case .fresh(let body, let etag, let lastModified, let freshUntil):
                do {
                    let document = try read(body)
                    fetcher.cache.store(url, body: body, etag: etag, lastModified: lastModified, freshUntil: freshUntil)
                    return (document, .fetched)
                } catch {
                    let reason = "the \(noun) could not be read (\(Self.reason(error)))"
                    return (fallback(reason), .failed(reason))
                }
            }
        } catch {
            let document = fallback("the \(noun) could not be fetched: \(error.description)")
            return (document, error.retryAfter.map { .waiting(until: $0) } ?? .failed(error.description))
        }
    }

    /// Why a document did not read, with the place in it: `at 4:85: …` or `at movies[3].Title: …`.
    static func reason(_ error: BuildError) -> String {
        (error.place.map { "at \($0): " } ?? "") + error.message
    }
}
