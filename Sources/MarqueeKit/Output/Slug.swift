import Foundation

/// URL-safe names for detail pages and copied files.
package enum Slug {
    /// A slug made from `title`: lowercase ASCII letters, digits and single hyphens, at most 60
    /// characters. Empty when the title has nothing usable (emoji only, punctuation only).
    package static func make(_ title: String) -> String {
        // ASCII (most titles) needs no folding, and folding is slow.
        if title.utf8.allSatisfy({ $0 < 0x80 }) { return make(fromUTF8: title.utf8) }
        let folded = title.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        return make(fromUTF8: folded.utf8)
    }

    /// The slug of some UTF-8: only ASCII letters and digits are kept, so the bytes can be read
    /// instead of the scalars (every byte of a non-ASCII scalar is 0x80 or more, a separator like
    /// any other).
    private static func make(fromUTF8 utf8: String.UTF8View) -> String {
        var slug: [UInt8] = []
        slug.reserveCapacity(maximumLength)
        var pendingHyphen = false
        for byte in utf8 {
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
        slug = Array(slug.prefix(maximumLength))
        while slug.last == UInt8(ascii: "-") { slug.removeLast() }
        return String(decoding: slug, as: UTF8.self)
    }

    /// The longest slug, in characters.
    static let maximumLength = 60

    /// A slug for a file name, never empty.
    package static func fileName(_ name: String) -> String {
        let slug = make(name)
        return slug.isEmpty ? "file-" + StableHash.hex(name).prefix(8) : slug
    }

    /// The slug an item asks for, before repeats are numbered (see ``base(for:)``).
    package struct Base: Sendable {
        /// The slug itself.
        package let slug: String
    }

    /// The slug `item` asks for: made from its title, or `item-<hash of id>` when the title has none.
    package static func base(for item: Item) -> Base {
        let made = make(item.title)
        let slug = made.isEmpty ? "item-" + StableHash.hex(item.id).prefix(10) : made
        return Base(slug: slug)
    }

    /// Gives every item a unique slug: from its title, or `item-<hash of id>` when the title has
    /// none; a repeated slug gets `-2`, `-3`, … in item order.
    package static func assign(to items: inout [Item]) {
        assign(to: &items, bases: items.concurrentMap(base(for:)))
    }

    /// `base-counter`.
    static func suffixed(_ base: String, _ counter: Int) -> String {
        base + "-" + String(counter)
    }

    /// Gives every item a unique slug from its ``base(for:)`` (`bases` in the items' order, each
    /// made from its item as it is: an item's slug is then its base, or its base and a suffix).
    static func assign(to items: inout [Item], bases: [Base]) {
        precondition(bases.count == items.count, "one slug base per item")
        apply(suffixes(for: bases), to: &items, bases: bases)
    }

    /// ``assign(to:bases:)``, with the suffixes remembered in `memo` under the bases in order: a
    /// rebuild whose items ask for the same slugs in the same order (an edit that leaves every
    /// title alone) sets them without working the repeats out again, which runs on one core
    /// (7,000 of the benchmark's 10,000 titles repeat).
    static func assign(to items: inout [Item], bases: [Base], memo: BuildMemo) {
        precondition(bases.count == items.count, "one slug base per item")
        let key = suffixMemoKey(bases)
        if let known = memo.value([Int].self, for: key), known.count == bases.count {
            apply(known, to: &items, bases: bases)
            return
        }
        let suffixes = suffixes(for: bases)
        memo.store(suffixes, for: key)
        apply(suffixes, to: &items, bases: bases)
    }

    /// The memo key of the suffixes of `bases`: the bases in order.
    static func suffixMemoKey(_ bases: [Base]) -> UInt64 {
        var key = StableHasher("slug-suffixes-1")
        key.combine(bases.count)
        for base in bases { key.combine(base.slug) }
        return key.value
    }

    /// The suffix each base needs to be unique, in order (0 for none): a repeated base gets
    /// `-2`, `-3`, … or the next number that no other slug has taken.
    private static func suffixes(for bases: [Base]) -> [Int] {
        var taken = Set<String>(minimumCapacity: bases.count)
        // The next suffix to try per repeated base: every lower one is already taken, and stays
        // so (starting from 2 each time would make n items named alike cost n² lookups).
        var nextSuffix: [String: Int] = [:]
        return bases.map { base in
            if taken.insert(base.slug).inserted { return 0 }
            var counter = Swift.max(nextSuffix[base.slug] ?? 0, 2)
            while !taken.insert(suffixed(base.slug, counter)).inserted { counter += 1 }
            nextSuffix[base.slug] = counter + 1
            return counter
        }
    }

    /// Sets each item's slug, its base and its suffix, on every core.
    private static func apply(_ suffixes: [Int], to items: inout [Item], bases: [Base]) {
        items.concurrentUpdate { index, item in
            let suffix = suffixes[index]
            // The slug is the item's base and the suffix: all that the item's origin lacks.
            let origin = item.originDigest
            item.slug = suffix == 0 ? bases[index].slug : suffixed(bases[index].slug, suffix)
            item.carryOrigin(origin, through: UInt64(suffix))
        }
    }
}
