/// A string the memo holds, left in the memo file's bytes and copied out each time ``text`` is
/// read.
///
/// A rebuild finds the HTML of every unchanged description in the memo (most of the file) but
/// makes again only the pages of what changed. The markup stage looks descriptions up as this
/// type, so that only the HTML those pages show becomes strings. Looked up as a `String`, the
/// same entry is copied at once.
struct MemoText: Sendable, Decodable, MemoScalar {
    /// The memo file's bytes, shared with every other entry read from them.
    private let bytes: [UInt8]
    /// Where the text's UTF-8 is in ``bytes``.
    private let range: Range<Int>

    /// The text.
    var text: String { String(decoding: bytes[range], as: UTF8.self) }

    static func read(from input: inout MemoInput) throws -> MemoText {
        try input.expect(.string)
        return MemoText(bytes: input.bytes, range: try input.textRange())
    }

    func write(to output: MemoOutput) {
        output.text(text, tag: .string)
    }

    private init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.range = range
    }

    /// A string from any other decoder, copied.
    init(from decoder: any Decoder) throws {
        let utf8 = Array(try decoder.singleValueContainer().decode(String.self).utf8)
        self.init(bytes: utf8, range: utf8.indices)
    }
}
