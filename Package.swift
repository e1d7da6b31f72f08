// swift-tools-version: 6.1
import PackageDescription

// scripts/sanitize sets MARQUEE_SANITIZE to `thread` or `address`. Marquee's own modules are then
// compiled with that sanitizer, and the dependencies keep the plain objects already in the build
// folder. (SwiftPM's `--sanitize` compiles every dependency again for each sanitizer, and
// compiling NIO, BoringSSL and the rest three times was most of what the test suite cost.)
let sanitizer = Context.environment["MARQUEE_SANITIZE"].flatMap { ["thread", "address"].contains($0) ? $0 : nil }
let sanitizing: [SwiftSetting] = sanitizer.map { [.unsafeFlags(["-sanitize=\($0)"])] } ?? []
let linkingSanitizer: [LinkerSetting] = sanitizer.map { [.unsafeFlags(["-sanitize=\($0)"])] } ?? []

let package = Package(
    name: "Marquee",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "marquee", targets: ["marquee"]),
        .library(name: "MarqueeKit", targets: ["MarqueeKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // C libraries from Debian: libcmark-dev (Markdown), libgumbo-dev (HTML5 parsing) and libvips42.
        .systemLibrary(name: "CCmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
        .systemLibrary(name: "CGumbo", pkgConfig: "gumbo", providers: [.apt(["libgumbo-dev"])]),
        // libvips (libvips42): decoding, resizing and encoding images (AVIF through libheif, SVG
        // through librsvg). Opened when the first image is processed, not linked (see CVips.h).
        .target(name: "CVips"),
        // glibc's <malloc.h>, for tuning the allocator in the command-line tool.
        .systemLibrary(name: "CMalloc"),

        // Embeds the default theme (Templates/) into MarqueeKit at build time, so the
        // `marquee` binary works from any folder without the repository beside it.
        .executableTarget(name: "embed-theme", path: "Sources/EmbedTheme"),
        .plugin(
            name: "EmbedThemePlugin", capability: .buildTool(),
            dependencies: ["embed-theme"], path: "Sources/EmbedThemePlugin"),

        .target(
            name: "MarqueeKit",
            dependencies: [
                "CCmark", "CGumbo", "CVips",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: sanitizing,
            linkerSettings: linkingSanitizer,
            plugins: ["EmbedThemePlugin"]),
        // `marquee serve`: the preview server with live reload, and `marquee deploy`.
        .target(
            name: "MarqueeServer",
            dependencies: [
                "MarqueeKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: sanitizing),
        .executableTarget(
            name: "marquee",
            dependencies: [
                "MarqueeKit", "MarqueeServer", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: sanitizing,
            // The Swift toolchain exports every public symbol of an executable (35,000 here,
            // NIO and BoringSSL included), and the runtime's start-up `dladdr` reads them all:
            // on every `marquee` run. Nothing looks the program's symbols up by name. (Still a
            // position-independent executable, which keeps address randomisation.)
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux], configuration: .release))]),
        // Fuzz targets: scripts/fuzz builds them with libFuzzer; a normal build replays saved
        // inputs (Tests/FuzzRegressions) instead.
        .executableTarget(name: "marquee-fuzz", dependencies: ["MarqueeKit"], swiftSettings: sanitizing),
        .testTarget(
            name: "MarqueeKitTests",
            dependencies: [
                "MarqueeKit", "MarqueeServer", "CMalloc",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // A real HTTP server on 127.0.0.1 for the fetching tests.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: sanitizing),
    ]
)
