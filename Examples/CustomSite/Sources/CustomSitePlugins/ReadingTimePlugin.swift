import Foundation
import MarqueeKit

/// Minutes it takes to read an item's description, stored on the item in a typed way and shown
/// to templates as `{{meta.readingMinutes}}`.
public enum ReadingMinutes: ItemMetadataKey {
    public typealias Value = Int
    public static let templateName: String? = "readingMinutes"
}

/// A transform plugin: adds a "N min read" badge to every cell. Register it after the markup
/// plugin (it counts the words of the rendered description); the layout engine, which runs in a
/// later stage, measures the badge with the title.
public struct ReadingTimePlugin: Plugin {
    public let name = "reading-time"
    /// Reading speed in words per minute.
    public var wordsPerMinute: Int

    public init(wordsPerMinute: Int = 200) {
        self.wordsPerMinute = wordsPerMinute
    }

    /// Loads no items.
    public func itemFiles(in context: BuildContext) -> [URL]? { [] }

    public func transformItems(_ items: inout [Item], in context: BuildContext) throws {
        guard wordsPerMinute > 0 else {
            throw BuildError("wordsPerMinute must be positive, not \(wordsPerMinute).")
        }
        for index in items.indices {
            let words = items[index].bodyText.split(whereSeparator: \.isWhitespace).count
            let minutes = max(1, (words + wordsPerMinute - 1) / wordsPerMinute)
            items[index].metadata[ReadingMinutes.self] = minutes
            items[index].badges.append("\(minutes) min read")
        }
    }
}
