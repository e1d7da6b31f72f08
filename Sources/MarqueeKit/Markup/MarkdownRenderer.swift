import CCmark
import Foundation

/// Renders CommonMark to HTML with libcmark in its safe mode: raw HTML is omitted and
/// `javascript:`, `vbscript:`, `file:` and most `data:` URLs are emptied by cmark itself.
package enum MarkdownRenderer {
    /// Renders `markdown`; every link and image URL is passed through `resolve` first (return
    /// nil to drop the URL, leaving the text).
    package static func render(_ markdown: String, smartPunctuation: Bool = true, resolve: (String, URLRole) -> String?) -> String {
        render(markdown, smartPunctuation: smartPunctuation, readingTextBlocks: false, resolve: resolve).html
    }

    /// Renders `markdown` as ``render(_:smartPunctuation:resolve:)`` does and reads its text
    /// blocks as ``textBlocks(of:smartPunctuation:)`` does, from one parse (cmark's parsing is
    /// most of the work of either).
    package static func renderWithTextBlocks(
        _ markdown: String, smartPunctuation: Bool = true, resolve: (String, URLRole) -> String?
    ) -> (html: String, textBlocks: [TextBlock]?) {
        render(markdown, smartPunctuation: smartPunctuation, readingTextBlocks: true, resolve: resolve)
    }

    private static func render(
        _ markdown: String, smartPunctuation: Bool, readingTextBlocks: Bool, resolve: (String, URLRole) -> String?
    ) -> (html: String, textBlocks: [TextBlock]?) {
        parse(markdown, options: options(smartPunctuation)) { document in
            guard let document else { return ("", readingTextBlocks ? [] : nil) }
            // Read before the URLs are rewritten, so that the blocks are exactly those of a parse of their own.
            let blocks = readingTextBlocks ? MarkdownTree.textBlocks(of: document) : nil
            rewriteURLs(in: document, resolve: resolve)
            guard let html = cmark_render_html(document, options(smartPunctuation)) else { return ("", blocks) }
            return (String(cString: html), blocks)
        }
    }

    /// The blocks of text in the HTML that ``render(_:smartPunctuation:resolve:)`` makes of
    /// `markdown`, whatever its URLs resolve to: read from cmark's tree, much faster than parsing
    /// the HTML. Nil when the tree nests too deep to read (parse the HTML instead).
    ///
    /// URLs do not matter: a refused link keeps its text, and images have no text.
    package static func textBlocks(of markdown: String, smartPunctuation: Bool = true) -> [TextBlock]? {
        parse(markdown, options: options(smartPunctuation)) { document in
            guard let document else { return [] }
            return MarkdownTree.textBlocks(of: document)
        }
    }

    private static func options(_ smartPunctuation: Bool) -> Int32 {
        CMARK_OPT_VALIDATE_UTF8 | (smartPunctuation ? CMARK_OPT_SMART : 0)
    }

    /// Parses `markdown` and runs `body` with the document (nil if cmark fails). The document,
    /// and everything cmark makes from it, lives in this thread's ``CmarkArena`` until `body`
    /// returns.
    private static func parse<Result>(_ markdown: String, options: Int32, _ body: (OpaquePointer?) -> Result) -> Result {
        CmarkArena.withAllocator { allocator in
            guard let parser = cmark_parser_new_with_mem(options, allocator) else { return body(nil) }
            var markdown = markdown
            markdown.withUTF8 { buffer in
                buffer.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
            }
            let document = cmark_parser_finish(parser)
            cmark_parser_free(parser)
            return body(document)
        }
    }

    /// Resolves every link and image URL. A link whose URL is refused becomes its plain text;
    /// a refused image is removed (no `href=""` or `src=""` reaches the page).
    private static func rewriteURLs(in document: OpaquePointer, resolve: (String, URLRole) -> String?) {
        var refused: [OpaquePointer] = []
        if let iterator = cmark_iter_new(document) {
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE else { continue }
                let raw = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                if let resolved = resolve(raw, type == CMARK_NODE_IMAGE ? .image : .link), !resolved.isEmpty {
                    if resolved != raw { cmark_node_set_url(node, resolved) }
                } else {
                    refused.append(node)
                }
            }
            cmark_iter_free(iterator)
        }
        // Changed after the walk: the iterator must not see a tree being edited.
        for node in refused.reversed() {  // innermost first, so no freed node is touched again
            if cmark_node_get_type(node) == CMARK_NODE_LINK {
                while let child = cmark_node_first_child(node) {
                    cmark_node_insert_before(node, child)
                }
            }
            cmark_node_unlink(node)
            cmark_node_free(node)
        }
    }
}
