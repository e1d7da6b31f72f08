import Foundation

/// Writes the theme's assets (fingerprinted stylesheet, scripts, fonts and their licences) and the
/// local images items refer to.
public struct AssetWriter: Plugin {
    public let name = "assets"
    /// Loads no items.
    public func itemFiles(in context: BuildContext) -> [URL]? { [] }

    /// Creates the plugin with its default settings.
    public init() {}

    public func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws {
        for (path, data) in context.theme.assets.files {
            try output.add(path, data)
        }
        for (source, sitePath) in context.localAssets.files {
            guard let data = try? Data(contentsOf: source) else {
                throw BuildError(file: context.displayPath(source), "cannot read this image for the site.")
            }
            try output.add(sitePath, data)
        }
    }
}
