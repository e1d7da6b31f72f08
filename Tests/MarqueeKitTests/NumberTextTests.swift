import Foundation
import Testing
@testable import MarqueeKit

@Suite("Numbers in reports and stylesheets")
struct NumberTextTests {
    /// Seconds in reports are written as `%.Nf` writes them (ties to even, as printf's exact
    /// decimal rounding gives for these values).
    @Test func fixedPointMatchesPrintf() {
        let values = [0, 0.004, 0.0049, 0.125, 0.375, 0.5, 1.5, 2.5, 0.999, 1.234567, 12.3456, 99.996, 1234.5678, 59.95, -0.4, -1.25, -0.0004, 1e-9]
        for value in values {
            for decimals in 0...3 {
                #expect(value.fixedPoint(decimals: decimals) == String(format: "%.\(decimals)f", value), "\(value) to \(decimals)")
            }
        }
    }

    /// The fallback font's unicode-range lists each range in upper-case hex of at least four digits.
    @Test func unicodeRangesAreUpperCaseHex() {
        var metrics = ThemeMetrics()
        metrics.fallbackRanges = [0x0530...0x058F, 0xAC00...0xD7AF, 0x1F300...0x1FAFF, 0x20...0x7E]
        let css = ThemeStylesheet.css(for: metrics, regularFont: "r.ttf", boldFont: "b.ttf", fallbackFont: "f.ttf")
        #expect(css.contains("unicode-range: U+0530-058F, U+AC00-D7AF, U+1F300-1FAFF, U+0020-007E;"))
    }
}
