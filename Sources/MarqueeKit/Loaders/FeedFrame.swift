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
        guard let first = run.firstIndex(where: { !$0.isBlank }), let last = run.lastIndex(where: { !$0.isBlank }) else { return }
        hasher.combine(last - first + 1)
        hasher.combine(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(run)[first...last]))
    }

    var digest: UInt64 { hasher.value }
}
