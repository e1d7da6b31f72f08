import Foundation

/// URL-safe names for detail pages and copied files.
public enum Slug {
    /// A slug made from `title`: lowercase ASCII letters, digits and single hyphens, at most 60
    /// characters. Empty when the title has nothing usable (emoji only, punctuation only).
    public static func make(_ title: String) -> String {
        // ASCII needs no folding (the loop lowercases), and folding is slow.
        let folded = title.utf8.allSatisfy({ $0 < 0x80 }) ? title
            : title.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        // Only ASCII letters and digits are kept, so the UTF-8 bytes can be read instead of the
        // scalars: every byte of a non-ASCII scalar is 0x80 or more, a separator like any other.
        var slug: [UInt8] = []
        slug.reserveCapacity(maximumLength + 1)
        var pendingHyphen = false
        for byte in folded.utf8 {
            let kept: UInt8
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): kept = byte
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): kept = byte + 32
            default:
                pendingHyphen = true
                continue
            }
            if pendingHyphen && !slug.isEmpty { slug.append(UInt8(ascii: "-")) }
            slug.append(kept)
            pendingHyphen = false
            if slug.count >= maximumLength { break }
        }
        if slug.count > maximumLength { slug.removeLast(slug.count - maximumLength) }
        while slug.last == UInt8(ascii: "-") { slug.removeLast() }
        return String(decoding: slug, as: UTF8.self)
    }

    /// The longest slug, in characters.
    static let maximumLength = 60

    /// A slug for a file name, never empty.
    public static func fileName(_ name: String) -> String {
        let slug = make(name)
        return slug.isEmpty ? "file-" + StableHash.hex(name).prefix(8) : slug
    }

    /// Gives every item a unique slug: from its title, or `item-<hash of id>` when the title has
    /// none; a repeated slug gets `-2`, `-3`, … in item order.
    public static func assign(to items: inout [Item]) {
        // The bases and their hashes on every core; then the slugs in item order on one.
        let bases = items.concurrentMap { item -> (slug: String, hash: UInt64) in
            let made = make(item.title)
            let base = made.isEmpty ? "item-" + StableHash.hex(item.id).prefix(10) : made
            return (base, HashedStringSet.hash(base))
        }
        var taken = HashedStringSet(capacity: items.count)
        // The next suffix to try per base: every lower one is already taken, and stays so. (Starting
        // from 2 each time made 500 items named alike cost 125,000 lookups.)
        var nextSuffix: [String: Int] = [:]
        for index in items.indices {
            let base = bases[index]
            var slug = base.slug
            // Most bases are free: one insertion and done.
            if !taken.insert(base.slug, hash: base.hash) {
                var counter = nextSuffix[base.slug] ?? 2
                repeat {
                    slug = "\(base.slug)-\(counter)"
                    counter += 1
                } while !taken.insert(slug, hash: HashedStringSet.hash(slug))
                nextSuffix[base.slug] = counter
            }
            items[index].slug = slug
        }
    }
}
