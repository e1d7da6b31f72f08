import Foundation

/// A JSON Feed cut at its items, as ``XMLItemCut`` cuts RSS and Atom: the document with an
/// empty `items` array is parsed alone, each item whose bytes and surroundings the last build
/// read is taken from the memo, and the others are parsed on every core.
///
/// Only a document that is one object with a single `items` member holding an array of objects
/// is cut (as far as ``JSONLayout`` tells, which follows strings and brackets); any other, and
/// one whose parts do not parse, is parsed whole, which reports the exact error.
struct JSONFeedCut: Sendable {
    /// The document with nothing between the brackets of its `items` array.
    let skeleton: Data
    /// The bytes of each item (an object) in ``document``, in order.
    let pieces: [Range<Int>]
    /// The ``FeedFrame`` of the bytes outside the `items` array's contents.
    let frameDigest: UInt64
    /// The whole document.
    let document: Data

    /// Cuts `document`; nil when it is not cut (it is then parsed whole).
    init?(_ document: Data) {
        guard let scan = document.withUnsafeBytes({ Self.scan($0.bindMemory(to: UInt8.self)) }) else { return nil }
        (skeleton, pieces, frameDigest) = (Data(scan.skeleton), scan.pieces, scan.frame)
        self.document = document
    }

    /// Where each item comes from: remembered in `memo`, or its value parsed now (on every core);
    /// nil when an item does not parse on its own.
    func sources(memo: BuildMemo?, readsLocalImages: Bool) -> [FeedItemSource<JSONValue>]? {
        let document = document, pieces = pieces, frame = frameDigest
        let failed = Locked(false)
        let sources = Array(pieces.indices).concurrentMap { number -> FeedItemSource<JSONValue> in
            document.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                let key = FeedItemSource<JSONValue>.key(
                    format: "json-feed-item-1", frame: frame, readsLocalImages: readsLocalImages,
                    piece: UnsafeRawBufferPointer(rebasing: raw[pieces[number]]))
                if let item = FeedItemRecord.remembered(in: memo, key: key) {
                    return FeedItemSource(remembered: item, element: .null, key: key)
                }
                // The document's object holds the array that holds the item.
                guard let value = try? JSONParser.value(in: bytes, range: pieces[number], containerDepth: 2), case .object = value else {
                    failed.withLock { $0 = true }
                    return FeedItemSource(element: .null)
                }
                return FeedItemSource(element: value, key: key)
            }
        }
        return failed.withLock { $0 } ? nil : sources
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (skeleton: [UInt8], pieces: [Range<Int>], frame: UInt64)? {
        // The document's object: after a byte-order mark and blanks, up to the blanks at the end.
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, bytes[start].isBlank { start += 1 }
        var end = bytes.count
        while end > start, bytes[end - 1].isBlank { end -= 1 }
        guard let members = JSONLayout.members(ofObjectIn: start..<end, of: bytes) else { return nil }
        let items = members.filter { JSONParser.string(at: $0.key, in: bytes) == "items" }
        guard items.count == 1, let array = items.first?.value, let pieces = JSONLayout.elements(ofArrayIn: array, of: bytes),
              !pieces.isEmpty, pieces.allSatisfy({ bytes[$0.lowerBound] == UInt8(ascii: "{") })
        else { return nil }
        // Only what is outside the array's contents counts: between items there are commas.
        let before = UnsafeBufferPointer(rebasing: bytes[..<(array.lowerBound + 1)])
        let after = UnsafeBufferPointer(rebasing: bytes[(array.upperBound - 1)...])
        var frame = FeedFrame()
        frame.add(before)
        frame.add(after)
        return (Array(before) + Array(after), pieces, frame.digest)
    }
}
