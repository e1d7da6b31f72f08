import Crypto
import Foundation

/// The Content Security Policy of every page: given in each page's `<meta http-equiv>` and in
/// `_headers`, which Netlify and Cloudflare Pages send as HTTP headers.
///
/// Scripts run only from the site's own files and as the layout's inline scripts, each allowed
/// by its SHA-256 hash, so that no script a feed smuggles past the sanitizer could run. Images
/// may come from any web address: feeds' images are linked where they are. Styles allow inline
/// attributes, which the cells use for their sizes.
struct ContentSecurityPolicy: Sendable {
    /// The policy, as a header's value.
    let value: String

    /// The policy for pages made with `layout` (the layout template's text), whose inline
    /// scripts are hashed as written: they must hold no Mustache tags.
    init(layout: String) {
        let hashes = Self.inlineScripts(in: layout).map { "'sha256-" + Self.sha256(of: $0).base64EncodedString() + "'" }
        value = [
            "default-src 'self'",
            (["script-src 'self'"] + hashes).joined(separator: " "),
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' https: http: data:",
            "font-src 'self'",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
        ].joined(separator: "; ")
    }

    /// The SHA-256 digest of `text`'s UTF-8 bytes.
    static func sha256(of text: String) -> Data {
        Data(SHA256.hash(data: Data(text.utf8)))
    }

    /// The texts of the `<script>` elements of `html` that have no `src`.
    static func inlineScripts(in html: String) -> [String] {
        var scripts: [String] = []
        var rest = html[...]
        while let open = rest.range(of: "<script"), let tagEnd = rest[open.upperBound...].firstIndex(of: ">"),
              let close = rest[tagEnd...].range(of: "</script>") {
            let attributes = rest[open.upperBound..<tagEnd]
            if !attributes.contains("src=") { scripts.append(String(rest[rest.index(after: tagEnd)..<close.lowerBound])) }
            rest = rest[close.upperBound...]
        }
        return scripts
    }

    /// `_headers`: the policy for every path of the site.
    var headersFile: String {
        "/*\n  Content-Security-Policy: \(value)\n  X-Content-Type-Options: nosniff\n"
    }
}
