import Foundation

/// Runs the layout engine for every item, with the theme's metrics and font.
public struct LayoutPlugin: Plugin {
    public let name = "layout"
    /// Loads no items.
    public func itemFiles(in context: BuildContext) -> [URL]? { [] }

    /// Collapsed lines of image cells; nil fits as many as the image box allows.
    public var imageLines: Int?
    /// Collapsed lines of basic cells; nil keeps the theme's (3).
    public var basicLines: Int?

    /// Creates the plugin; nil values keep the theme's defaults.
    public init(imageLines: Int? = nil, basicLines: Int? = nil) {
        self.imageLines = imageLines
        self.basicLines = basicLines
    }

    /// Sets every item's cell plan; line counts of unchanged titles and descriptions come from
    /// the memo of the last build.
    public func layOutItems(_ items: inout [Item], in context: BuildContext) throws {
        var metrics = context.theme.metrics
        if let basicLines { metrics.basicCollapsedLines = basicLines }
        let engine = LayoutEngine(metrics: metrics, measurer: try context.theme.measurer, imageCollapsedLines: imageLines)
        // Everything a plan depends on besides the item: the metrics and the fonts (by content).
        var settings = StableHasher("layout-3")
        settings.combine(context.theme.metricsDescription + "|\(basicLines ?? -1)|\(imageLines ?? -1)")
        // The asset names carry each font's content hash; the metrics name the files only by path.
        let assets = context.theme.assets
        settings.combine(assets.regularFont + assets.boldFont + assets.fallbackFont)
        let base = settings
        let memo = context.memo
        items.concurrentUpdate { item in
            let hasImage = !item.images.isEmpty
            var key = base
            key.combine(item.titleLine)
            key.combine(Int(truncatingIfNeeded: item.bodyHTMLDigest))
            key.combine(hasImage ? 1 : 0)
            // The plan is the item's, made with the settings the key holds.
            let origin = item.originDigest
            defer { item.carryOrigin(origin, through: key.value) }
            if let text = memo.value(for: key.value), let known = engine.plan(memoText: text, hasImage: hasImage) {
                item.cell = known
                return
            }
            let counts = engine.lineCounts(title: item.titleLine, description: item.bodyTextBlocks, hasImage: hasImage)
            memo.store(counts.memoText, for: key.value)
            item.cell = engine.plan(counts, hasImage: hasImage)
        }
    }
}

extension LayoutEngine.LineCounts {
    /// The counts as text, for ``BuildMemo``: `e 3 1 4 1 5 2 9` is estimated, 3 blocks, then
    /// title and description lines per breakpoint.
    var memoText: String {
        var numbers = [blocks]
        for index in title.indices { numbers += [title[index], description[index]] }
        return (isEstimated ? "e" : "-") + numbers.map { " \($0)" }.joined()
    }

    /// Reads ``memoText``; nil when the text is not line counts.
    init?(memoText: String) {
        guard var numbers = MemoTextNumbers(memoText), let blocks = numbers.next() else { return nil }
        var title: [Int] = [], description: [Int] = []
        title.reserveCapacity(4)
        description.reserveCapacity(4)
        while let titleLines = numbers.next() {
            guard let descriptionLines = numbers.next() else { return nil }
            title.append(titleLines)
            description.append(descriptionLines)
        }
        guard numbers.isValid else { return nil }
        self.init(title: title, description: description, blocks: blocks, isEstimated: numbers.isEstimated)
    }

    /// The numbers of a ``memoText`` in turn (the blocks, then title and description lines per
    /// breakpoint), read in place; ``isValid`` tells, once ``next()`` returns nil, whether the
    /// text was all numbers.
    struct MemoTextNumbers {
        private let utf8: String.UTF8View
        private var position: String.Index
        /// The text's flag: the counts are estimated.
        let isEstimated: Bool
        /// False once a byte other than a digit or a space, or too large a number, was met.
        private(set) var isValid = true

        /// Nil when the text does not start with a flag (`e` or `-`).
        init?(_ text: String) {
            utf8 = text.utf8
            guard let flag = utf8.first, flag == UInt8(ascii: "e") || flag == UInt8(ascii: "-") else { return nil }
            position = utf8.index(after: utf8.startIndex)
            isEstimated = flag == UInt8(ascii: "e")
        }

        /// The next number; nil at the end of the text or at anything that is not a number.
        mutating func next() -> Int? {
            while position < utf8.endIndex, utf8[position] == UInt8(ascii: " ") { utf8.formIndex(after: &position) }
            guard isValid, position < utf8.endIndex else { return nil }
            var value = 0
            while position < utf8.endIndex, utf8[position] != UInt8(ascii: " ") {
                let byte = utf8[position]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                    isValid = false
                    return nil
                }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                guard value <= 1_000_000 else {
                    isValid = false
                    return nil
                }
                utf8.formIndex(after: &position)
            }
            return value
        }
    }
}
