import Foundation

extension String {
    /// The string without whitespace at either end, and without line breaks there too unless
    /// `newlines` is false (Foundation's `whitespaces` and `whitespacesAndNewlines`).
    ///
    /// Foundation is only asked when an end may have one: trimming costs microseconds even when
    /// there is nothing to trim, and so does making one of its character sets (each use of
    /// `.whitespaces` makes a new one here), while the pipeline trims every item's title, author
    /// and source. Ends that are ASCII but not a space, tab or line break are in neither set.
    func trimmed(newlines: Bool = true) -> String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
        if Self.isPlainASCII(first) && Self.isPlainASCII(last) { return self }
        let set = newlines ? Self.whitespacesAndNewlines : Self.whitespaces
        guard set.contains(first) || set.contains(last) else { return self }
        return trimmingCharacters(in: set)
    }

    private static let whitespaces = CharacterSet.whitespaces
    private static let whitespacesAndNewlines = CharacterSet.whitespacesAndNewlines

    private static func isPlainASCII(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 && scalar.value != 0x20 && !(0x09...0x0D).contains(scalar.value)
    }
}
