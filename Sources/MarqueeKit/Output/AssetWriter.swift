import Foundation

/// Writes the theme's assets (fingerprinted stylesheet, scripts, fonts and their licences) and the
/// local images items refer to.
package struct AssetWriter: Plugin {
    package let name = "assets"
    /// Loads no items.
    package func itemFiles(in context: BuildContext) -> [URL]? { [] }

    /// Creates the plugin with its default settings.
    package init() {}

    /// A file whose digest is the one the last build recorded for it, and whose copy in the
    /// output is untouched, is kept without being read or compared (the fonts alone are 5.5 MB).
    package func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws {
        let assets = context.theme.assets
        for (path, file) in assets.files {
            if output.reuse(path, digest: file.digest) { continue }
            try output.add(path, file.contents.bytes(), digest: file.digest)
        }
        for (source, sitePath) in context.localAssets.files {
            let digest = Self.stampDigest(of: source)
            if let digest, output.reuse(sitePath, digest: digest) { continue }
            guard let data = try? Data(contentsOf: source) else {
                throw BuildError(file: context.displayPath(source), "cannot read this image for the site.")
            }
            try output.add(sitePath, data, digest: digest)
        }
    }

    /// A hash of a local file's ``FileIO/changeStamp(of:)``, taken before it is read: an equal
    /// hash means the same bytes. Nil when the file cannot be read.
    static func stampDigest(of file: URL) -> UInt64? {
        guard let stamp = FileIO.changeStamp(of: file.path) else { return nil }
        var hasher = StableHasher("local-asset")
        hasher.combine(file.path)
        for number in stamp { hasher.combine(number) }
        return hasher.value
    }
}
