/// The part of the stylesheet generated from ``ThemeMetrics``, so that CSS and the layout
/// engine always agree: custom properties, the font faces and one media query per breakpoint.
package enum ThemeStylesheet {
    /// The generated CSS; font paths are relative to the stylesheet.
    package static func css(for m: ThemeMetrics, regularFont: String, boldFont: String, fallbackFont: String) -> String {
        func px(_ value: Double) -> String {
            value == value.rounded() ? "\(Int(value))px" : "\(value)px"
        }
        // `U+0530-058F`: upper-case hex of at least four digits. (Not `String(format:)`, whose
        // arguments the runtime casts to `CVarArg` with lookups through every protocol
        // conformance of this large binary, on every build.)
        func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        let ranges = m.fallbackRanges.map { "U+" + hex($0.lowerBound) + "-" + hex($0.upperBound) }.joined(separator: ", ")
        var css = """
            /* Generated from the theme metrics; the layout engine predicts with the same numbers. */
            @font-face { font-family: "\(m.fontFamily)"; src: url("\(regularFont)") format("truetype"); font-weight: 400; font-style: normal; font-display: block; }
            @font-face { font-family: "\(m.fontFamily)"; src: url("\(boldFont)") format("truetype"); font-weight: 700; font-style: normal; font-display: block; }
            @font-face { font-family: "\(m.fontFamily) Fallback"; src: url("\(fallbackFont)") format("truetype"); font-display: block; unicode-range: \(ranges); }
            :root {
              --font: "\(m.fontFamily)", "\(m.fontFamily) Fallback", sans-serif;
              --title-size: \(px(m.titleFontSize)); --title-line: \(px(m.titleLineHeight));
              --body-size: \(px(m.bodyFontSize)); --body-line: \(px(m.bodyLineHeight));
              --title-gap: \(px(m.titleGap)); --page-margin: \(px(m.pageMargin));
              --cell-padding: \(px(m.cellPadding)); --cell-gap: \(px(m.cellGap));
              --image-box: \(px(m.imageBox)); --image-gap: \(px(m.imageGap)); --detail-width: \(px(m.detailWidth));
              --list-indent: \(px(m.listIndent)); --paragraph-gap: \(px(m.paragraphGap));
              --toggle-row: \(px(m.toggleRowHeight));
            }

            """
        // A cell states its line count and height only where they differ from the breakpoint
        // before (``CellAttributes``), so each breakpoint falls back through the ones below.
        var lines = "3", height = "120px"
        let bounds = m.breakpoints.map(\.minViewportWidth)
        for (index, breakpoint) in m.breakpoints.enumerated() {
            let name = breakpoint.name
            lines = "var(--lines-\(name), \(lines))"
            height = "var(--h-\(name), \(height))"
            // The page's heading, navigation and filter box line up with the gallery.
            let container = breakpoint.containerWidth.map {
                "width: \(px($0)); max-width: calc(100% - 2 * var(--page-margin)); margin-left: auto; margin-right: auto;"
            } ?? "width: auto; margin-left: var(--page-margin); margin-right: var(--page-margin);"
            // Each breakpoint's rules hold only up to the next one, so that a toggle shown where
            // the text is cut at one width is not left showing at the next.
            let range = [
                index > 0 ? "(min-width: \(px(bounds[index])))" : nil,
                index + 1 < bounds.count ? "(width < \(px(bounds[index + 1])))" : nil,
            ].compactMap { $0 }
            css += """
                @media \(range.isEmpty ? "all" : range.joined(separator: " and ")) {
                .gallery, .page-title, .page-intro, .page-nav, .filter { \(container) }
                .gallery { grid-template-columns: repeat(\(breakpoint.columns), minmax(0, 1fr)); }
                .cell { --lines: \(lines); contain-intrinsic-size: auto \(height); }
                .cell.trunc-\(name) .toggle { display: inline-block; }
                }

                """
        }
        // The script's measurement wins over the prediction.
        css += """
            .cell .toggle { display: none; }
            .cell[data-truncated="true"] .toggle, .cell.is-expanded .toggle { display: inline-block; }
            .cell[data-truncated="false"]:not(.is-expanded) .toggle { display: none; }

            """
        return css
    }
}
