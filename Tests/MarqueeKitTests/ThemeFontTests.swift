import Foundation
import Testing
@testable import MarqueeKit

@Suite("Theme fonts", .removesTemporaryFolders)
struct ThemeFontTests {
    /// Replaces the file's bytes keeping its inode (truncate and write, as `cp` onto it does).
    static func rewriteInPlace(_ file: URL, with data: Data) throws {
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: data)
        try handle.close()
    }

    /// Fonts are read once per process; a font rewritten in place (as `cp` does) between two
    /// builds of one process (`marquee serve`) is read again, even when it shrank.
    @Test func aFontRewrittenInPlaceIsReadAgain() throws {
        let regular = try Data(contentsOf: ThemeMetrics().regularFont)
        let bold = try Data(contentsOf: ThemeMetrics().boldFont)
        let font = try TestSupport.temporaryFolder().appending(path: "font.ttf")
        func rewrite(_ data: Data) throws { try Self.rewriteInPlace(font, with: data) }
        try regular.write(to: font)
        let fonts = FontCache.shared
        #expect(try fonts.bytes(of: font) == regular)
        let regularM = try fonts.metrics(for: font).advance(of: "M", size: 15)

        try rewrite(bold)
        #expect(try fonts.bytes(of: font) == bold)
        let boldM = try fonts.metrics(for: font).advance(of: "M", size: 15)
        #expect(regularM != nil && boldM != nil && regularM != boldM)

        try rewrite(Data("not a font".utf8))
        #expect(try fonts.bytes(of: font) == Data("not a font".utf8))
        #expect(throws: BuildError.self) { try fonts.metrics(for: font) }
    }

    /// A plugin that rewrites a font asset's bytes changes neither the file nor what the layout
    /// engine measures with.
    @Test func aFontAssetChangedInPlaceLeavesTheFontAlone() throws {
        let regular = try Data(contentsOf: ThemeMetrics().regularFont)
        let font = try TestSupport.temporaryFolder().appending(path: "font.ttf")
        try regular.write(to: font)
        let fonts = FontCache.shared
        let measured = try fonts.metrics(for: font).advance(of: "M", size: 15)

        var asset = try fonts.bytes(of: font)
        _ = asset.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
        #expect(asset.count == regular.count && asset.allSatisfy { $0 == 0 })

        #expect(try Data(contentsOf: font) == regular)
        #expect(try fonts.bytes(of: font) == regular)
        #expect(try fonts.metrics(for: font).advance(of: "M", size: 15) == measured)
    }

    /// Line counts remembered from the last build are not reused once the CJK fallback font was
    /// rewritten in place (same path, other glyphs): the layout memo's key holds the fonts'
    /// contents, not only their paths.
    @Test func theLayoutMemoSeesAFallbackFontRewrittenInPlace() throws {
        let folder = try TestSupport.temporaryFolder()
        let fallback = folder.appending(path: "fallback.ttf")
        let memoFile = folder.appending(path: "site.memo")
        try Data(contentsOf: ThemeMetrics().fallbackFont).write(to: fallback)
        var metrics = ThemeMetrics()
        metrics.fallbackFont = fallback
        func layOut(with memo: BuildMemo) throws -> CellPlan? {
            let theme = try Theme.load(siteRoot: folder, metrics: metrics)
            let context = BuildContext(root: folder, config: SiteConfig(title: "T"), theme: theme, memo: memo)
            var items = [Item(id: "1", source: "s", title: "日本語の題名", body: .text(String(repeating: "漢字と仮名の文。", count: 40)))]
            try MarkupPlugin().transformItems(&items, in: context)
            try LayoutPlugin().layOutItems(&items, in: context)
            return items[0].cell
        }
        let memo = BuildMemo(file: memoFile)
        let measuredFirst = try layOut(with: memo)
        memo.save()

        // DejaVu Sans has no CJK glyphs: with it as the fallback the same text is estimated.
        try Self.rewriteInPlace(fallback, with: try Data(contentsOf: ThemeMetrics().regularFont))
        let measuredAgain = try layOut(with: BuildMemo())
        #expect(measuredFirst != nil && measuredAgain != measuredFirst, "the rewritten font does not change the plan")
        #expect(try layOut(with: BuildMemo(file: memoFile)) == measuredAgain, "the plan came from the memo, measured with the old font")
    }
}
