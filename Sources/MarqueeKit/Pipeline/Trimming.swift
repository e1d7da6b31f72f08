import Foundation

extension String {
    /// The string without the characters of `set` at either end. Foundation's trimming is only
    /// asked when an end has one: it costs microseconds even when there is nothing to trim, and
    /// the pipeline trims every item's title, author and source.
    func trimmed(_ set: CharacterSet = .whitespacesAndNewlines) -> String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last,
              set.contains(first) || set.contains(last) else { return self }
        return trimmingCharacters(in: set)
    }
}
