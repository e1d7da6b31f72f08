import Foundation
import Testing
@testable import MarqueeKit

@Suite("Content Security Policy", .removesTemporaryFolders)
struct ContentSecurityPolicyTests {
    /// Inline scripts are found with their exact text; scripts with a `src` are not inline.
    @Test func inlineScriptsAreThoseWithoutSource() {
        let html = #"<script src="a.js" defer></script><script>one()</script><p>x</p><script type="module">two()</script>"#
        #expect(ContentSecurityPolicy.inlineScripts(in: html) == ["one()", "two()"])
        #expect(ContentSecurityPolicy.inlineScripts(in: "<script src=\"a.js\"></script>").isEmpty)
    }

    /// SHA-256 known answers (FIPS 180-2's examples): empty, short and longer than one block.
    @Test func sha256MatchesTheStandardsExamples() {
        func hex(_ text: String) -> String { ContentSecurityPolicy.sha256(of: text).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    /// The default layout's one inline script is allowed by its SHA-256 (the expected value is
    /// Python `hashlib`'s), and scripts are otherwise allowed only from the site itself.
    @Test func theDefaultLayoutsScriptIsAllowedByItsHash() throws {
        let policy = try Theme.load(siteRoot: TestSupport.repository).contentSecurityPolicy.value
        let scripts = try #require(policy.split(separator: ";").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("script-src") })
        #expect(scripts.trimmingCharacters(in: .whitespaces) == "script-src 'self' 'sha256-qOhFsq0QMV2REqNwk5hGH5bZE9SkX6gt6yeyKdYPv+U='")
        #expect(policy.contains("object-src 'none'") && policy.contains("base-uri 'self'"))
    }

    /// Every page carries the policy in its head, before any script, and `_headers` gives the
    /// same policy for every path.
    @Test func pagesAndHeadersCarryThePolicy() async throws {
        let root = try TestSupport.makeFixtureSite()
        _ = try await TestSupport.build(root)
        let policy = try Theme.load(siteRoot: root).contentSecurityPolicy.value
        let meta = #"<meta http-equiv="Content-Security-Policy" content=""# + HTMLEscape.attribute(policy) + #"">"#
        for page in ["index.html", "404.html", "items/arrival/index.html"] {
            let html = try TestSupport.read(root, page)
            let position = try #require(html.range(of: meta), "\(page) has no policy")
            #expect(position.upperBound <= html.range(of: "<script")!.lowerBound, "\(page): the policy comes after a script")
        }
        let headers = try TestSupport.read(root, "_headers")
        #expect(headers.hasPrefix("/*\n  Content-Security-Policy: \(policy)\n"))
    }
}
