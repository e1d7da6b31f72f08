/// The colour an image box shows until its image loads: the image's most common colour.
enum DominantColour {
    /// The side of the grid of pixels the colour is taken from.
    static let sample = 24

    /// The mean of the pixels in the most populated cell of a coarse colour grid (4 bits per
    /// channel), of `image` squashed to ``sample``² pixels; `#rrggbb`.
    static func of(_ image: Vips.Image) throws(Vips.Failure) -> String {
        let pixels = try Vips.rgbPixels(of: image, width: sample, height: sample)
        return of(rgb: pixels)
    }

    /// As ``of(_:)``, from 8-bit RGB triples.
    static func of(rgb pixels: [UInt8]) -> String {
        var counts: [Int: (count: Int, red: Int, green: Int, blue: Int)] = [:]
        for start in stride(from: 0, to: pixels.count - 2, by: 3) {
            let (red, green, blue) = (Int(pixels[start]), Int(pixels[start + 1]), Int(pixels[start + 2]))
            let bucket = (red >> 4) << 8 | (green >> 4) << 4 | blue >> 4
            let sum = counts[bucket] ?? (0, 0, 0, 0)
            counts[bucket] = (sum.count + 1, sum.red + red, sum.green + green, sum.blue + blue)
        }
        // Ties go to the lower bucket, so the colour does not depend on the dictionary's order.
        guard let top = counts.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) })?.value else { return "#808080" }
        func hex(_ sum: Int) -> String {
            let value = (sum + top.count / 2) / top.count
            return String(value, radix: 16).leftPadded(to: 2)
        }
        return "#" + hex(top.red) + hex(top.green) + hex(top.blue)
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
