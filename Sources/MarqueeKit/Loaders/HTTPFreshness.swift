import Foundation
import NIOHTTP1

/// What a response's headers say about asking again (RFC 9111 and RFC 9110): how long its body
/// stays current, and how long a server that is overloaded or rate-limiting wants to be left alone.
enum HTTPFreshness {
    /// Until when the response stays current: `Cache-Control: max-age` (which wins), else
    /// `Expires` counted from the server's `Date`; nil when the server says nothing, or says not
    /// to reuse it (`no-cache`, `no-store`).
    static func freshUntil(_ headers: HTTPHeaders, now: Date) -> Date? {
        let directives = headers[canonicalForm: "Cache-Control"].map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
        if directives.contains(where: { $0 == "no-cache" || $0 == "no-store" }) { return nil }
        if let maxAge = directives.first(where: { $0.hasPrefix("max-age=") }) {
            guard let seconds = Int(maxAge.dropFirst("max-age=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))), seconds > 0 else { return nil }
            return now.addingTimeInterval(Double(min(seconds, Self.longestWait)))
        }
        guard let expires = headers.first(name: "Expires").flatMap(FeedDate.parse) else { return nil }
        // Counted from the server's clock, so that a clock set wrong on either side does not
        // stretch it.
        let sent = headers.first(name: "Date").flatMap(FeedDate.parse) ?? now
        let seconds = expires.timeIntervalSince(sent)
        return seconds > 0 ? now.addingTimeInterval(min(seconds, Double(Self.longestWait))) : nil
    }

    /// Until when the server asked not to be asked again: `Retry-After` as seconds or as a date.
    static func retryAfter(_ headers: HTTPHeaders, now: Date) -> Date? {
        guard let value = headers.first(name: "Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value) { return seconds > 0 ? now.addingTimeInterval(Double(min(seconds, Self.longestWait))) : nil }
        guard let date = FeedDate.parse(value) else { return nil }
        return date > now ? min(date, now.addingTimeInterval(Double(Self.longestWait))) : nil
    }

    /// The longest a server can make Marquee wait: a week. A server that asks for more (by
    /// mistake, or a year-long `max-age` on a feed) is asked again after a week.
    static let longestWait = 7 * 86_400
}
