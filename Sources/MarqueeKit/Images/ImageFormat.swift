/// The formats the image stage writes: AVIF and WebP for browsers that read them, JPEG (or PNG,
/// for images with transparency) for the rest.
package enum ImageFormat: String, Codable, Sendable, CaseIterable {
    case avif, webp, jpeg, png

    /// The file name extension of the format.
    package var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// The media type, for `<source type>`.
    package var mediaType: String { "image/\(rawValue)" }
}
