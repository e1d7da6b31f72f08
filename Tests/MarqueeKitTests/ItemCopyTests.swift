import Foundation
import Testing
@testable import MarqueeKit

@Suite("Item copies", .removesTemporaryFolders)
struct ItemCopyTests {
    @Test func copiesAreIndependent() {
        var original = Item(id: "a", source: "s", title: "Arrival", body: .text("x"), tags: ["one"])
        let copy = original
        original.title = "Changed"
        original.tags.append("two")
        original.metadata[Minutes.self] = 3
        #expect(copy.title == "Arrival" && copy.tags == ["one"] && copy.metadata[Minutes.self] == nil)
        #expect(original.title == "Changed" && original.tags == ["one", "two"] && original.metadata[Minutes.self] == 3)
        var items = [copy, copy]
        items[1].slug = "second"
        #expect(items[0].slug == "" && items[1].slug == "second" && copy.slug == "")
    }

    enum Minutes: ItemMetadataKey { typealias Value = Int }

    /// The digests an item carries from the stage that made its text stand for that text only
    /// while it is unchanged: a plugin that rewrites the HTML or the body after them gets the
    /// new text's digest, so its pages are rendered again and its memo keys are new.
    @Test func carriedDigestsFollowTheirText() throws {
        let folder = try TestSupport.temporaryFolder()
        let context = BuildContext(root: folder, config: SiteConfig(title: "T"), theme: try Theme.load(siteRoot: folder), memo: BuildMemo())
        var items = [
            Item(id: "a", source: "s", title: "A", body: .markdown("Same *text*", base: nil)),
            Item(id: "b", source: "s", title: "A", body: .markdown("Same *text*", base: nil)),
            Item(id: "c", source: "s", title: "A", body: .markdown("Other text", base: nil)),
        ]
        _ = BuildState.fingerprint(items: &items, contentStamps: "", environment: "")
        let recorded = items.map(\.bodyDigest)
        #expect(recorded[0] == recorded[1] && recorded[0] != recorded[2])
        try MarkupPlugin().transformItems(&items, in: context)
        #expect(items[0].bodyHTML == items[1].bodyHTML && items[0].bodyHTMLDigest == items[1].bodyHTMLDigest)
        #expect(items[0].bodyHTMLDigest != items[2].bodyHTMLDigest)

        // A plugin rewriting the HTML: the digest is the new text's, equal for equal texts.
        var rewritten = items
        rewritten[0].bodyHTML += "<p>more</p>"
        rewritten[1].bodyHTML += "<p>more</p>"
        #expect(rewritten[0].bodyHTMLDigest != items[0].bodyHTMLDigest)
        #expect(rewritten[0].bodyHTMLDigest == rewritten[1].bodyHTMLDigest)
        #expect(PageWriter.digests(of: rewritten)[0] != PageWriter.digests(of: items)[0])
        #expect(items[0].bodyHTMLDigest == items[1].bodyHTMLDigest, "copies keep their own digests")

        // A plugin replacing the body: its recorded digest goes, and the markup stage renders the new body.
        var replaced = items
        replaced[0].body = .markdown("Replaced", base: nil)
        #expect(replaced[0].bodyDigest != recorded[0])
        try MarkupPlugin().transformItems(&replaced, in: context)
        #expect(replaced[0].bodyHTML.contains("Replaced") && replaced[0].bodyHTMLDigest != items[0].bodyHTMLDigest)
    }
}
