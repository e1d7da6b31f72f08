/// Picks the image to show among an item's candidates.
package enum ImageChoice {
    /// The candidate that best fills a square box of `box` CSS pixels on a 2× screen: the smallest
    /// whose shorter side covers it (the medium DeviantArt thumbnail where there are several),
    /// else the largest known, else the first.
    package static func bestFit(_ candidates: [ImageCandidate], box: Double) -> ImageCandidate? {
        let needed = Int(box * 2)
        let sized = candidates.filter { $0.width != nil && $0.height != nil }
        let covering = sized.filter { min($0.width!, $0.height!) >= needed }
        if let smallest = covering.min(by: { $0.width! * $0.height! < $1.width! * $1.height! }) { return smallest }
        if let largest = sized.max(by: { $0.width! * $0.height! < $1.width! * $1.height! }) { return largest }
        return candidates.first
    }

    /// The largest candidate, for a detail page's header.
    package static func largest(_ candidates: [ImageCandidate]) -> ImageCandidate? {
        let sized = candidates.filter { $0.width != nil && $0.height != nil }
        return sized.max(by: { $0.width! * $0.height! < $1.width! * $1.height! }) ?? candidates.first { !$0.isThumbnail } ?? candidates.first
    }

    /// A `srcset` value from every candidate whose width is known (nil when fewer than two).
    package static func srcset(_ candidates: [ImageCandidate], root: String) -> String? {
        var seen: Set<Int> = []
        let entries = candidates.compactMap { candidate -> String? in
            guard let width = candidate.width, seen.insert(width).inserted else { return nil }
            return "\(SiteURL.resolve(candidate.url, root: root).replacingOccurrences(of: " ", with: "%20")) \(width)w"
        }
        return entries.count > 1 ? entries.joined(separator: ", ") : nil
    }
}
