import Foundation

/// The image stage: every local image a cell or a detail page shows (a movie's `Photo`, an
/// image beside a local feed) is resized and encoded by ``ImageProcessor``, kept in
/// ``ImageCache``, and written under `media/` with names that change with its bytes; pages
/// refer to the renditions through `<picture>` with their sizes and a placeholder colour.
///
/// With `images: {download: true}`, the images of remote feeds are fetched (``ImageDownloads``)
/// and processed the same way, those inside descriptions too, so that no page links their host.
///
/// An image that cannot be used (not an image, corrupt, too large, not fetched) is a warning
/// naming the file or URL and the item; the item is built without it.
package struct ImagePlugin: Plugin {
    package let name = "images"
    /// Fetches remote images when the site downloads them; nil links them where they are.
    let downloads: ImageDownloads?

    /// Loads no items.
    package func itemFiles(in context: BuildContext) -> [URL]? { [] }

    package init(fetcher: FeedFetcher? = nil) {
        downloads = fetcher.map(ImageDownloads.init)
    }

    /// Where an image's bytes come from.
    enum Origin: Sendable {
        case file(URL)
        case web(URL)
    }

    package func transformItems(_ items: inout [Item], in context: BuildContext) async throws {
        // Downloads read every description's HTML for its images, here and as the pages' files
        // are written: made once, not on each read.
        if downloads != nil { items.concurrentUpdate { $0.keepBodyHTML() } }
        let localFiles = context.localAssets.sources
        // No local image, and remote ones are linked where they are: nothing to process.
        if localFiles.isEmpty && downloads == nil { return }
        // The images to process, each once however many items show it, with the first item
        // that shows it (for warnings).
        var origins: [String: (origin: Origin, title: String)] = [:]
        for item in items {
            for image in item.images where image.processed == nil && origins[image.url] == nil {
                if let file = localFiles[image.url] { origins[image.url] = (.file(file), item.title) }
            }
            if let downloads {
                for url in downloads.wanted(by: item) where origins[url.absoluteString] == nil {
                    origins[url.absoluteString] = (.web(url), item.title)
                }
            }
        }
        guard !origins.isEmpty else { return }
        let fetched = await downloads?.fetch(origins.compactMap { url, entry in
            if case .web(let web) = entry.origin { (web, entry.title) } else { nil }
        }, in: context) ?? [:]

        let processor = ImageProcessor(metrics: context.theme.metrics)
        let cache = ImageCache(folder: Self.cacheFolder(root: context.root))
        let list = origins.sorted { $0.key < $1.key }
        let results = list.map { ($0.value.origin, fetched[$0.key]) }.concurrentMap { origin, data -> Result<ProcessedImage, ImageProcessor.Problem>? in
            switch origin {
            case .file(let file):
                guard let data = try? Data(contentsOf: file) else { return .failure(.init(message: "the file cannot be read")) }
                return Self.process(data, name: file.deletingPathExtension().lastPathComponent, with: processor, cache: cache)
            case .web(let url):
                // Not fetched, and no copy kept: the download already warned.
                guard let data else { return nil }
                return Self.process(data, name: url.deletingPathExtension().lastPathComponent, with: processor, cache: cache)
            }
        }
        var processed: [String: ProcessedImage] = [:]
        for ((url, entry), result) in zip(list, results) {
            switch result {
            case .success(let image)?:
                processed[url] = image
            case .failure(let problem)?:
                let file = if case .file(let file) = entry.origin { context.displayPath(file) } else { url }
                context.warn(BuildWarning(file: file, "cannot use this image for \u{201C}\(entry.title)\u{201D}: \(problem.message); the item is shown without it."))
            case nil:
                break
            }
        }
        for index in items.indices {
            let shown = items[index].images
            var images = shown.compactMap { image -> ImageCandidate? in
                if let image = processed[image.url] { return Self.candidate(image, isThumbnail: false) }
                // Tried and failed; or, when images are downloaded, one the item does not show.
                let tried = if case .file? = origins[image.url]?.origin { true } else { false }
                return tried || downloads?.isWeb(image.url) == true ? nil : image
            }
            // The item's downloaded image stands for all its remote candidates.
            var seen: Set<String> = []
            images = images.filter { seen.insert($0.url).inserted }
            if images != shown { items[index].images = images }
            if let downloads, let body = downloads.rewritten(items[index].bodyHTML, processed: processed) {
                items[index].bodyHTML = body
            }
        }
    }

    /// Writes every rendition of the images the items show.
    package func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws {
        let cache = ImageCache(folder: Self.cacheFolder(root: context.root))
        var written: Set<String> = []
        for item in items {
            for image in item.images {
                guard let processed = image.processed, written.insert(processed.key).inserted else { continue }
                try write(processed, from: cache, into: output)
            }
        }
        for path in downloads?.renditionPaths(in: items).sorted() ?? [] {
            try write(path, from: cache, into: output)
        }
    }

    private func write(_ image: ProcessedImage, from cache: ImageCache, into output: OutputSet) throws {
        for rendition in image.renditions { try write(rendition.path, from: cache, into: output) }
    }

    private func write(_ path: String, from cache: ImageCache, into output: OutputSet) throws {
        // The name holds the bytes' hash: a file of the same name is the same file.
        var hasher = StableHasher("rendition")
        hasher.combine(path)
        if output.reuse(path, digest: hasher.value) { return }
        guard let data = cache.data(of: path) else {
            throw BuildError(file: ".marquee-cache/images", "the rendition \(path) is missing from the cache; build again.")
        }
        try output.add(path, data, digest: hasher.value)
    }

    /// Where processed images are kept between builds.
    static func cacheFolder(root: URL) -> URL { root.appending(path: ".marquee-cache/images") }

    /// The renditions of `data`, from the cache when the same bytes were processed before.
    static func process(_ data: Data, name: String, with processor: ImageProcessor, cache: ImageCache) -> Result<ProcessedImage, ImageProcessor.Problem> {
        let key = processor.key(for: data)
        if let known = cache.image(for: key) { return .success(known) }
        do throws(ImageProcessor.Problem) {
            let (image, files) = try processor.process(data, name: Slug.fileName(name), key: key)
            cache.store(image, files: files)
            return .success(image)
        } catch {
            return .failure(error)
        }
    }

    /// The candidate pages show for a processed image: its largest fallback rendition, which
    /// link previews use too, carrying every rendition.
    static func candidate(_ image: ProcessedImage, isThumbnail: Bool) -> ImageCandidate {
        let largest = image.detail.filter { $0.format == image.fallbackFormat }.max { $0.width < $1.width } ?? image.renditions[0]
        var candidate = ImageCandidate(url: largest.path, width: largest.width, height: largest.height, isThumbnail: isThumbnail)
        candidate.processed = image
        return candidate
    }
}
