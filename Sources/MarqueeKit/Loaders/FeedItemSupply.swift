import Foundation

/// What a feed's items are made from when its document was cut at its items (``XMLItemCut``):
/// the skeleton's tree, in which each item is a stand-in, and for each stand-in either the item
/// the last build made of the same bytes (from the memo) or the item's full element, parsed on
/// every core in batches.
struct FeedItemSupply: Sendable {
    /// The document's tree with stand-ins for the items.
    let root: XMLTreeElement
    /// Where made items are remembered; nil remembers nothing.
    let memo: BuildMemo?
    /// Each item's memo key: its bytes, the bytes around it, the namespaces it is parsed under, and
    /// whether local images are read.
    private let keys: [UInt64]
    /// Each item remembered from the last build, or nil.
    private let remembered: [Item?]
    /// Each item's full element, for those not remembered.
    private let elements: [XMLTreeElement?]
    /// The cut the skeleton came from, which tells its stand-ins.
    private let cut: XMLItemCut

    /// The supply of `cut`'s items; nil when its skeleton or an item does not parse on its own
    /// (the document is then parsed whole, which reports the exact error).
    init?(cut: XMLItemCut, memo: BuildMemo?, readsLocalImages: Bool) {
        guard let root = try? XMLTree.parse(prepared: cut.skeleton, display: "") else { return nil }
        let keys = Array(cut.pieces.indices).concurrentMap { number in
            cut.document.withUnsafeBytes { bytes in
                FeedItemSource<XMLTreeElement>.key(
                    format: "feed-item-1", frame: cut.frameDigest, context: cut.declarations, readsLocalImages: readsLocalImages,
                    piece: UnsafeRawBufferPointer(rebasing: bytes[cut.pieces[number]]))
            }
        }
        let remembered = keys.concurrentMap { FeedItemRecord.remembered(in: memo, key: $0) }
        // The others parsed in batches of consecutive items, a few per core.
        let missing = remembered.indices.filter { remembered[$0] == nil }
        let batchCount = min(missing.count, processorCount * 4)
        let batches = (0..<batchCount).map { missing[$0 * missing.count / batchCount..<($0 + 1) * missing.count / batchCount] }
        let parsed = batches.concurrentMap { cut.elements($0) }
        var elements = [XMLTreeElement?](repeating: nil, count: keys.count)
        for (batch, batchElements) in zip(batches, parsed) {
            guard let batchElements else { return nil }
            for (number, element) in zip(batch, batchElements) { elements[number] = element }
        }
        self.root = root
        self.memo = memo
        self.keys = keys
        self.remembered = remembered
        self.elements = elements
        self.cut = cut
    }

    /// What to make the items of `element` (an element of ``root``) from: for a stand-in, each
    /// item it stands for, remembered or as its full element, with the memo key to remember it
    /// under; any other element as it is.
    func sources(of element: XMLTreeElement) -> [FeedItemSource<XMLTreeElement>] {
        guard let numbers = cut.numbers(ofStandIn: element), numbers.upperBound < keys.count else { return [FeedItemSource(element: element)] }
        return numbers.map { FeedItemSource(remembered: remembered[$0], element: elements[$0] ?? element, key: keys[$0]) }
    }
}
