/// One image offered for an item, with its pixel size when the source says it.
public struct ImageCandidate: Sendable, Equatable {
    /// An absolute http(s) URL, or a path inside the built site (such as `images/arrival.svg`).
    public var url: String
    /// Width in pixels, when known.
    public var width: Int?
    /// Height in pixels, when known.
    public var height: Int?
    /// True for thumbnails, false for full-size content.
    public var isThumbnail: Bool
    /// The renditions the image stage made of a local image; `url` then names the largest.
    package var processed: ProcessedImage?

    /// Creates a candidate; the image stage fills in `processed` for a local image it resizes.
    public init(url: String, width: Int? = nil, height: Int? = nil, isThumbnail: Bool = false) {
        self.url = url
        self.width = width
        self.height = height
        self.isThumbnail = isThumbnail
    }
}
