/// An image the site serves from its own `media/` folder, resized for each place the theme shows
/// it and encoded in several formats; what pages need to refer to it.
package struct ProcessedImage: Codable, Sendable, Equatable {
    /// One file of the image: a size in a format.
    package struct Rendition: Codable, Sendable, Equatable {
        /// The path inside the site, such as `media/arrival-3f9c2a1b-200x200.webp`.
        package var path: String
        package var format: ImageFormat
        package var width: Int
        package var height: Int
    }

    /// A hash of the source's bytes and of how it was processed; the renditions' names hold it.
    package var key: String
    /// The image's size upright (its orientation tag applied), in pixels.
    package var width: Int
    package var height: Int
    /// The colour shown until the image loads, as `#rrggbb`.
    package var placeholder: String
    /// Square crops that fill the cell's image box, at 1× and 2×.
    package var cell: [Rendition]
    /// Whole-image renditions for the detail page, at the column's width at 1× and 2×.
    package var detail: [Rendition]

    /// Every file of the image.
    package var renditions: [Rendition] { cell + detail }

    /// The format browsers that read neither AVIF nor WebP get.
    package var fallbackFormat: ImageFormat { cell.first { $0.format == .png } == nil ? .jpeg : .png }
}
