/// Counts the lines a browser needs for a block of text at a width, breaking as CSS
/// `white-space: normal; overflow-wrap: anywhere` does: at spaces, after hyphens, around CJK
/// ideographs, at forced breaks, and inside a word only when the word alone overflows a line.
///
/// Text is measured once (``measure(_:size:)``) and can then be broken at any number of widths
/// cheaply: the layout engine asks for three breakpoints per block.
public struct LineBreaker: Sendable {
    /// Measures the glyphs.
    public let measurer: TextMeasurer

    /// Creates a line breaker that measures with `measurer`.
    public init(measurer: TextMeasurer) {
        self.measurer = measurer
    }

    /// A block of text measured in one font size: each character's advance and how it may break.
    public struct MeasuredText: Sendable {
        fileprivate var advances: [Double] = []
        fileprivate var classes: [BreakClass] = []
        /// True when every character is drawn by a shipped font (its width is known, not estimated).
        public fileprivate(set) var isCovered = true
    }

    fileprivate enum BreakClass: UInt8 {
        case ordinary, forcedBreak, space, ideograph, closing, hyphen
    }

    /// Measures `runs` at `size` pixels.
    public func measure(_ runs: [TextRun], size: Double) -> MeasuredText {
        var text = MeasuredText()
        for run in runs {
            for scalar in run.text.unicodeScalars {
                let breakClass: BreakClass
                switch scalar {
                case "\n": breakClass = .forcedBreak
                case " ", "\u{3000}": breakClass = .space
                case "-", "\u{2010}", "\u{2013}", "\u{2014}": breakClass = .hyphen
                default:
                    if Self.isClosingPunctuation(scalar) {
                        breakClass = .closing
                    } else if TextMeasurer.isWide(scalar) {
                        breakClass = .ideograph
                    } else {
                        breakClass = .ordinary
                    }
                }
                text.classes.append(breakClass)
                if breakClass == .forcedBreak {
                    text.advances.append(0)
                    continue
                }
                text.advances.append(measurer.advance(of: scalar, bold: run.bold, size: size))
                if text.isCovered && !measurer.isCovered(scalar) { text.isCovered = false }
            }
        }
        return text
    }

    /// The number of lines `runs` take at `width` pixels in the given font size.
    public func lineCount(_ runs: [TextRun], width: Double, size: Double, preformatted: Bool = false) -> Int {
        lineCount(measure(runs, size: size), width: width, preformatted: preformatted)
    }

    /// The number of lines measured text takes at `width` pixels.
    public func lineCount(_ text: MeasuredText, width: Double, preformatted: Bool = false) -> Int {
        var state = State(maxWidth: max(width, 1))
        text.advances.withUnsafeBufferPointer { advances in
            for (index, breakClass) in text.classes.enumerated() {
                let advance = advances[index]
                switch breakClass {
                case .forcedBreak:
                    state.flushWord(advances)
                    state.forceBreak()
                case .space:
                    if preformatted {
                        state.appendToWord(index, advance)
                        state.flushWord(advances)
                    } else {
                        state.pendingSpace += advance
                    }
                case .ideograph:
                    // Ideographs are break opportunities on both sides.
                    state.flushWord(advances)
                    state.appendToWord(index, advance)
                    state.breakAfterWord = true
                case .ordinary, .closing, .hyphen:
                    let noBreakBefore = breakClass == .closing
                    if state.pendingSpace > 0 || (state.breakAfterWord && !noBreakBefore) { state.flushWord(advances) }
                    state.appendToWord(index, advance)
                    if breakClass == .hyphen { state.flushWord(advances) }
                }
            }
            state.flushWord(advances)
        }
        return state.lines
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

    private struct State {
        let maxWidth: Double
        var lines = 1
        /// Width of the current line, including spaces after the last placed word.
        var lineWidth = 0.0
        var lineIsEmpty = true
        /// The word being collected: a range of characters (a word's characters are consecutive).
        var wordStart = 0
        var wordEnd = 0
        var wordWidth = 0.0
        /// Spaces collected after the word; they hang at a line end.
        var pendingSpace = 0.0
        /// The word ends at an ideograph: the next character may start a new word.
        var breakAfterWord = false
        static let epsilon = 0.005

        init(maxWidth: Double) { self.maxWidth = maxWidth }

        mutating func appendToWord(_ index: Int, _ advance: Double) {
            if wordStart == wordEnd { wordStart = index }
            wordEnd = index + 1
            wordWidth += advance
        }

        mutating func flushWord(_ advances: UnsafeBufferPointer<Double>) {
            breakAfterWord = false
            if wordEnd > wordStart { place(advances) }
            if pendingSpace > 0 {
                if !lineIsEmpty { lineWidth += pendingSpace }
                pendingSpace = 0
            }
        }

        mutating func forceBreak() {
            lines += 1
            lineWidth = 0
            lineIsEmpty = true
        }

        private mutating func place(_ advances: UnsafeBufferPointer<Double>) {
            defer { wordStart = wordEnd; wordWidth = 0 }
            if lineWidth + wordWidth <= maxWidth + Self.epsilon {
                lineWidth += wordWidth
                lineIsEmpty = false
                return
            }
            if !lineIsEmpty {
                forceBreak()
                if wordWidth <= maxWidth + Self.epsilon {
                    lineWidth = wordWidth
                    lineIsEmpty = false
                    return
                }
            }
            // The word alone is wider than a line: break it anywhere.
            for index in wordStart..<wordEnd {
                let advance = advances[index]
                if !lineIsEmpty && lineWidth + advance > maxWidth + Self.epsilon { forceBreak() }
                lineWidth += advance
                lineIsEmpty = false
            }
        }
    }
}
