/// Counts the lines a browser needs for a block of text at a width, breaking as CSS
/// `white-space: normal; overflow-wrap: anywhere` does in Chromium: at spaces, after hyphens and
/// question marks, before an opening bracket that follows punctuation, around CJK ideographs, at
/// forced breaks, and inside a word only when the word alone overflows a line.
///
/// Text is measured once (``measure(_:size:preformatted:)``) and can then be broken at any number
/// of widths cheaply: the layout engine breaks each block at every breakpoint's width in one pass
/// (``addLineCounts(_:widths:indent:to:)``).
package struct LineBreaker: Sendable {
    /// Measures the glyphs.
    package let measurer: TextMeasurer

    /// ASCII advances in pixels at the font sizes given at creation, per face.
    private let asciiTables: [(size: Double, regular: [Double], bold: [Double])]

    /// Creates a line breaker that measures with `measurer`; text in one of `commonSizes` is
    /// measured faster.
    package init(measurer: TextMeasurer, commonSizes: [Double] = []) {
        self.measurer = measurer
        self.asciiTables = commonSizes.map { size in
            (size, measurer.asciiAdvances(bold: false, size: size), measurer.asciiAdvances(bold: true, size: size))
        }
    }

    /// A block of text measured in one font size, reduced to what line breaking at any width
    /// needs: the words (with their characters' advances, for words wider than a line) with the
    /// space after each, and the forced breaks.
    package struct MeasuredText: Sendable {
        fileprivate var advances: [Double] = []
        fileprivate var pieces: [Piece] = []
        /// True when every character is drawn by a shipped font (its width is known, not estimated).
        package fileprivate(set) var isCovered = true
    }

    /// Where a line may or must break is decided by the characters alone; only where a word
    /// lands depends on the width. So the text is cut into pieces once, and each width only
    /// places the pieces.
    ///
    /// A piece is a word to place on a line, with the collapsible space after it (which hangs at
    /// a line end), or a forced break. Space that follows no word on its line (at the start, or
    /// after a forced break) takes no room, so it is no piece.
    fileprivate struct Piece: Sendable {
        /// The word's characters in `advances`; `start` is -1 for a forced break.
        var start: Int
        var end: Int
        /// The word's width.
        var width: Double
        var spaceAfter: Double

        static let forcedBreak = Piece(start: -1, end: -1, width: 0, spaceAfter: 0)
        var isForcedBreak: Bool { start < 0 }
    }

    fileprivate enum BreakClass: UInt8 {
        case ordinary, forcedBreak, space, ideograph, closing, hyphen
    }

    /// Measures `runs` at `size` pixels. In `preformatted` text, spaces are kept as part of the line.
    package func measure(_ runs: [TextRun], size: Double, preformatted: Bool = false) -> MeasuredText {
        var text = MeasuredText()
        // A character takes at least a byte: the advances fit in an array of the byte count, cut
        // to the characters' count at the end. Words take a few bytes each.
        let byteCount = runs.reduce(0) { $0 + $1.text.utf8.count }
        var advanceList = [Double](repeating: 0, count: byteCount)
        text.pieces.reserveCapacity(byteCount / 3 + 4)
        var count = 0
        var cutter = Cutter()
        let tables = asciiTables.first(where: { $0.size == size })
        var advances = advanceList.mutableSpan
        let asciiClasses = Self.asciiBreakClasses.span
        for run in runs {
            let asciiTable = (run.bold ? tables?.bold : tables?.regular) ?? []
            let ascii = asciiTable.span
            // Read as UTF-8 bytes with table lookups for ASCII: iterating `unicodeScalars` cost
            // more than the rest of measuring.
            let bytes = run.text.utf8.span
            var offset = 0
            while offset < bytes.count {
                let scalar = Self.scalar(in: bytes, at: &offset)
                let breakClass: BreakClass
                let advance: Double
                if scalar.value < ascii.count, ascii[Int(scalar.value)] >= 0 {
                    breakClass = asciiClasses[Int(scalar.value)]
                    advance = breakClass == .forcedBreak ? 0 : ascii[Int(scalar.value)]
                } else {
                    breakClass = Self.breakClass(of: scalar)
                    advance = breakClass == .forcedBreak ? 0 : measurer.advance(of: scalar, bold: run.bold, size: size)
                    if breakClass != .forcedBreak, text.isCovered, !measurer.isCovered(scalar) { text.isCovered = false }
                }
                cutter.add(breakClass, advance, at: count, ascii: scalar.isASCII ? UInt8(scalar.value) : 0, preformatted: preformatted, into: &text.pieces)
                advances[count] = advance
                count += 1
                // Inside a word, the ordinary ASCII characters that follow (letters, digits, most
                // symbols) extend it and spaces end it: add them in a tight loop (most characters
                // of most texts take this path).
                guard cutter.isExtensible(endingAt: count) else { continue }
                cutter.addPlainASCII(
                    bytes, from: &offset, ascii: ascii, classes: asciiClasses, spaces: !preformatted,
                    advances: &advances, count: &count, into: &text.pieces)
            }
        }
        advanceList.removeLast(byteCount - count)
        text.advances = advanceList
        cutter.flushWord(into: &text.pieces)
        return text
    }

    /// The scalar whose UTF-8 encoding starts at `offset` (Swift strings hold valid UTF-8), and
    /// `offset` moved past it.
    @inline(__always)
    private static func scalar(in bytes: Span<UInt8>, at offset: inout Int) -> Unicode.Scalar {
        let lead = bytes[offset]
        if lead < 0x80 {
            offset += 1
            return Unicode.Scalar(lead)
        }
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        var value = UInt32(lead) & (0x7F >> length)
        for index in offset + 1..<offset + length { value = value << 6 | UInt32(bytes[index] & 0x3F) }
        offset += length
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    private static let asciiBreakClasses: [BreakClass] = (0..<128).map { breakClass(of: Unicode.Scalar(UInt8($0))) }

    /// Whether Chromium may break between two ASCII characters with no space between them,
    /// indexed by `before << 7 | after`. Chromium decides these pairs with a table of its own,
    /// not by the Unicode line-breaking classes (which forbid `>(` and allow `-$`); the rules
    /// below were read off Chromium by laying out every pair in a zero-width box.
    private static let asciiPairBreaks: [Bool] = (0..<(128 * 128)).map { index in
        let before = Unicode.Scalar(UInt8(index >> 7)), after = Character(Unicode.Scalar(UInt8(index & 127)))
        switch before {
        case "-": return !#"!$),./:;?]}"#.contains(after)
        case "?": return !#"!"'),./:;?]}"#.contains(after)
        case "!", "\"", "#", "%", "&", ")", "*", "+", ",", ".", ":", ";", "=", ">", "\\", "]", "|", "}", "~":
            return "(<[{".contains(after)
        default: return false
        }
    }

    @inline(__always)
    private static func breakClass(of scalar: Unicode.Scalar) -> BreakClass {
        switch scalar {
        case "\n": return .forcedBreak
        case " ", "\u{3000}": return .space
        case "-", "\u{2010}", "\u{2013}", "\u{2014}": return .hyphen
        default:
            if isClosingPunctuation(scalar) { return .closing }
            return TextMeasurer.isWide(scalar) ? .ideograph : .ordinary
        }
    }

    /// The number of lines `runs` take at `width` pixels in the given font size.
    package func lineCount(_ runs: [TextRun], width: Double, size: Double, preformatted: Bool = false) -> Int {
        lineCount(measure(runs, size: size, preformatted: preformatted), width: width)
    }

    /// The number of lines measured text takes at `width` pixels.
    package func lineCount(_ text: MeasuredText, width: Double) -> Int {
        var count = [0]
        addLineCounts(text, widths: [width], indent: 0, to: &count)
        return count[0]
    }

    /// Adds the number of lines measured text takes at each of `widths` less `indent` to
    /// `counts`, placing each word at every width in one pass over the words.
    package func addLineCounts(_ text: MeasuredText, widths: [Double], indent: Double, to counts: inout [Int]) {
        var lines = widths.map { Line(maxWidth: max($0 - indent, 1)) }
        let advances = text.advances.span
        // Through a span: changing the array's elements in place would check, for every word at
        // every width, that nothing else shares the array.
        var placing = lines.mutableSpan
        for piece in text.pieces {
            if piece.isForcedBreak {
                for index in placing.indices { placing[index].forceBreak() }
                continue
            }
            for index in placing.indices {
                placing[index].place(piece.start..<piece.end, width: piece.width, advances)
                placing[index].width += piece.spaceAfter
            }
        }
        for (index, line) in zip(counts.indices, lines) { counts[index] += line.count }
    }

    /// Characters a line may not start with (UAX #14 classes CL, CP, EX, IS and some NS): the
    /// browser keeps them on the line of the character before.
    @inline(__always)
    static func isClosingPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2E, 0x2C, 0x3B, 0x3A, 0x21, 0x3F, 0x29, 0x5D, 0x7D, 0x2019, 0x201D, 0x2026, 0x3001, 0x3002, 0x300D, 0x300F,
             0x3011, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF01, 0xFF1F, 0x30FC, 0x3063, 0x30C3:
            return true
        default:
            return false
        }
    }

    /// Collects characters into words, as the browser decides where it may break.
    private struct Cutter {
        /// The word being collected: a range of characters (a word's characters are consecutive).
        var wordStart = 0
        var wordEnd = 0
        var wordWidth = 0.0
        /// Spaces collected after the word; they hang at a line end.
        var pendingSpace = 0.0
        /// The word ends at an ideograph or a hyphen: the next character may start a new word
        /// (unless it is closing punctuation).
        var breakAfterWord = false
        /// The character before, when it is ASCII and not a space (else 0): between two ASCII
        /// characters, ``asciiPairBreaks`` decides.
        var previousASCII: UInt8 = 0

        /// Takes the character at `index` of the text, of class `breakClass`; `ascii` is the
        /// character when it is ASCII, else 0.
        @inline(__always)
        mutating func add(_ breakClass: BreakClass, _ advance: Double, at index: Int, ascii: UInt8, preformatted: Bool, into pieces: inout [Piece]) {
            defer { previousASCII = breakClass == .space || breakClass == .forcedBreak ? 0 : ascii }
            switch breakClass {
            case .forcedBreak:
                flushWord(into: &pieces)
                pieces.append(.forcedBreak)
            case .space:
                if preformatted {
                    appendToWord(index, advance)
                    flushWord(into: &pieces)
                } else {
                    pendingSpace += advance
                }
            case .ideograph:
                // Ideographs are break opportunities on both sides.
                flushWord(into: &pieces)
                appendToWord(index, advance)
                breakAfterWord = true
            case .ordinary, .closing, .hyphen:
                let breaksBefore = if pendingSpace > 0 {
                    true
                } else if ascii != 0 && previousASCII != 0 {
                    LineBreaker.asciiPairBreaks[Int(previousASCII) << 7 | Int(ascii)]
                } else {
                    breakAfterWord && breakClass != .closing
                }
                if breaksBefore { flushWord(into: &pieces) }
                appendToWord(index, advance)
                if breakClass == .hyphen || ascii == UInt8(ascii: "?") { breakAfterWord = true }
            }
        }

        /// True when the word being collected ends at `index` with nothing pending after it:
        /// an ordinary character at `index` would then only be appended to it.
        @inline(__always)
        func isExtensible(endingAt index: Int) -> Bool {
            wordEnd == index && wordEnd > wordStart && pendingSpace == 0 && !breakAfterWord
        }

        /// Takes the ordinary ASCII characters and closing punctuation (and, unless `spaces` is
        /// false, the spaces) from `offset` on, as ``add(_:_:at:preformatted:into:)`` would, for
        /// as long as the text has nothing else: the loop most characters go through, with the
        /// cutter's state in registers and the classes in tables. Call it while the word being
        /// collected is extensible.
        @inline(__always)
        mutating func addPlainASCII(
            _ bytes: Span<UInt8>, from offset: inout Int, ascii: Span<Double>,
            classes: Span<BreakClass>, spaces: Bool, advances: inout MutableSpan<Double>,
            count: inout Int, into pieces: inout [Piece]
        ) {
            var (start, end, width, space, previous) = (wordStart, wordEnd, wordWidth, pendingSpace, Int(previousASCII))
            defer { (wordStart, wordEnd, wordWidth, pendingSpace, previousASCII) = (start, end, width, space, UInt8(previous)) }
            let pairBreaks = LineBreaker.asciiPairBreaks.span
            while offset < bytes.count {
                let byte = Int(bytes[offset])
                // A question mark lets a break follow it before any character (`add` keeps that
                // in `breakAfterWord`), so it leaves this loop.
                guard byte < ascii.count, byte != Int(UInt8(ascii: "?")) else { return }
                let advance = ascii[byte]
                guard advance >= 0 else { return }
                switch classes[byte] {
                case .ordinary, .closing:  // as in `add`
                    if space > 0 || (previous != 0 && pairBreaks[previous << 7 | byte]) {
                        pieces.append(Piece(start: start, end: end, width: width, spaceAfter: space))
                        (start, width, space) = (count, 0, 0)
                    }
                    width += advance
                    end = count + 1
                    previous = byte
                case .space where spaces:
                    space += advance
                    previous = 0
                default:
                    return
                }
                advances[count] = advance
                count += 1
                offset += 1
            }
        }

        mutating func appendToWord(_ index: Int, _ advance: Double) {
            if wordStart == wordEnd { wordStart = index }
            wordEnd = index + 1
            wordWidth += advance
        }

        mutating func flushWord(into pieces: inout [Piece]) {
            breakAfterWord = false
            if wordEnd > wordStart {
                pieces.append(Piece(start: wordStart, end: wordEnd, width: wordWidth, spaceAfter: pendingSpace))
            } else if pendingSpace > 0, let last = pieces.indices.last, !pieces[last].isForcedBreak {
                // Space after a word already cut off (after a hyphen).
                pieces[last].spaceAfter += pendingSpace
            }
            wordStart = wordEnd
            wordWidth = 0
            pendingSpace = 0
        }
    }

    /// Places words on lines of one width.
    private struct Line {
        let maxWidth: Double
        var count = 1
        /// Width of the current line, including spaces after the last placed word.
        var width = 0.0
        var isEmpty = true
        static let epsilon = 0.005

        init(maxWidth: Double) { self.maxWidth = maxWidth }

        mutating func forceBreak() {
            count += 1
            width = 0
            isEmpty = true
        }

        mutating func place(_ characters: Range<Int>, width wordWidth: Double, _ advances: Span<Double>) {
            if width + wordWidth <= maxWidth + Self.epsilon {
                width += wordWidth
                isEmpty = false
                return
            }
            if !isEmpty {
                forceBreak()
                if wordWidth <= maxWidth + Self.epsilon {
                    width = wordWidth
                    isEmpty = false
                    return
                }
            }
            // The word alone is wider than a line: break it anywhere.
            for index in characters {
                let advance = advances[index]
                if !isEmpty && width + advance > maxWidth + Self.epsilon { forceBreak() }
                width += advance
                isEmpty = false
            }
        }
    }
}
