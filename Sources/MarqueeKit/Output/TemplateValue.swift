/// A value as page templates see it: plain data, built by ``PageContext`` and rendered by
/// ``PageTemplates``. Typed, so that rendering needs no dynamic casts.
package enum TemplateValue: Sendable {
    /// Text; `{{name}}` escapes it, `{{{name}}}` writes it as is.
    case text(String)
    /// Text held as UTF-8 bytes, such as a page body rendered for the layout: the same as
    /// ``text(_:)`` to templates, without making a `String` of it.
    case utf8([UInt8])
    /// A flag for sections: `{{#isImage}}…{{/isImage}}`; renders as `true` or `false`.
    case flag(Bool)
    /// A number; renders in decimal.
    case number(Int)
    /// A list; a section renders once per element.
    case list([TemplateValue])
    /// Named values; `{{name}}` and `{{a.b}}` look into it.
    case object(TemplateObject)
}

/// Named template values.
package typealias TemplateObject = [TemplateKey: TemplateValue]

/// The name of a template value, hashed once when it is made: a page's values are looked up by
/// name tens of times per item, and hashing a `String` for every lookup would repeat the same
/// work each time.
package struct TemplateKey: Hashable, Sendable, ExpressibleByStringLiteral {
    let name: String
    private let hash: Int

    init(_ name: String) {
        self.name = name
        // Eight bytes per step, one multiply each, rather than a byte per multiply as FNV-1a
        // goes: pages make their keys from literals, tens per item.
        var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(name.utf8.count)
        var name = name
        name.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                var word: UInt64 = 0
                for index in offset..<min(offset + 8, bytes.count) { word |= UInt64(bytes[index]) << (8 * (index - offset)) }
                hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
                hash ^= hash >> 31
                offset += 8
            }
        }
        self.hash = Int(truncatingIfNeeded: hash)
    }

    package init(stringLiteral name: String) {
        self.init(name)
    }

    package static func == (lhs: TemplateKey, rhs: TemplateKey) -> Bool {
        lhs.hash == rhs.hash && lhs.name == rhs.name
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }

    /// What `Dictionary` asks for: the hash made once, mixed with the dictionary's seed, instead
    /// of running `Hasher` on every lookup. Names come from the theme and from Marquee, never
    /// from feeds, so a weaker hash invites no flooding.
    package func _rawHashValue(seed: Int) -> Int {
        hash ^ seed
    }
}

extension Sequence<String> {
    /// The strings as a template list of text.
    var templateList: TemplateValue { .list(map(TemplateValue.text)) }
}
