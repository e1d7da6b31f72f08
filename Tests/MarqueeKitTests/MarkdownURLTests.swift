import Foundation
import Testing
@testable import MarqueeKit

@Suite("Markdown URLs")
struct MarkdownURLTests {
    @Test func refusedLinksBecomeTextAndRefusedImagesDisappear() {
        let html = MarkdownRenderer.render("[bad](javascript:x) ![img](javascript:y) ![![inner](javascript:a)](javascript:b) [ok](https://e.org)") { url, role in
            URLPolicy.resolveWeb(url, role: role, base: nil)
        }
        #expect(html == "<p>bad   <a href=\"https://e.org\">ok</a></p>\n")
    }

    /// The fast paths (nothing to strip, nothing to encode) give what the general ones give.
    @Test(arguments: [
        "https://e.org/a?b=c&d=e#f", " https://e.org/x ", "java\tscript:alert(1)", "JAVASCRIPT:alert(1)", "\u{0}https://e.org",
        "https://e.org/a b", "https://e.org/é", "https://e.org/%zz", "https://e.org/a#b#c", "https://e.org/[x]", "mailto:a@b.org",
        "HTTPS://E.ORG/A", "data:image/png;base64,AA", "/rooted/path", "relative/path?q=1", "../up", "#anchor", "//e.org/x",
        "h\u{0301}ttp://e.org", "1http://x", "", " ", "https://e.org/\u{2028}",
    ])
    func urlChecksAgreeWithTheGeneralPath(_ raw: String) {
        let base = URL(string: "https://feeds.example.org/blog/post.html")
        for role in [URLRole.link, .image] {
            for base in [base, nil] {
                #expect(URLPolicy.resolveWeb(raw, role: role, base: base) == Self.reference(raw, role: role, base: base))
            }
        }
    }

    /// The URL rules spelled out with no shortcut, as the oracle for the test above.
    static func reference(_ raw: String, role: URLRole, base: URL?) -> String? {
        let url = String(String.UnicodeScalarView(raw.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }))
            .trimmingCharacters(in: CharacterSet(charactersIn: "\u{0}"..."\u{20}"))
        guard !url.isEmpty else { return nil }
        let keeps = CharacterSet.urlFragmentAllowed.union(["#", "%"])
        let colon = url.firstIndex(of: ":")
        let candidate = colon.map { String(url[..<$0]) } ?? ""
        let isScheme = colon != nil && candidate.first.map { $0.isASCII && $0.isLetter } == true
            && candidate.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        if isScheme {
            guard (role == .image ? ["http", "https"] : ["http", "https", "mailto"]).contains(candidate.lowercased()) else { return nil }
            return URL(string: url) != nil ? url : url.addingPercentEncoding(withAllowedCharacters: keeps)
        }
        if url.hasPrefix("#"), role == .link { return url }
        guard let base, ["http", "https"].contains(base.scheme?.lowercased() ?? "") else { return nil }
        let encoded = URL(string: url) != nil ? url : (url.addingPercentEncoding(withAllowedCharacters: keeps) ?? url)
        guard let resolved = URL(string: encoded, relativeTo: base)?.absoluteString,
              let scheme = resolved.split(separator: ":").first?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        return resolved
    }
}
