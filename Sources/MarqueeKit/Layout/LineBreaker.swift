/// Counts the lines a browser needs for a block of text at a width, breaking as CSS
/// `white-space: normal; overflow-wrap: anywhere` does: at spaces, after hyphens, around CJK
/// ideographs, at forced breaks, and inside a word only when the word alone overflows a line.
public struct LineBreaker: Sendable {
    /// Measures the glyphs.
    public let measurer: TextMeasurer

    /// Creates a line breaker that measures with `measurer`.
    public init(measurer: TextMeasurer) {
        self.measurer = measurer
    }

    /// The number of lines `runs` take at `width` pixels in the given font size.
    public func lineCount(_ runs: [TextRun], width: Double, size: Double, preformatted: Bool = false) -> Int {
        var state = State(maxWidth: max(width, 1))
        for run in runs {
            for scalar in run.text.unicodeScalars {
                if scalar == "\n" {
                    state.flushWord()
                    state.forceBreak()
                    continue
                }
                let advance = measurer.advance(of: scalar, bold: run.bold, size: size)
                let isSpace = scalar == " " || scalar == "\u{3000}"
                if isSpace {
                    if preformatted {
                        state.appendToWord(advance)
                        state.flushWord()
                    } else {
                        state.appendSpace(advance)
                    }
                    continue
                }
                let noBreakBefore = Self.isClosingPunctuation(scalar)
                if TextMeasurer.isWide(scalar) && !noBreakBefore {
                    // Ideographs are break opportunities on both sides.
                    state.flushWord()
                    state.appendToWord(advance)
                    state.breakAfterWord = true
                    continue
                }
                if state.pendingSpace > 0 || (state.breakAfterWord && !noBreakBefore) { state.flushWord() }
                state.appendToWord(advance)
                if scalar == "-" || scalar == "\u{2010}" || scalar == "\u{2013}" || scalar == "\u{2014}" {
                    state.flushWord()
                }
            }
        }
        state.flushWord()
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
        /// The word being collected: its glyph advances.
        var word: [Double] = []
        var wordWidth = 0.0
        /// Spaces collected after the word; they hang at a line end.
        var pendingSpace = 0.0
        static let epsilon = 0.005

        init(maxWidth: Double) { self.maxWidth = maxWidth }

        mutating func appendToWord(_ advance: Double) {
            word.append(advance)
            wordWidth += advance
        }

        mutating func appendSpace(_ advance: Double) {
            pendingSpace += advance
        }

        /// The word ends at an ideograph: the next character may start a new word.
        var breakAfterWord = false

        mutating func flushWord() {
            breakAfterWord = false
            if !word.isEmpty { place() }
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

        private mutating func place() {
            defer { word.removeAll(keepingCapacity: true); wordWidth = 0 }
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
            for advance in word {
                if !lineIsEmpty && lineWidth + advance > maxWidth + Self.epsilon { forceBreak() }
                lineWidth += advance
                lineIsEmpty = false
            }
        }
    }
}
