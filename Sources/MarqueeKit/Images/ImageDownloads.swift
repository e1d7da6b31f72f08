import Foundation

/// The images of remote feeds, fetched for the image stage when the site downloads them
/// (`images: {download: true}`): under the same rules as feeds (``FeedFetcher``: bounded
/// concurrency, timeouts, a byte limit, conditional requests, the last good copy in
/// `.marquee-cache/images/remote/`), so that the site serves them itself and no page links
/// their host.
struct ImageDownloads: Sendable {
    let fetcher: FeedFetcher

    init(_ fetcher: FeedFetcher) { self.fetcher = fetcher }

    /// True for an http(s) address.
    func isWeb(_ url: String) -> Bool {
        let scheme = URLPolicy.scheme(of: url)
        return scheme == "http" || scheme == "https"
    }

    /// The remote images `item` shows: the largest of its remote candidates, content before
    /// thumbnails (the others are smaller copies of it), and every image inside its description.
    func wanted(by item: Item) -> [URL] {
        let remote = item.images.filter { isWeb($0.url) }
        let content = remote.filter { !$0.isThumbnail }
        let chosen = ImageChoice.largest(content.isEmpty ? remote : content).flatMap { URL(string: $0.url) }
        return (chosen.map { [$0] } ?? []) + Self.sources(in: item.bodyHTML).compactMap { URL(string: $0) }
    }

    /// The bytes of each image, fresh or the last good copy, by address; an image with neither
    /// is a warning naming it and the item (`title`) that shows it.
    func fetch(_ images: [(url: URL, title: String)], in context: BuildContext) async -> [String: Data] {
        guard !images.isEmpty else { return [:] }
        context.report("images: fetching \(images.count) remote image\(images.count == 1 ? "" : "s")")
        return await withTaskGroup(of: (String, Data?).self) { group in
            for (url, title) in images {
                group.addTask {
                    let document = RemoteDocument(
                        url: url, fetcher: fetcher, noun: "image", without: "\u{201C}\(title)\u{201D} is shown without it")
                    // A body is kept as the last good copy only once it reads as an image.
                    let (data, _) = await document.load(in: context) { body throws(BuildError) in
                        do throws(ImageProcessor.Problem) {
                            _ = try ImageProcessor.check(body)
                        } catch {
                            throw BuildError(error.message)
                        }
                        return body
                    }
                    return (url.absoluteString, data)
                }
            }
            var fetched: [String: Data] = [:]
            for await (url, data) in group { fetched[url] = data }
            return fetched
        }
    }

    /// `html` with each remote image pointing at its rendition for the detail column, and the
    /// images that could not be used left out; nil when it holds no remote image.
    func rewritten(_ html: String, processed: [String: ProcessedImage]) -> String? {
        guard html.contains("<img") else { return nil }
        var changed = false
        let result = html.replacing(Self.imageTag) { match -> String in
            let url = Self.unescaped(String(match.output.source))
            guard isWeb(url) else { return String(match.output.0) }
            changed = true
            guard let image = processed[url],
                  let rendition = image.detail.filter({ $0.format == image.fallbackFormat }).min(by: { $0.width < $1.width })
            else { return "" }
            let src = SiteURL.rootMarker + rendition.path
            return "<img src=\"\(src)\" width=\"\(rendition.width)\" height=\"\(rendition.height)\"" + match.output.rest + ">"
        }
        return changed ? result : nil
    }

    /// The renditions descriptions point at, after ``rewritten(_:processed:)``.
    func renditionPaths(in items: [Item]) -> Set<String> {
        var paths: Set<String> = []
        for item in items {
            let html = item.bodyHTML
            guard html.contains(Self.mediaMarker) else { continue }
            for match in html.matches(of: Self.renditionReference) { paths.insert(String(match.output.1)) }
        }
        return paths
    }

    /// The addresses of the images in `html`.
    static func sources(in html: String) -> [String] {
        guard html.contains("<img") else { return [] }
        return html.matches(of: imageTag).map { unescaped(String($0.output.source)) }
    }

    /// An `<img>` tag as the sanitizer and cmark write it: `src` first, then the rest (which
    /// loses its `width` and `height`: the rendition's are stated instead).
    private static var imageTag: Regex<(Substring, source: Substring, rest: Substring)> {
        #/<img src="(?<source>[^"]*)"(?:\s+(?:width|height)="[^"]*")*(?<rest>[^>]*)>/#
    }
    private static var renditionReference: Regex<(Substring, Substring)> { #/marquee-root:\/(media\/[^"\s]+)/# }
    private static let mediaMarker = SiteURL.rootMarker + "media/"

    /// An attribute's value as written by ``HTMLEscape/attribute(_:)``; URLs have no other entity.
    private static func unescaped(_ value: String) -> String {
        value.replacingOccurrences(of: "&amp;", with: "&")
    }
}
