/// The two cell templates: text only, or a thumbnail beside the text.
public enum CellTemplate: String, Sendable, Equatable {
    case basic, image
}

/// How the gallery shows one item: the layout engine's decision, written into the HTML.
public struct CellPlan: Sendable, Equatable {
    /// The template the cell uses.
    public var template: CellTemplate
    /// One entry per theme breakpoint, in the theme's order.
    public var breakpoints: [BreakpointPlan]
    /// Some characters are not in the shipped fonts (emoji, Hangul): the reader's fonts draw
    /// them, so their widths, and the line counts, are estimates.
    public var isEstimated: Bool

    /// Creates a plan from its parts.
    public init(template: CellTemplate, breakpoints: [BreakpointPlan], isEstimated: Bool = false) {
        self.template = template
        self.breakpoints = breakpoints
        self.isEstimated = isEstimated
    }

    /// True when the description is cut at any breakpoint (the toggle is needed somewhere).
    public var isTruncatedAnywhere: Bool { breakpoints.contains { $0.isTruncated } }
}

/// The layout of a cell at one breakpoint.
public struct BreakpointPlan: Sendable, Equatable {
    /// The breakpoint's name (`w320` … `w1100`, see ``ThemeMetrics/breakpoints``).
    public var breakpoint: String
    /// Lines the title (with its badges) takes.
    public var titleLines: Int
    /// Lines of the whole description.
    public var descriptionLines: Int
    /// Lines shown while collapsed.
    public var collapsedLines: Int
    /// The description has more lines than the collapsed cell shows.
    public var isTruncated: Bool { descriptionLines > collapsedLines }
    /// Estimated heights of the cell's border box, in CSS pixels.
    public var collapsedHeight: Double
    /// Estimated height with the description expanded.
    public var expandedHeight: Double

    /// Creates a plan from its parts.
    public init(breakpoint: String, titleLines: Int, descriptionLines: Int, collapsedLines: Int, collapsedHeight: Double, expandedHeight: Double) {
        self.breakpoint = breakpoint
        self.titleLines = titleLines
        self.descriptionLines = descriptionLines
        self.collapsedLines = collapsedLines
        self.collapsedHeight = collapsedHeight
        self.expandedHeight = expandedHeight
    }
}
