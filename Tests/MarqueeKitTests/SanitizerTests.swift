import Foundation
import Testing
@testable import MarqueeKit

@Suite("Sanitizer")
struct SanitizerTests {
    let sanitizer = HTMLSanitizer(base: URL(string: "https://example.org/feed/"))

    @Test func removesScriptsHandlersAndDangerousURLs() {
        let html = sanitizer.sanitize(#"""
            <p onclick="steal()">Hi<script>alert(1)</script><style>p{}</style></p>
            <a href="javascript:alert(1)">x</a><a href=" JaVa&#x09;ScRiPt:alert(1)">y</a>
            <img src=x onerror=alert(1)><img src="data:image/svg+xml,<svg onload=alert(1)>">
            <iframe src="https://evil.example"></iframe><form action="/x"><input name=a>text</form>
            <a href="vbscript:msgbox">v</a><svg><script>alert(1)</script></svg>
            """#)
        #expect(!html.contains("script"))
        #expect(!html.contains("onclick"))
        #expect(!html.contains("onerror"))
        #expect(!html.lowercased().contains("javascript"))
        #expect(!html.contains("data:"))
        #expect(!html.contains("iframe"))
        #expect(!html.contains("<form"))
        #expect(!html.contains("vbscript"))
        #expect(html.contains("<p>Hi</p>"))
        #expect(html.contains("text"))
        #expect(html.contains("<img src=\"https://example.org/feed/x\""))
    }

    @Test func resolvesRelativeURLsAndMarksLinks() {
        let html = sanitizer.sanitize(#"<a href="../about">about</a> <img src="/a.png" width="10" height="x">"#)
        #expect(html.contains(#"<a href="https://example.org/about" rel="noopener nofollow ugc">about</a>"#))
        #expect(html.contains(#"src="https://example.org/a.png" width="10" alt="" loading="lazy""#))
        #expect(!html.contains("height"))
    }

    @Test func headingsBecomeBoldParagraphsAndTextIsEscaped() {
        #expect(sanitizer.sanitize("<h1>Big</h1>") == "<p><strong>Big</strong></p>")
        #expect(sanitizer.sanitize("1 &lt; 2 &amp; 3") == "1 &lt; 2 &amp; 3")
        #expect(sanitizer.sanitize("<font color=red>kept text</font>") == "kept text")
    }
}
