import Foundation
import PackagePlugin

/// Turns every file under the package's `Templates/` folder into a Swift source file in
/// MarqueeKit, so the default theme travels inside the binary.
@main
struct EmbedThemePlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let templates = context.package.directoryURL.appending(path: "Templates")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTheme.swift")
        var inputs: [URL] = []
        if let walker = FileManager.default.enumerator(at: templates, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let file as URL in walker where (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                inputs.append(file)
            }
        }
        return [
            .buildCommand(
                displayName: "Embedding the default theme from Templates/",
                executable: try context.tool(named: "embed-theme").url,
                arguments: [templates.path, output.path],
                inputFiles: inputs.sorted { $0.path < $1.path },
                outputFiles: [output])
        ]
    }
}
