// swift-tools-version: 6.1
import PackageDescription

// A site defined in Swift: it depends on MarqueeKit by path and adds two plugins of its own.
let package = Package(
    name: "CustomSite",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Marquee", path: "../.."),
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
    ],
    targets: [
        .target(
            name: "CustomSitePlugins",
            dependencies: [
                .product(name: "MarqueeKit", package: "Marquee"),
                .product(name: "SwiftCSV", package: "SwiftCSV"),
            ]),
        .executableTarget(name: "custom-site", dependencies: ["CustomSitePlugins"]),
        .testTarget(name: "CustomSiteTests", dependencies: ["CustomSitePlugins"]),
    ]
)
