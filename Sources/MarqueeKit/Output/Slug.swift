import Foundation

/// URL-safe names for detail pages and copied files.
public enum Slug {
    /// A slug made from `title`: lowercase ASCII letters, digits and single hyphens, at most 60
    /// characters. Empty when the title has nothing usable (emoji only, punctuation only).
    public static func make(_ title: String) -> String {
        // ASCII needs no folding (the loop lowercases), and folding is slow.
        let folded = title.utf8.allSatisfy({ $0 < 0x80 }) ? title
            : title.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var slug = ""
        var length = 0
        var pendingHyphen = false
        for scalar in folded.unicodeScalars {
            let isAlphanumeric = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            if isAlphanumeric {
                if pendingHyphen && !slug.isEmpty { slug += "-"; length += 1 }
                slug.unicodeScalars.append(scalar)
                length += 1
                pendingHyphen = false
            } else if ("A"..."Z").contains(scalar) {
                if pendingHyphen && !slug.isEmpty { slug += "-"; length += 1 }
                slug.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
                length += 1
                pendingHyphen = false
            } else {
                pendingHyphen = true
            }
            if length >= 60 { break }
        }
        slug = String(slug.prefix(60))
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }

    /// A slug for a file name, never empty.
    public static func fileName(_ name: String) -> String {
        let slug = make(name)
        return slug.isEmpty ? "file-" + StableHash.hex(name).prefix(8) : slug
    }

    /// Gives every item a unique slug: from its title, or `item-<hash of id>` when the title has
    /// none; a repeated slug gets `-2`, `-3`, … in item order.
    public static func assign(to items: inout [Item]) {
        var taken: Set<String> = []
        // The next suffix to try per base: every lower one is already taken, and stays so. (Starting
        // from 2 each time made 500 items named alike cost 125,000 lookups.)
        var nextSuffix: [String: Int] = [:]
        let bases = items.concurrentMap { item in
            let base = make(item.title)
            return base.isEmpty ? "item-" + StableHash.hex(item.id).prefix(10) : base
        }
        for index in items.indices {
            let base = bases[index]
            var slug = base
            var counter = nextSuffix[base] ?? 2
            while taken.contains(slug) {
                slug = "\(base)-\(counter)"
                counter += 1
            }
            nextSuffix[base] = counter
            taken.insert(slug)
            items[index].slug = slug
        }
    }
}
