import Foundation

/// Turns an image file's bytes into the renditions pages show (``ProcessedImage``): square crops
/// for the cell's box and whole images for the detail page, each at 1× and 2× and never larger
/// than the source, in AVIF, WebP and JPEG (PNG where the image has transparency).
///
/// The file is checked before any pixel is decoded: only JPEG, PNG, WebP, GIF, AVIF/HEIF and SVG
/// are read, and an image of more than ``maximumPixels`` is refused from its header, so that a
/// small file that would decode into gigabytes (a "decompression bomb") never does. An
/// animation gives its first frame; an SVG is drawn into pixels, so no script in it reaches the site.
package struct ImageProcessor: Sendable {
    /// The largest image read, in pixels (a 100-megapixel photo).
    package static let maximumPixels = 100_000_000
    /// The largest file read.
    package static let maximumBytes = 50 << 20
    /// The loaders of the formats read, by libvips' names for them.
    static let formats = [
        "VipsForeignLoadJpegBuffer": "JPEG", "VipsForeignLoadPngBuffer": "PNG", "VipsForeignLoadWebpBuffer": "WebP",
        "VipsForeignLoadNsgifBuffer": "GIF", "VipsForeignLoadHeifBuffer": "AVIF/HEIF", "VipsForeignLoadSvgBuffer": "SVG",
    ]

    /// The box of a cell's image (CSS pixels).
    let cellBox: Int
    /// The width of the detail page's column (CSS pixels).
    let detailWidth: Int
    /// Screen densities each rendition is made for.
    let densities = [1, 2]

    package init(metrics: ThemeMetrics) {
        cellBox = Int(metrics.imageBox.rounded(.up))
        detailWidth = Int(metrics.detailWidth.rounded(.up))
    }

    /// A hash of `data` and of the renditions made from it: equal keys, equal renditions.
    package func key(for data: Data) -> String {
        var hasher = StableHasher("image-renditions-1")
        hasher.combine(cellBox)
        hasher.combine(detailWidth)
        for density in densities { hasher.combine(density) }
        hasher.combine(bytes: data)
        return hasher.hex
    }

    /// Why an image cannot be used, for the user.
    package struct Problem: Error, Sendable {
        package let message: String
    }

    /// The renditions of the image in `data`, named after `name` (a slug) and `key`
    /// (``key(for:)``), with the bytes of each file by its path.
    package func process(_ data: Data, name: String, key: String) throws(Problem) -> (ProcessedImage, [String: Data]) {
        let header = try Self.check(data)
        let (width, height) = header.turnsSideways ? (header.height, header.width) : (header.width, header.height)
        return try Self.reading { () throws(Vips.Failure) in
            // Decoded once, at the largest size any rendition needs (shrinking while decoding
            // where the format allows it); every rendition is made from those pixels.
            let largest = min(width, detailWidth * densities.max()!)
            let base = try Vips.inMemory(Vips.thumbnail(of: data, width: largest, height: Self.unbounded, crop: false))
            // PNG only where something shows through: an SVG drawn edge to edge is a JPEG.
            let fallback: ImageFormat = base.isOpaque ? .jpeg : .png
            var files: [String: Data] = [:]
            func renditions(widths: [Int], square: Bool) throws(Vips.Failure) -> [ProcessedImage.Rendition] {
                var made: [ProcessedImage.Rendition] = []
                var seen: Set<Int> = []
                for target in widths {
                    let image = try Vips.thumbnail(of: base, width: target, height: square ? target : Self.unbounded, crop: square)
                    guard seen.insert(image.width).inserted else { continue }
                    for format in [ImageFormat.avif, .webp, fallback] {
                        let path = "media/\(name)-\(key.prefix(8))-\(image.width)x\(image.height).\(format.fileExtension)"
                        files[path] = try Vips.encode(image, as: format)
                        made.append(.init(path: path, format: format, width: image.width, height: image.height))
                    }
                }
                return made
            }
            let cell = try renditions(widths: densities.map { $0 * cellBox }, square: true)
            let detail = try renditions(widths: densities.map { min($0 * detailWidth, width) }, square: false)
            let placeholder = try DominantColour.of(base)
            let image = ProcessedImage(key: key, width: width, height: height, placeholder: placeholder, cell: cell, detail: detail)
            return (image, files)
        }
    }

    /// `body`'s result, or libvips' failure in it as a problem for the user.
    private static func reading<Result>(_ body: () throws(Vips.Failure) -> Result) throws(Problem) -> Result {
        do {
            return try body()
        } catch {
            throw Problem(message: "libvips could not read it: \(error.message)")
        }
    }

    /// The header of the image in `data`, once it is known to be of a format Marquee reads, and
    /// small enough to decode: nothing of it is decoded yet.
    package static func check(_ data: Data) throws(Problem) -> Vips.Image {
        guard data.count <= maximumBytes else {
            throw Problem(message: "the file is \(data.count >> 20) MB, over the limit of \(maximumBytes >> 20) MB")
        }
        guard let loader = try reading({ () throws(Vips.Failure) in try Vips.loader(for: data) }), formats[loader] != nil else {
            throw Problem(message: "it is not an image Marquee reads (\(Set(formats.values).sorted().joined(separator: ", ")))")
        }
        let header = try reading { () throws(Vips.Failure) in try Vips.header(of: data) }
        guard header.width * header.height <= maximumPixels else {
            throw Problem(message: "it is \(header.width)×\(header.height) pixels, over the limit of \(maximumPixels / 1_000_000) megapixels")
        }
        return header
    }

    /// A height that never limits a width-bound rendition.
    private static let unbounded = 10_000_000
}
