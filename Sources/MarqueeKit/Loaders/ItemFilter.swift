import Foundation

/// Which of a source's items are kept: a source's `include:`, `exclude:` and `since:` settings.
///
/// An item is kept when it matches one of `include` (or `include` is empty), matches none of
/// `exclude`, and is not dated before `since` ago (an undated item's age is unknown, so it stays).
package struct ItemFilter: Sendable, Equatable {
    /// Items must match one of these, when there are any.
    package var include: [ItemPattern] = []
    /// Items matching any of these are dropped.
    package var exclude: [ItemPattern] = []
    /// The greatest age kept, in seconds.
    package var since: Int?

    package init(include: [ItemPattern] = [], exclude: [ItemPattern] = [], since: Int? = nil) {
        self.include = include
        self.exclude = exclude
        self.since = since
    }

    /// True when the filter keeps every item.
    package var keepsEverything: Bool { include.isEmpty && exclude.isEmpty && since == nil }

    /// A test of whether an item is kept at the time `now`.
    package func keeps(now: Date) -> (Item) -> Bool {
        let include = include.map { $0.matcher() }, exclude = exclude.map { $0.matcher() }
        let oldest = since.map { now.addingTimeInterval(-Double($0)) }
        return { item in
            if let oldest, let date = item.date, date < oldest { return false }
            let texts = [item.title] + item.tags + (item.author.map { [$0] } ?? [])
            func matches(_ pattern: (String) -> Bool) -> Bool { texts.contains(where: pattern) }
            if !include.isEmpty && !include.contains(where: matches) { return false }
            return !exclude.contains(where: matches)
        }
    }

    /// The filter as configuration text, for the build's settings description.
    var settingsDescription: String {
        let list = { (patterns: [ItemPattern]) in "[" + patterns.map(\.text.debugDescription).joined(separator: ", ") + "]" }
        return "ItemFilter(include: \(list(include)), exclude: \(list(exclude)), since: \(since.map(String.init) ?? "nil"))"
    }

    /// Reads an age such as `30d`: a whole number of minutes (`m`), hours (`h`), days (`d`) or
    /// weeks (`w`); nil when `text` is not one.
    package static func seconds(inAge text: String) -> Int? {
        let units: [Character: Int] = ["m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count > 0,
              count <= Int.max / unit else { return nil }
        return count * unit
    }
}
