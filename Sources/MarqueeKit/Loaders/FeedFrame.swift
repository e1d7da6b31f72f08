import Foundation

/// A digest of the bytes of a feed outside its items: all that the making of an item depends on
/// besides the item's own bytes (the feed's title, link, author, base and namespaces). Part of
/// every remembered item's key (``FeedItemSupply``), so that a change around the items makes
/// them all again.
struct FeedFrame {
    private var hasher = StableHasher("feed-frame-1")

    /// Adds a run of bytes between items, with its length, without the white space at its ends
    /// (text beside items, which no parser reads): adding or removing an item leaves the frame
    /// of the others as it was.
    mutating func add(_ run: UnsafeBufferPointer<UInt8>) {
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        guard let first = run.firstIndex(where: { !isBlank($0) }), let last = run.lastIndex(where: { !isBlank($0) }) else { return }
        hasher.combine(last - first + 1)
        hasher.combine(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(run)[first...last]))
    }

    var digest: UInt64 { hasher.value }
}
