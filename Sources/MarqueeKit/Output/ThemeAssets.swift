import Foundation

/// The theme's files as they go into the site, with content hashes in their names
/// (`assets/marquee.3f9c2a1b.css`) so hosts can cache them forever.
package struct ThemeAssets: Sendable {
    /// Path inside the site → the file.
    package let files: [String: File]
    /// Paths inside the site of the files pages link to.
    package let stylesheet: String
    /// The expand/collapse script.
    package let script: String
    /// The filter box's script.
    package let filterScript: String
    /// The regular font file (preloaded by pages).
    package let regularFont: String
    /// The bold font file (preloaded by pages).
    package let boldFont: String
    /// The fallback font file (CJK), loaded by browsers only for the code points it covers.
    package let fallbackFont: String

    /// One file of the theme's assets.
    package struct File: Sendable {
        /// Its bytes.
        package let contents: Contents
        /// A hash of its bytes (``StableHasher``), so that a rebuild keeps the output's copy
        /// without reading it back (see ``OutputSet/reuse(_:digest:)``).
        package let digest: UInt64
    }

    /// An asset's bytes: held, or a file read only when the asset is written. The fonts are
    /// megabytes, and a rebuild that finds them in the output as it left them never reads them.
    package enum Contents: Sendable {
        case data(Data)
        case file(URL)

        /// The bytes (the file as it is now).
        package func bytes() throws(BuildError) -> Data {
            switch self {
            case .data(let data): data
            case .file(let url): try FontCache.shared.bytes(of: url)
            }
        }
    }

    /// Fingerprints the theme's assets. `themeFiles` are the files under `Templates/assets/`;
    /// the fonts' digests come through `fontDigests`.
    static func make(themeFiles: [String: Data], metrics: ThemeMetrics, fontDigests: FileDigestCache = FileDigestCache(file: nil)) throws(BuildError) -> ThemeAssets {
        var files: [String: File] = [:]
        /// Adds a file under its logical path with its digest in the name; returns that name.
        func add(_ logicalPath: String, _ contents: Contents, digest: UInt64) -> String {
            let path = fingerprinted(logicalPath, digest: digest)
            files[path] = File(contents: contents, digest: digest)
            return path
        }
        func add(_ logicalPath: String, _ data: Data) -> String {
            add(logicalPath, .data(data), digest: StableHasher.value(of: data))
        }
        /// A file kept under its own name (licences, the theme's other assets).
        func addUnnamed(_ path: String, _ data: Data) {
            files[path] = File(contents: .data(data), digest: StableHasher.value(of: data))
        }
        func addFont(_ logicalPath: String, _ font: URL) throws(BuildError) -> String {
            let digest = try fontDigests.digest(of: font.path) { () throws(BuildError) in try FontCache.shared.bytes(of: font) }
            return add(logicalPath, .file(font), digest: digest)
        }
        let regular = try addFont("assets/fonts/marquee-sans.ttf", metrics.regularFont)
        let bold = try addFont("assets/fonts/marquee-sans-bold.ttf", metrics.boldFont)
        let fallback = try addFont("assets/fonts/marquee-fallback.ttf", metrics.fallbackFont)
        if let license = try? Data(contentsOf: metrics.fontLicense) { addUnnamed("assets/fonts/LICENSE.txt", license) }
        if let license = try? Data(contentsOf: metrics.fallbackFontLicense) { addUnnamed("assets/fonts/LICENSE-fallback.txt", license) }

        // Font URLs in the stylesheet are relative to the stylesheet's folder (assets/).
        func relative(_ path: String) -> String { String(path.dropFirst("assets/".count)) }
        let generated = ThemeStylesheet.css(
            for: metrics, regularFont: relative(regular), boldFont: relative(bold), fallbackFont: relative(fallback))
        let themeCSS = themeFiles["assets/marquee.css"].map { String(decoding: $0, as: UTF8.self) } ?? ""
        let stylesheet = add("assets/marquee.css", Data((generated + "\n" + themeCSS).utf8))
        let script = add("assets/marquee.js", themeFiles["assets/marquee.js"] ?? Data())
        let filterScript = add("assets/filter.js", themeFiles["assets/filter.js"] ?? Data())
        for (path, data) in themeFiles where !["assets/marquee.css", "assets/marquee.js", "assets/filter.js"].contains(path) {
            addUnnamed(path, data)
        }
        return ThemeAssets(
            files: files, stylesheet: stylesheet, script: script, filterScript: filterScript, regularFont: regular, boldFont: bold,
            fallbackFont: fallback)
    }

    /// `assets/marquee.css` → `assets/marquee.1a2b3c4d.css`, the digits those of `digest`, the
    /// file's ``StableHasher`` value.
    static func fingerprinted(_ path: String, digest: UInt64) -> String {
        let hash = StableHash.hexDigits(digest).prefix(8)
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "\(path).\(hash)" }
        return "\(path[..<dot]).\(hash)\(path[dot...])"
    }
}
