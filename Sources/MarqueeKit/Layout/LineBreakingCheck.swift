/// The property the `layout` fuzz target (marquee-fuzz) checks and a unit test samples: text in
/// the layout engine's sizes, measured from ASCII tables with the fast loop for the letters of a
/// word, breaks exactly as the same text measured character by character.
package enum LineBreakingCheck {
    /// The widths compared, from narrower than any character to wider than a cell.
    static let widths: [Double] = [0.5, 20, 57.5, 120, 300, 700]

    /// The first width at which `engine`'s line breaker and a character-by-character one count
    /// different lines for `runs`, with both counts; nil when they agree at every width.
    package static func difference(
        in runs: [TextRun], size: Double, preformatted: Bool, engine: LayoutEngine
    ) -> (width: Double, tables: Int, characterByCharacter: Int)? {
        let tables = engine.lineBreaker
        let characterByCharacter = LineBreaker(measurer: tables.measurer)
        let measured = (
            tables.measure(runs, size: size, preformatted: preformatted),
            characterByCharacter.measure(runs, size: size, preformatted: preformatted))
        for width in widths {
            let lines = (tables.lineCount(measured.0, width: width), characterByCharacter.lineCount(measured.1, width: width))
            if lines.0 != lines.1 { return (width, lines.0, lines.1) }
        }
        return nil
    }
}
