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
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw BuildError(file: url.path, "cannot read the theme's font. Install it with `apt-get install fonts-dejavu-core` (scripts/setup does this).")
        }
        try self.init(data: data, of: url)
    }

    /// Reads the font file `url` whose bytes are `data`.
    init(data: Data, of url: URL) throws(BuildError) {
        let parsed = data.withUnsafeBytes { bytes in Result { () throws(BuildError) in try Self(bytes: bytes, of: url) } }
        self = try parsed.get()
    }

    /// Reads the font file `url` whose bytes are already in memory.
    init(bytes: UnsafeRawBufferPointer, of url: URL) throws(BuildError) {
        do {
            try self.init(bytes: bytes)
        } catch {
            throw BuildError(file: url.path, "not a usable TrueType/OpenType font: \(error.reason).")
        }
    }

    struct FontError: Error { let reason: String }

    init(bytes: UnsafeRawBufferPointer) throws(FontError) {
        let reader = ByteReader(bytes: bytes)
        guard let tableCount = reader.u16(4) else { throw FontError(reason: "no table directory") }
        var tables: [String: Int] = [:]
        for index in 0..<Int(tableCount) {
            let record = 12 + index * 16
            guard let tag = reader.tag(record), let offset = reader.u32(record + 8) else { throw FontError(reason: "truncated table directory") }
            tables[tag] = Int(offset)
        }
        guard let head = tables["head"], let hhea = tables["hhea"], let hmtx = tables["hmtx"],
              let maxp = tables["maxp"], let cmap = tables["cmap"]
        else { throw FontError(reason: "missing one of the head, hhea, hmtx, maxp or cmap tables") }
        guard let units = reader.u16(head + 18), units > 0,
              let metricCount = reader.u16(hhea + 34), let glyphCount = reader.u16(maxp + 4), metricCount > 0
        else { throw FontError(reason: "bad head, hhea or maxp table") }
        unitsPerEm = Double(units)

        var advances = [UInt16](repeating: 0, count: Int(glyphCount))
        var last: UInt16 = 0
        for glyph in 0..<Int(glyphCount) {
            if glyph < Int(metricCount) {
                guard let advance = reader.u16(hmtx + glyph * 4) else { throw FontError(reason: "truncated hmtx table") }
                last = advance
            }
            advances[glyph] = last
        }
        self.advances = advances

        var bmp = [UInt16](repeating: 0, count: 0x10000)
        var supplementary: [UInt32: UInt16] = [:]
        try Self.readCmap(reader, at: cmap, bmp: &bmp, supplementary: &supplementary)
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

    private static func readCmap(_ reader: ByteReader, at cmap: Int, bmp: inout [UInt16], supplementary: inout [UInt32: UInt16]) throws(FontError) {
        guard let subtableCount = reader.u16(cmap + 2) else { throw FontError(reason: "bad cmap table") }
        var format4: Int?
        var format12: Int?
        for index in 0..<Int(subtableCount) {
            let record = cmap + 4 + index * 8
            guard let platform = reader.u16(record), let encoding = reader.u16(record + 2), let offset = reader.u32(record + 4),
                  let format = reader.u16(cmap + Int(offset))
            else { continue }
            let unicode = platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10))
            guard unicode else { continue }
            if format == 12 { format12 = cmap + Int(offset) }
            if format == 4 { format4 = cmap + Int(offset) }
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

/// Big-endian reads that return nil past the end instead of trapping.
private struct ByteReader {
    let bytes: UnsafeRawBufferPointer

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
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 4]), as: UTF8.self)
    }
}
