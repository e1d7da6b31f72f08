import Foundation

/// Advance widths of a TrueType or OpenType font, read from its `cmap` and `hmtx` tables.
///
/// Written by hand because no package in reach reads font files on Linux; it reads only the
/// tables needed to measure unkerned text, as the theme's CSS asks browsers to set it.
package struct FontMetrics: Sendable {
    /// Font units per em, from the `head` table.
    package let unitsPerEm: Double
    /// Advance of each glyph in font units.
    private let advances: [UInt16]
    /// Glyph of each BMP code point (0 = the font has none).
    private let bmpGlyphs: [UInt16]
    /// Glyphs of code points beyond the BMP.
    private let supplementaryGlyphs: [UInt32: UInt16]

    /// Reads a font file. Throws a ``BuildError`` naming the file when it is missing or not a font.
    package init(contentsOf url: URL) throws(BuildError) {
        // Only the five tables measuring needs are read: the shipped fallback font is megabytes
        // of glyph outlines, and every build that lays out text reads it.
        let parsed = FileIO.readingParts(of: url.path) { read, _ in Result { () throws(FontError) in try Self(readingTables: read) } }
        guard let parsed else { throw Self.unreadable(url) }
        do {
            self = try parsed.get()
        } catch {
            throw BuildError(file: url.path, "not a usable TrueType/OpenType font: \(error.reason).")
        }
    }

    /// The error of a font file that cannot be read.
    static func unreadable(_ url: URL) -> BuildError {
        BuildError(file: url.path, "cannot read the theme's font. Install it with `scripts/setup` (Debian's fonts-dejavu-core and fonts-droid-fallback).")
    }

    struct FontError: Error { let reason: String }

    /// Reads a font through `read`, which returns the bytes of the file at an offset (fewer at
    /// its end): the table directory, then each table it needs.
    init(readingTables read: (_ offset: Int, _ count: Int) -> [UInt8]) throws(FontError) {
        guard let tableCount = ByteReader(read(0, 12)).u16(4) else { throw FontError(reason: "no table directory") }
        let directory = ByteReader(read(12, Int(tableCount) * 16))
        var tables: [String: ByteReader] = [:]
        for index in 0..<Int(tableCount) {
            let record = index * 16
            guard let tag = directory.tag(record), let offset = directory.u32(record + 8), let length = directory.u32(record + 12)
            else { throw FontError(reason: "truncated table directory") }
            if ["head", "hhea", "hmtx", "maxp", "cmap"].contains(tag) { tables[tag] = ByteReader(read(Int(offset), Int(length))) }
        }
        guard let head = tables["head"], let hhea = tables["hhea"], let hmtx = tables["hmtx"],
              let maxp = tables["maxp"], let cmap = tables["cmap"]
        else { throw FontError(reason: "missing one of the head, hhea, hmtx, maxp or cmap tables") }
        guard let units = head.u16(18), units > 0,
              let metricCount = hhea.u16(34), let glyphCount = maxp.u16(4), metricCount > 0
        else { throw FontError(reason: "bad head, hhea or maxp table") }
        unitsPerEm = Double(units)

        var advances = [UInt16](repeating: 0, count: Int(glyphCount))
        var last: UInt16 = 0
        for glyph in 0..<Int(glyphCount) {
            if glyph < Int(metricCount) {
                guard let advance = hmtx.u16(glyph * 4) else { throw FontError(reason: "truncated hmtx table") }
                last = advance
            }
            advances[glyph] = last
        }
        self.advances = advances

        var bmp = [UInt16](repeating: 0, count: 0x10000)
        var supplementary: [UInt32: UInt16] = [:]
        try Self.readCmap(cmap, bmp: &bmp, supplementary: &supplementary)
        bmpGlyphs = bmp
        supplementaryGlyphs = supplementary
    }

    /// The advance of `scalar` in pixels at `size`, or nil when the font has no glyph for it.
    @inline(__always)
    package func advance(of scalar: Unicode.Scalar, size: Double) -> Double? {
        let glyph: UInt16
        if scalar.value < 0x10000 {
            glyph = bmpGlyphs[Int(scalar.value)]
        } else {
            glyph = supplementaryGlyphs[scalar.value] ?? 0
        }
        guard glyph != 0, Int(glyph) < advances.count else { return nil }
        return Double(advances[Int(glyph)]) * size / unitsPerEm
    }

    private static func readCmap(_ reader: ByteReader, bmp: inout [UInt16], supplementary: inout [UInt32: UInt16]) throws(FontError) {
        guard let subtableCount = reader.u16(2) else { throw FontError(reason: "bad cmap table") }
        var format4: Int?
        var format12: Int?
        for index in 0..<Int(subtableCount) {
            let record = 4 + index * 8
            guard let platform = reader.u16(record), let encoding = reader.u16(record + 2), let offset = reader.u32(record + 4),
                  let format = reader.u16(Int(offset))
            else { continue }
            let unicode = platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10))
            guard unicode else { continue }
            if format == 12 { format12 = Int(offset) }
            if format == 4 { format4 = Int(offset) }
        }
        if let table = format12 {
            guard let groups = reader.u32(table + 12) else { throw FontError(reason: "bad cmap format 12") }
            for group in 0..<Int(min(groups, 1_000_000)) {
                let record = table + 16 + group * 12
                guard let start = reader.u32(record), let end = reader.u32(record + 4), let first = reader.u32(record + 8),
                      start <= end, end <= 0x10FFFF
                else { throw FontError(reason: "bad cmap format 12 group") }
                for code in start...end {
                    let glyph = UInt16(truncatingIfNeeded: first &+ (code - start))
                    if code < 0x10000 { bmp[Int(code)] = glyph } else { supplementary[code] = glyph }
                }
            }
        } else if let table = format4 {
            guard let doubledSegments = reader.u16(table + 6) else { throw FontError(reason: "bad cmap format 4") }
            let segments = Int(doubledSegments) / 2
            let ends = table + 14, starts = ends + 2 * segments + 2, deltas = starts + 2 * segments, rangeOffsets = deltas + 2 * segments
            for segment in 0..<segments {
                guard let end = reader.u16(ends + 2 * segment), let start = reader.u16(starts + 2 * segment),
                      let delta = reader.u16(deltas + 2 * segment), let rangeOffset = reader.u16(rangeOffsets + 2 * segment),
                      start <= end
                else { throw FontError(reason: "bad cmap format 4 segment") }
                for code in Int(start)...Int(end) where code != 0xFFFF {
                    var glyph: UInt16
                    if rangeOffset == 0 {
                        glyph = UInt16(truncatingIfNeeded: code + Int(delta))
                    } else {
                        let address = rangeOffsets + 2 * segment + Int(rangeOffset) + 2 * (code - Int(start))
                        glyph = reader.u16(address) ?? 0
                        if glyph != 0 { glyph = UInt16(truncatingIfNeeded: Int(glyph) + Int(delta)) }
                    }
                    bmp[code] = glyph
                }
            }
        } else {
            throw FontError(reason: "no Unicode cmap subtable")
        }
    }
}

/// Big-endian reads from one table that return nil past its end instead of trapping.
private struct ByteReader {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func u16(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    func u32(_ offset: Int) -> UInt32? {
        guard let high = u16(offset), let low = u16(offset + 2) else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }

    func tag(_ offset: Int) -> String? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }
}
