import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Fetches remote feeds over HTTP(S) with async-http-client: a bounded number at once (and two
/// per server), a per-feed timeout, a size limit, a redirect limit, gzip, conditional requests
/// against the cache, no request while the server's copy is still fresh or the server asked to
/// wait.
package final class FeedFetcher: Sendable {
    /// Limits and behaviour of fetching.
    package struct Options: Sendable {
        /// Feeds fetched at the same time.
        package var concurrency = 4
        /// Feeds fetched from one server at the same time.
        package var concurrencyPerHost = 2
        /// The longest one feed may take.
        package var timeout: Duration = .seconds(15)
        /// The largest body accepted (after decompression).
        package var maximumBytes = 10 * 1024 * 1024
        /// Redirects followed before giving up.
        package var maximumRedirects = 5
        /// Use the cache only; never touch the network.
        package var offline = false
        /// Ask even while the server said the copy is fresh or asked to wait.
        package var refresh = false
        /// Sent as `User-Agent`, so feed owners can see who asks (see ``userAgent(site:)``).
        package var userAgent = FeedFetcher.userAgent(site: nil)

        /// Creates options with the default limits.
        package init() {}
    }

    /// `Marquee/VERSION`, with the address of the site asking, when it has one.
    package static func userAgent(site: URL?) -> String {
        "Marquee/0.1 (static feed gallery generator" + (site.map { "; +\($0.absoluteString)" } ?? "") + ")"
    }

    /// What a fetch produced.
    package enum Outcome: Sendable {
        /// A fresh body from the server (not yet known to parse), current until `freshUntil`.
        case fresh(Data, etag: String?, lastModified: String?, freshUntil: Date?)
        /// The server said 304: the cached copy is current (until `freshUntil`).
        case notModified(Data, freshUntil: Date?)
        /// No request was sent: the server said the cached copy stays current until then.
        case stillFresh(Data, until: Date)
    }

    /// Why a fetch failed, in words for the warning.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The reason, as the warning says it.
        package let description: String
        /// When the server asked to be left alone until then (`429`/`503` with `Retry-After`).
        package var retryAfter: Date? = nil
    }

    /// The limits in force.
    package let options: Options
    /// Where the last good copies are kept.
    package let cache: FeedCache
    private let client: HTTPClient
    private let slots: AsyncLimiter
    private let hostSlots = Locked<[String: AsyncLimiter]>([:])

    /// Creates a fetcher with its own HTTP client.
    package init(cache: FeedCache, options: Options = Options()) {
        self.options = options
        self.cache = cache
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: options.maximumRedirects, allowCycles: false),
            timeout: .init(connect: .seconds(5), read: .seconds(Int64(options.timeout.components.seconds))),
            decompression: .enabled(limit: .size(options.maximumBytes)))
        configuration.httpVersion = .http1Only
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.slots = AsyncLimiter(limit: options.concurrency)
    }

    deinit {
        try? client.syncShutdown()
    }

    /// Fetches `url`, sending the cache's validators, unless the server said the cached copy is
    /// still fresh (then no request is sent) or asked to wait (then this fails, saying until when).
    package func fetch(_ url: URL) async throws(Failure) -> Outcome {
        let cached = cache.load(url)
        let now = Date()
        if !options.refresh {
            if let wait = cache.entry(url)?.retryAfter, wait > now {
                throw Failure(description: "the server asked not to be asked again before \(Self.clockTime(wait)) (Retry-After)", retryAfter: wait)
            }
            if let cached, let fresh = cached.entry.freshUntil, fresh > now { return .stillFresh(cached.body, until: fresh) }
        }
        let host = hostSlots.withLock { slots in
            let key = url.host?.lowercased() ?? ""
            if slots[key] == nil { slots[key] = AsyncLimiter(limit: options.concurrencyPerHost) }
            return slots[key]!
        }
        // The server's slot first: a feed waiting for its server holds no slot another could use.
        await host.acquire()
        await slots.acquire()
        defer { Task { await slots.release(); await host.release() } }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: options.userAgent)
        request.headers.add(name: "Accept", value: "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, */*;q=0.8")
        request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        if let cached {
            if let etag = cached.entry.etag { request.headers.add(name: "If-None-Match", value: etag) }
            if let modified = cached.entry.lastModified { request.headers.add(name: "If-Modified-Since", value: modified) }
        }
        do {
            // One deadline for the whole exchange: the client's own timeout ends with the
            // response's head, and a server can then send its body a byte at a time for ever.
            return try await Self.withDeadline(options.timeout) { [self, request] () async throws -> Outcome in
                try await exchange(request, for: url, cached: cached)
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: Self.explain(error, options: options))
        }
    }

    /// Sends `request` and reads the whole answer.
    private func exchange(_ request: HTTPClientRequest, for url: URL, cached: (entry: FeedCache.Entry, body: Data)?) async throws -> Outcome {
        let response = try await client.execute(request, timeout: .seconds(options.timeout.components.seconds))
        let now = Date()
        let freshUntil = HTTPFreshness.freshUntil(response.headers, now: now)
        if response.status == .notModified, let cached {
            return .notModified(cached.body, freshUntil: freshUntil)
        }
        guard response.status == .ok else {
            var failure = Failure(description: "the server answered \(response.status.code) \(response.status.reasonPhrase)")
            if [.tooManyRequests, .serviceUnavailable].contains(response.status), let wait = HTTPFreshness.retryAfter(response.headers, now: now) {
                cache.update(url) { $0.retryAfter = wait }
                failure = Failure(description: failure.description + " and asked not to be asked again before \(Self.clockTime(wait))", retryAfter: wait)
            }
            throw failure
        }
        if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > options.maximumBytes {
            throw Failure(description: "the feed is \(length) bytes, over the \(options.maximumBytes)-byte limit")
        }
        let body = try await response.body.collect(upTo: options.maximumBytes)
        return .fresh(
            Data(body.readableBytesView), etag: response.headers.first(name: "ETag"),
            lastModified: response.headers.first(name: "Last-Modified"), freshUntil: freshUntil)
    }

    /// A time for a message: `14:05 UTC`, with the date when it is not today.
    static func clockTime(_ date: Date) -> String {
        let format = Date.FormatStyle(timeZone: TimeZone(identifier: "UTC")!).hour(.twoDigits(amPM: .omitted)).minute()
        let sameDay = Calendar.current.isDate(date, inSameDayAs: Date())
        return (sameDay ? "" : date.formatted(.iso8601.year().month().day()) + " ") + date.formatted(format) + " UTC"
    }

    /// Thrown when a fetch runs past its deadline.
    struct DeadlineExceeded: Error {}

    /// `work`'s result, or ``DeadlineExceeded`` once `timeout` has passed (`work` is then
    /// cancelled, which closes its connection).
    static func withDeadline<Result: Sendable>(_ timeout: Duration, _ work: @escaping @Sendable () async throws -> Result) async throws -> Result {
        try await withThrowingTaskGroup(of: Result.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw DeadlineExceeded()
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    static func explain(_ error: any Error, options: Options) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return "no complete answer within \(options.timeout.components.seconds) s"
            case .redirectLimitReached: return "more than \(options.maximumRedirects) redirects"
            case .redirectCycleDetected: return "a redirect loop"
            default: break
            }
        }
        if error is DeadlineExceeded { return "no complete answer within \(options.timeout.components.seconds) s" }
        if error is NIOTooManyBytesError { return "the feed is over the \(options.maximumBytes)-byte limit" }
        let text = "\(error)"
        if text.lowercased().contains("decompression") || text.contains("limit") {
            return "the feed is over the \(options.maximumBytes)-byte limit"
        }
        return "the request failed (\(text))"
    }
}

/// Lets at most `limit` tasks through at once.
actor AsyncLimiter {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    func acquire() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
