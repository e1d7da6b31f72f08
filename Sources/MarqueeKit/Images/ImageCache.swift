import Foundation

/// Renditions made by earlier builds, in `ROOT/.marquee-cache/images/` (git-ignored): each
/// image's ``ProcessedImage`` as `<key>.json` beside its files. Keyed by the source's bytes, so
/// an image is decoded again only when it changed, whichever build of Marquee made it.
package struct ImageCache: Sendable {
    package let folder: URL

    package init(folder: URL) { self.folder = folder }

    /// The image processed under `key`, when its description and every file are there.
    package func image(for key: String) -> ProcessedImage? {
        guard let data = try? Data(contentsOf: manifest(key)),
              let image = try? JSONDecoder().decode(ProcessedImage.self, from: data), image.key == key,
              image.renditions.allSatisfy({ FileManager.default.fileExists(atPath: file(for: $0.path).path) })
        else { return nil }
        return image
    }

    /// The bytes of a rendition of an image in the cache.
    package func data(of path: String) -> Data? {
        try? Data(contentsOf: file(for: path))
    }

    /// Keeps `image` and its `files` (by site path) for later builds. The description is written
    /// last, so that an interrupted write leaves no description of missing files. Failing to
    /// write costs only the next build's time, so it is not an error.
    package func store(_ image: ProcessedImage, files: [String: Data]) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (path, data) in files {
            try? data.write(to: file(for: path), options: .atomic)
        }
        if let description = try? JSONEncoder().encode(image) {
            try? description.write(to: manifest(image.key), options: .atomic)
        }
    }

    private func manifest(_ key: String) -> URL { folder.appending(path: key + ".json") }
    private func file(for path: String) -> URL { folder.appending(path: (path as NSString).lastPathComponent) }
}
