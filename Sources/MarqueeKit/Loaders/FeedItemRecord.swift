import Foundation

/// A feed item as memo text, so that a rebuild takes an item whose bytes (and the feed around
/// them) the last build read from the memo instead of parsing and making it again.
///
/// The text is the fields in order, strings as `<UTF-8 length>:<bytes>`, a missing value as
/// `-`; it starts with `f2 ` (the format) and the body's digest (``Item/bodyDigest``, in hex), so
/// that a rebuild does not hash every remembered description again.
enum FeedItemRecord {
    /// The record of `item`; nil when it holds what a record cannot give back exactly (a base
    /// URL relative to another, metadata, a rendering).
    static func text(of item: Item) -> String? {
        var text = "f2 "
        func add(_ string: String) { text += "\(string.utf8.count):" + string }
        func add(_ string: String?) { if let string { add(string) } else { text += "-" } }
        func add(_ url: URL?) -> Bool {
            guard let url else { text += "-"; return true }
            guard url.baseURL == nil, URL(string: url.relativeString) == url else { return false }
            add(url.relativeString)
            return true
        }
        guard item.metadata.isEmpty, item.badges.isEmpty, item.cell == nil, item.slug.isEmpty, item.markdownRendering == nil else { return nil }
        add(String(item.bodyDigest, radix: 16))
        add(item.id)
        add(item.source)
        add(item.title)
        add(item.link)
        add(item.intro)
        switch item.body {
        case .text(let body):
            text += "t"
            add(body)
        case .html(let body, let base):
            text += "h"
            add(body)
            guard add(base) else { return nil }
        case .markdown(let body, let base):
            text += "m"
            add(body)
            guard add(base) else { return nil }
        }
        text += "\(item.images.count):"
        for image in item.images {
            add(image.url)
            add(image.width.map(String.init))
            add(image.height.map(String.init))
            text += image.isThumbnail ? "T" : "F"
        }
        add(item.author)
        add(item.date.map { String($0.timeIntervalSinceReferenceDate.bitPattern, radix: 16) })
        text += "\(item.tags.count):"
        for tag in item.tags { add(tag) }
        return text
    }

    /// The item the last build remembered in `memo` under `key`, if any, read from the memo's
    /// bytes in place, with the origin of an item made of its key's bytes
    /// (``FeedItems/origin(ofKey:)``). Set here, while nothing else holds the item: set later, on
    /// a copy, it would copy every field.
    ///
    /// Its body stays in the memo until a stage reads it: the built-in stages take an unchanged
    /// item's HTML from the memo by the record's body digest, and decoding every description (and
    /// parsing its base URL) was most of the time spent reading records.
    static func remembered(in memo: BuildMemo?, key: UInt64) -> Item? {
        guard let record = memo?.rememberedText(for: key) else { return nil }
        var item = record.withUTF8 { Self.item(utf8: $0, in: record) }
        item?.setOrigin(FeedItems.origin(ofKey: key))
        return item
    }

    /// The item of a record made by ``text(of:)``; nil for any other text.
    static func item(_ record: String) -> Item? {
        var record = record
        return record.withUTF8 { item(utf8: $0, in: nil) }
    }

    /// ``item(_:)`` of a record's UTF-8: with its body left in `memoText` when the UTF-8 is that
    /// memo text's, decoded otherwise.
    private static func item(utf8 record: UnsafeBufferPointer<UInt8>, in memoText: MemoText?) -> Item? {
        var reader = Reader(utf8: record)
        guard reader.skip("f2 "), let digestText = reader.string(), let bodyDigest = UInt64(digestText, radix: 16),
              let id = reader.string(), let source = reader.string(), let title = reader.string(),
              let link = reader.optionalString(), let intro = reader.string(), let kind = reader.byte(), let bodyRange = reader.range()
        else { return nil }
        let form: Item.BodyForm
        switch kind {
        case UInt8(ascii: "t"): form = .text
        case UInt8(ascii: "h"): form = .html
        case UInt8(ascii: "m"): form = .markdown
        default: return nil
        }
        var baseRange: Range<Int>?
        if form != .text {
            guard let base = reader.optionalRange() else { return nil }
            baseRange = base
        }
        let body: Item.StoredBody
        if let memoText {
            // The base is parsed when the body is read: a record's base always parses back, since
            // `text(of:)` records none that does not.
            body = .remembered(memoText.part(bodyRange), form: form, base: baseRange.map(memoText.part))
        } else {
            let base = baseRange.map { reader.string(at: $0) }
            let url = base.flatMap(URL.init(string:))
            guard (base == nil) == (url == nil) else { return nil }
            body = .given(Item.markup(form, reader.string(at: bodyRange), base: url))
        }
        guard let imageCount = reader.count() else { return nil }
        var images: [ImageCandidate] = []
        for _ in 0..<imageCount {
            guard let url = reader.string(), let width = reader.optionalString(), let height = reader.optionalString(), let flag = reader.byte(),
                  flag == UInt8(ascii: "T") || flag == UInt8(ascii: "F")
            else { return nil }
            images.append(ImageCandidate(url: url, width: width.flatMap { Int($0) }, height: height.flatMap { Int($0) }, isThumbnail: flag == UInt8(ascii: "T")))
        }
        guard let author = reader.optionalString(), let dateBits = reader.optionalString(), let tagCount = reader.count() else { return nil }
        var date: Date?
        if let dateBits {
            guard let bits = UInt64(dateBits, radix: 16) else { return nil }
            date = Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits))
        }
        var tags: [String] = []
        for _ in 0..<tagCount {
            guard let tag = reader.string() else { return nil }
            tags.append(tag)
        }
        guard reader.isAtEnd else { return nil }
        return Item(
            id: id, source: source, title: title, link: link, intro: intro, storedBody: body, bodyDigest: bodyDigest, images: images,
            author: author, date: date, tags: tags)
    }

    /// Reads a record's fields from its bytes.
    private struct Reader {
        let utf8: UnsafeBufferPointer<UInt8>
        var position = 0

        var isAtEnd: Bool { position == utf8.count }

        mutating func skip(_ prefix: StaticString) -> Bool {
            let bytes = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            guard utf8[position...].starts(with: bytes) else { return false }
            position += bytes.count
            return true
        }

        mutating func byte() -> UInt8? {
            guard position < utf8.count else { return nil }
            defer { position += 1 }
            return utf8[position]
        }

        /// `<decimal>:`, at most a million.
        mutating func count() -> Int? {
            var value = 0, digits = 0
            while position < utf8.count, utf8[position] >= UInt8(ascii: "0"), utf8[position] <= UInt8(ascii: "9"), digits < 10 {
                value = value * 10 + Int(utf8[position] - UInt8(ascii: "0"))
                position += 1
                digits += 1
            }
            guard digits > 0, value <= 1 << 30, position < utf8.count, utf8[position] == UInt8(ascii: ":") else { return nil }
            position += 1
            return value
        }

        mutating func string() -> String? {
            range().map { string(at: $0) }
        }

        /// Where the next string's UTF-8 is, skipped without decoding it.
        mutating func range() -> Range<Int>? {
            guard let length = count(), length <= utf8.count - position else { return nil }
            defer { position += length }
            return position..<position + length
        }

        /// The string at `range` of the record.
        func string(at range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: utf8[range]), as: UTF8.self)
        }

        /// A string, or `-` for none (`.some(nil)`); nil when neither is there.
        mutating func optionalString() -> String?? {
            optionalRange().map { $0.map { string(at: $0) } }
        }

        /// ``range()`` of a string, or `-` for none (`.some(nil)`); nil when neither is there.
        mutating func optionalRange() -> Range<Int>?? {
            if position < utf8.count, utf8[position] == UInt8(ascii: "-") {
                position += 1
                return .some(nil)
            }
            guard let range = range() else { return nil }
            return .some(range)
        }
    }
}
