import Foundation

/// Writes the theme's assets: the stylesheet (metrics + theme CSS), the script, the font files
/// with their licence, and the local images items refer to.
public struct AssetWriter: Plugin {
    public let name = "assets"

    static let stylesheetPath = "assets/marquee.css"
    static let scriptPath = "assets/marquee.js"
    static func fontPath(bold: Bool) -> String { bold ? "assets/fonts/marquee-sans-bold.ttf" : "assets/fonts/marquee-sans.ttf" }
    static let fallbackFontPath = "assets/fonts/marquee-fallback.ttf"

    public init() {}

    public func writeOutputs(for items: [Item], into output: OutputSet, in context: BuildContext) throws {
        let theme = context.theme
        let themeCSS = theme.assets["assets/marquee.css"].map { String(decoding: $0, as: UTF8.self) } ?? ""
        try output.add(Self.stylesheetPath, text: ThemeStylesheet.css(for: theme.metrics) + "\n" + themeCSS)
        for (path, data) in theme.assets where path != "assets/marquee.css" {
            try output.add(path, data)
        }
        try output.add(Self.fontPath(bold: false), try read(theme.metrics.regularFont))
        try output.add(Self.fontPath(bold: true), try read(theme.metrics.boldFont))
        try output.add(Self.fallbackFontPath, try read(theme.metrics.fallbackFont))
        if let license = try? Data(contentsOf: theme.metrics.fontLicense) {
            try output.add("assets/fonts/LICENSE.txt", license)
        }
        if let license = try? Data(contentsOf: theme.metrics.fallbackFontLicense) {
            try output.add("assets/fonts/LICENSE-fallback.txt", license)
        }
        for (source, sitePath) in context.localAssets.files {
            try output.add(sitePath, try read(source))
        }
    }

    private func read(_ file: URL) throws(BuildError) -> Data {
        do {
            return try Data(contentsOf: file)
        } catch {
            throw BuildError(file: file.path, "cannot read this file for the site (\(error.localizedDescription)).")
        }
    }
}
