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
            if let known = memo.withRememberedBytes(for: key.value, LayoutEngine.LineCounts.init(memoText:)),
               known.title.count == engine.metrics.breakpoints.count {
                item.cell = engine.plan(known, hasImage: hasImage)
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
        var text = memoText
        guard let counts = text.withUTF8(Self.init(memoText:)) else { return nil }
        self = counts
    }

    /// Reads ``memoText`` from its UTF-8 (as the memo holds it, without making a string).
    init?(memoText utf8: UnsafeBufferPointer<UInt8>) {
        guard let flag = utf8.first, flag == UInt8(ascii: "e") || flag == UInt8(ascii: "-") else { return nil }
        // The numbers after the flag: blocks, then title and description lines by turns.
        var blocks = -1
        var title: [Int] = [], description: [Int] = []
        title.reserveCapacity(4)
        description.reserveCapacity(4)
        var current = -1, count = 0
        func end() {
            guard current >= 0 else { return }
            if count == 0 {
                blocks = current
            } else if count % 2 == 1 {
                title.append(current)
            } else {
                description.append(current)
            }
            count += 1
            current = -1
        }
        for byte in utf8.dropFirst() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                current = max(current, 0) * 10 + Int(byte - UInt8(ascii: "0"))
                if current > 1_000_000 { return nil }
            case UInt8(ascii: " "):
                end()
            default:
                return nil
            }
        }
        end()
        guard blocks >= 0, count % 2 == 1 else { return nil }
        self.init(title: title, description: description, blocks: blocks, isEstimated: flag == UInt8(ascii: "e"))
    }
}
