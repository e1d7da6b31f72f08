/// Measures text in the theme's font, regular or bold.
package struct TextMeasurer: Sendable {
    /// The regular face of the theme's font.
    package let regular: FontMetrics
    /// The bold face of the theme's font.
    package let bold: FontMetrics
    /// The shipped fallback font and the code points it draws.
    package let fallback: FontMetrics?
    /// The code points the fallback font is used for (its CSS `unicode-range`).
    package let fallbackRanges: [ClosedRange<UInt32>]

    /// Creates a measurer from the theme's faces and its fallback font.
    package init(regular: FontMetrics, bold: FontMetrics, fallback: FontMetrics? = nil, fallbackRanges: [ClosedRange<UInt32>] = []) {
        self.regular = regular
        self.bold = bold
        self.fallback = fallback
        self.fallbackRanges = fallbackRanges
    }

    /// The advances of the 128 ASCII characters in one face at `size`, for a table read instead
    /// of a glyph lookup per character; -1 where either face has no glyph, so that an entry also
    /// means "covered".
    func asciiAdvances(bold isBold: Bool, size: Double) -> [Double] {
        (0..<128).map { code in
            let scalar = Unicode.Scalar(UInt8(code))
            guard regular.advance(of: scalar, size: size) != nil, bold.advance(of: scalar, size: size) != nil else { return -1 }
            return advance(of: scalar, bold: isBold, size: size)
        }
    }

    /// The advance of one scalar in pixels. Scalars the main font lacks are measured in the
    /// shipped fallback font when they are in its range; others are drawn by the reader's own
    /// fonts and estimated (1em when wide, such as emoji; 0.6em otherwise).
    @inline(__always)
    package func advance(of scalar: Unicode.Scalar, bold isBold: Bool, size: Double) -> Double {
        // Not `(isBold ? bold : regular).advance(…)`: that copies a FontMetrics (and retains its
        // arrays) for every character.
        if let advance = isBold ? bold.advance(of: scalar, size: size) : regular.advance(of: scalar, size: size) { return advance }
        if let fallback, fallbackRanges.contains(where: { $0.contains(scalar.value) }),
           let advance = fallback.advance(of: scalar, size: size) {
            return advance
        }
        if Self.isZeroWidth(scalar) { return 0 }
        return Self.isWide(scalar) ? size : size * 0.6
    }

    /// True when a shipped font draws `scalar` (so its width is known, not estimated).
    package func isCovered(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x20 || Self.isZeroWidth(scalar) || regular.advance(of: scalar, size: 1) != nil { return true }
        guard let fallback, fallbackRanges.contains(where: { $0.contains(scalar.value) }) else { return false }
        return fallback.advance(of: scalar, size: 1) != nil
    }

    /// The width of `text` on one line.
    package func width(of text: String, bold isBold: Bool, size: Double) -> Double {
        text.unicodeScalars.reduce(0) { $0 + advance(of: $1, bold: isBold, size: size) }
    }

    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B...0x200F, 0xFE00...0xFE0F, 0x0300...0x036F, 0x2060...0x2064, 0xFEFF, 0xE0100...0xE01EF: return true
        default: return false
        }
    }

    /// East Asian wide and fullwidth characters, and emoji.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
