import CustomSitePlugins
import Foundation
import MarqueeKit

// custom-site [OUTPUT]: builds the example site (this package's folder) into OUTPUT or ./Site.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let output = CommandLine.arguments.dropFirst().first.map { URL(fileURLWithPath: $0) }
do {
    let site = try CustomSite.make(root: root, output: output)
    let report = try await SiteBuilder(site: site) { print($0) }.build()
    print(report.summary(relativeTo: root))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
