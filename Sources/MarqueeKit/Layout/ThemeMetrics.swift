import Foundation

/// The theme's measurements, defined once: the layout engine predicts with them and the
/// generated stylesheet (``ThemeStylesheet``) sets the same numbers in CSS.
public struct ThemeMetrics: Sendable, Equatable {
    /// The CSS family name the shipped font is registered under.
    public var fontFamily = "Marquee Sans"
    /// The regular and bold faces, copied into the site and measured by the layout engine.
    public var regularFont = URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    /// The bold face, for titles and `strong` text.
    public var boldFont = URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
    /// The licence that must travel with the font.
    public var fontLicense = URL(fileURLWithPath: "/usr/share/doc/fonts-dejavu-core/copyright")
    /// A font for CJK text, which the main font lacks. It is shipped with a `unicode-range`, so
    /// browsers download it only for pages that need it, and measured for those characters, so
    /// predictions do not depend on the fonts of the reader's machine.
    public var fallbackFont = URL(fileURLWithPath: "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
    /// The licence that must travel with the fallback font.
    public var fallbackFontLicense = URL(fileURLWithPath: "/usr/share/doc/fonts-droid-fallback/copyright")
    /// The code points drawn with the fallback font.
    public var fallbackRanges: [ClosedRange<UInt32>] = [
        0x1100...0x11FF, 0x2E80...0x303F, 0x3040...0x30FF, 0x3100...0x31FF, 0x3200...0x9FFF,
        0xA960...0xA97F, 0xAC00...0xD7FF, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFFEF,
    ]

    /// Title font size in CSS pixels (bold).
    public var titleFontSize = 17.0
    /// Title line height in CSS pixels.
    public var titleLineHeight = 24.0
    /// Description font size in CSS pixels.
    public var bodyFontSize = 15.0
    /// Description line height in CSS pixels.
    public var bodyLineHeight = 22.0
    /// Space between the title and the description.
    public var titleGap = 4.0
    /// Space around the gallery (the iOS margins).
    public var pageMargin = 20.0
    /// Space inside a cell, on every side.
    public var cellPadding = 16.0
    /// Space between cells.
    public var cellGap = 20.0
    /// The square image box of image cells.
    public var imageBox = 100.0
    /// The height of the first screen of a phone, below the page's heading: the cells that start
    /// within it load their images at once, the others lazily.
    public var firstScreenHeight = 700.0
    /// The width of a detail page's column, where its image is shown whole.
    public var detailWidth = 680.0
    /// Space between the image box and the text.
    public var imageGap = 16.0
    /// Indent of list items inside descriptions.
    public var listIndent = 20.0
    /// Space between paragraphs of an expanded description.
    public var paragraphGap = 8.0
    /// Height of the toggle row shown under an expanded description.
    public var toggleRowHeight = 32.0
    /// Lines shown by a collapsed basic cell.
    public var basicCollapsedLines = 3

    /// The container widths the layout engine predicts for, smallest first. Phone widths vary by
    /// the pixel, so instead of a fluid column (whose line breaks would differ on every phone)
    /// the gallery snaps to the widths of the common phones, each filling its phone less the
    /// page margins and centred on anything wider up to the next: every viewport from 320 px up
    /// then shows one of the widths predicted here.
    public var breakpoints: [Breakpoint] = [
        Breakpoint(name: "w320", minViewportWidth: 0, referenceViewportWidth: 320, containerWidth: 280, columns: 1),
        Breakpoint(name: "w360", minViewportWidth: 360, referenceViewportWidth: 360, containerWidth: 320, columns: 1),
        Breakpoint(name: "w375", minViewportWidth: 375, referenceViewportWidth: 375, containerWidth: 335, columns: 1),
        Breakpoint(name: "w390", minViewportWidth: 390, referenceViewportWidth: 390, containerWidth: 350, columns: 1),
        Breakpoint(name: "w412", minViewportWidth: 412, referenceViewportWidth: 412, containerWidth: 372, columns: 1),
        Breakpoint(name: "w430", minViewportWidth: 430, referenceViewportWidth: 430, containerWidth: 390, columns: 1),
        Breakpoint(name: "w600", minViewportWidth: 600, referenceViewportWidth: 600, containerWidth: 560, columns: 1),
        Breakpoint(name: "w700", minViewportWidth: 700, referenceViewportWidth: 768, containerWidth: 660, columns: 1),
        Breakpoint(name: "w1100", minViewportWidth: 1100, referenceViewportWidth: 1280, containerWidth: 1040, columns: 2),
    ]

    /// Creates the default theme metrics.
    public init() {}

    /// The width of one cell (its border box) at a breakpoint.
    public func cellWidth(at breakpoint: Breakpoint) -> Double {
        let container = breakpoint.containerWidth ?? (breakpoint.referenceViewportWidth - 2 * pageMargin)
        let columns = Double(breakpoint.columns)
        return (container - (columns - 1) * cellGap) / columns
    }

    /// The width available to the title and description of a cell.
    public func textWidth(at breakpoint: Breakpoint, template: CellTemplate) -> Double {
        let inner = cellWidth(at: breakpoint) - 2 * cellPadding
        return template == .image ? inner - imageBox - imageGap : inner
    }
}

/// A range of viewport widths with its own container width and number of columns.
public struct Breakpoint: Sendable, Equatable {
    /// Used in CSS names (`--lines-phone`) and reports.
    public var name: String
    /// The smallest viewport width this breakpoint applies to.
    public var minViewportWidth: Double
    /// The viewport width predictions are made for when the container is fluid.
    public var referenceViewportWidth: Double
    /// A fixed container width, or nil for one that fills the viewport less the page margins.
    public var containerWidth: Double?
    /// Cells side by side.
    public var columns: Int

    /// Creates a breakpoint.
    public init(name: String, minViewportWidth: Double, referenceViewportWidth: Double, containerWidth: Double?, columns: Int) {
        self.name = name
        self.minViewportWidth = minViewportWidth
        self.referenceViewportWidth = referenceViewportWidth
        self.containerWidth = containerWidth
        self.columns = columns
    }
}
