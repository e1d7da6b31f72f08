import CVips
import Foundation

/// libvips, which does every pixel of the image stage: reading headers, decoding with shrink on
/// load, resizing, and encoding AVIF, WebP, JPEG and PNG. The only file that touches its C API.
package enum Vips {
    /// Why libvips refused an image, in its own words.
    package struct Failure: Error, Sendable {
        package let message: String
    }

    /// libvips started once for the process (nil message when it started).
    private static let started: String? = {
        var missing: UnsafePointer<CChar>?
        switch marquee_vips_start(&missing) {
        case 0: return nil
        case -2: return "libvips 8 could not be loaded (\(missing.map { String(cString: $0) } ?? "libvips.so.42")); install Debian's libvips42"
        default: return lastError()
        }
    }()

    private static func lastError() -> String {
        let text = marquee_vips_error_buffer().map { String(cString: $0) } ?? ""
        marquee_vips_error_clear()
        // The buffer also keeps what earlier calls that succeeded noted: the last line is this failure's.
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.last { !$0.isEmpty } ?? "libvips failed"
    }

    private static func start() throws(Failure) {
        if let started { throw Failure(message: "libvips did not start: \(started)") }
    }

    /// An image decoded (or only opened) by libvips, released with the value.
    package final class Image: @unchecked Sendable {
        // @unchecked: a VipsImage is immutable once built, and libvips reference-counts it
        // atomically; it is only read after this value is made.
        fileprivate let pointer: OpaquePointer

        fileprivate init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { marquee_vips_unref(pointer) }

        package var width: Int { Int(marquee_vips_width(pointer)) }
        package var height: Int { Int(marquee_vips_height(pointer)) }
        package var hasAlpha: Bool { marquee_vips_has_alpha(pointer) != 0 }
        /// True when no pixel shows through (no alpha band, or every pixel of it opaque); reads
        /// every pixel of the alpha band.
        package var isOpaque: Bool { marquee_vips_is_opaque(pointer) == 1 }
        /// Pages (frames of an animation, images of a HEIF file).
        package var pages: Int { Int(marquee_vips_pages(pointer)) }
        /// True when the file's orientation tag turns it on its side (its width is its height).
        package var turnsSideways: Bool { marquee_vips_orientation_swap(pointer) != 0 }
    }

    /// The loader libvips picks for `data` (such as `VipsForeignLoadJpegBuffer`), nil when none knows it.
    package static func loader(for data: Data) throws(Failure) -> String? {
        try start()
        let name = data.withUnsafeBytes { marquee_vips_loader($0.baseAddress, $0.count) }
        marquee_vips_error_clear()
        return name.map { String(cString: $0) }
    }

    /// The image's header, read without decoding its pixels.
    package static func header(of data: Data) throws(Failure) -> Image {
        try start()
        let image = data.withUnsafeBytes { marquee_vips_header($0.baseAddress, $0.count) }
        guard let image else { throw Failure(message: lastError()) }
        return Image(image)
    }

    /// `data` decoded and scaled down to fit `width` × `height` (or to fill it and cut what is
    /// outside, with `crop`), shrinking while decoding where the format allows it.
    package static func thumbnail(of data: Data, width: Int, height: Int, crop: Bool) throws(Failure) -> Image {
        try start()
        var out: OpaquePointer?
        let status = data.withUnsafeBytes {
            marquee_vips_thumbnail_buffer($0.baseAddress, $0.count, &out, Int32(width), Int32(height), crop ? 1 : 0)
        }
        return try made(status, out)
    }

    /// `image` scaled down as ``thumbnail(of:width:height:crop:)`` does.
    package static func thumbnail(of image: Image, width: Int, height: Int, crop: Bool) throws(Failure) -> Image {
        var out: OpaquePointer?
        return try made(marquee_vips_thumbnail_image(image.pointer, &out, Int32(width), Int32(height), crop ? 1 : 0), out)
    }

    /// `image` computed now and held in memory: the renditions made from it then do not decode
    /// the file again.
    package static func inMemory(_ image: Image) throws(Failure) -> Image {
        guard let copy = marquee_vips_copy_memory(image.pointer) else { throw Failure(message: lastError()) }
        return Image(copy)
    }

    /// The pixels of `image` squashed to `width` × `height`, as 8-bit sRGB triples (alpha
    /// flattened onto mid grey).
    package static func rgbPixels(of image: Image, width: Int, height: Int) throws(Failure) -> [UInt8] {
        var small: OpaquePointer?
        let squashed = try made(marquee_vips_squash(image.pointer, &small, Int32(width), Int32(height)), small)
        var rgb: OpaquePointer?
        let converted = try made(marquee_vips_srgb8(squashed.pointer, &rgb, 128), rgb)
        var length = 0
        guard let memory = marquee_vips_write_to_memory(converted.pointer, &length) else { throw Failure(message: lastError()) }
        defer { marquee_vips_free(memory) }
        let bands = Int(marquee_vips_bands(converted.pointer))
        let bytes = UnsafeRawBufferPointer(start: memory, count: length)
        guard bands >= 3 else { return bytes.flatMap { [$0, $0, $0] } }
        return stride(from: 0, to: length - bands + 1, by: bands).flatMap { [bytes[$0], bytes[$0 + 1], bytes[$0 + 2]] }
    }

    /// `image` encoded as `format`.
    package static func encode(_ image: Image, as format: ImageFormat) throws(Failure) -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        // Qualities that look alike across the formats for photos; low encoder efforts (AVIF 0 of
        // 9, WebP 2 of 6), which make files a little larger in a fraction of the time.
        let status: Int32 = switch format {
        case .avif: marquee_vips_save_avif(image.pointer, &buffer, &length, 50, 0)
        case .webp: marquee_vips_save_webp(image.pointer, &buffer, &length, 75, 2)
        case .jpeg: marquee_vips_save_jpeg(image.pointer, &buffer, &length, 80)
        case .png: marquee_vips_save_png(image.pointer, &buffer, &length)
        }
        guard status == 0, let buffer else { throw Failure(message: lastError()) }
        defer { marquee_vips_free(buffer) }
        return Data(bytes: buffer, count: length)
    }

    private static func made(_ status: Int32, _ image: OpaquePointer?) throws(Failure) -> Image {
        guard status == 0, let image else { throw Failure(message: lastError()) }
        return Image(image)
    }
}
