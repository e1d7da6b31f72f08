import Foundation

/// What a URL in a description is used for; images allow fewer schemes than links.
package enum URLRole: Sendable {
    case link, image
}

/// Decides which URLs may appear in generated pages and makes relative ones absolute.
package enum URLPolicy {
    /// Schemes a link may use.
    package static let linkSchemes: Set<String> = ["http", "https", "mailto"]
    /// Schemes an image may use.
    package static let imageSchemes: Set<String> = ["http", "https"]

    /// Strips what browsers ignore in URLs (leading/trailing spaces and control characters,
    /// tabs and newlines anywhere), so that `java\tscript:` is seen as `javascript:`.
    package static func clean(_ raw: String) -> String {
        // Most URLs have nothing to strip.
        if let first = raw.utf8.first, let last = raw.utf8.last, first > 0x20, last > 0x20,
           !raw.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return raw
        }
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars where scalar != "\t" && scalar != "\n" && scalar != "\r" {
            scalars.append(scalar)
        }
        let cleaned = String(scalars)
        return cleaned.trimmingCharacters(in: CharacterSet(charactersIn: "\u{0}"..."\u{20}"))
    }

    /// The lowercased scheme of `url`, or nil for a relative URL.
    package static func scheme(of url: String) -> String? {
        var length = 0
        for byte in url.utf8 {
            if byte == UInt8(ascii: ":") {
                return length == 0 ? nil : String(decoding: url.utf8.prefix(length), as: UTF8.self).lowercased()
            }
            let lowered = byte | 0x20
            let isLetter = lowered >= UInt8(ascii: "a") && lowered <= UInt8(ascii: "z")
            let isOther = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isLetter || (length > 0 && isOther) else { return nil }
            length += 1
        }
        return nil
    }

    /// `url` as it may stand in a page: unchanged when Foundation parses it, else percent-encoded.
    private static func encoded(_ url: String) -> String? {
        // Made only of characters that percent-encoding keeps: both ways give `url` itself, so
        // there is no need to parse it (the costly part).
        if url.utf8.allSatisfy({ $0 < 0x80 && keptByEncoding[Int($0)] }) { return url }
        return URL(string: url) != nil ? url : url.addingPercentEncoding(withAllowedCharacters: encodingKeeps)
    }

    private static let encodingKeeps = CharacterSet.urlFragmentAllowed.union(["#", "%"])
    private static let keptByEncoding: [Bool] = (0..<128).map { encodingKeeps.contains(Unicode.Scalar(UInt8($0))) }

    /// Resolves a URL found in untrusted web content: absolute http(s)/mailto URLs pass, relative
    /// ones are resolved against `base` (an http(s) URL), everything else is refused (nil).
    package static func resolveWeb(_ raw: String, role: URLRole, base: URL?) -> String? {
        let url = clean(raw)
        guard !url.isEmpty else { return nil }
        if let scheme = scheme(of: url) {
            let allowed = role == .image ? imageSchemes : linkSchemes
            guard allowed.contains(scheme) else { return nil }
            return encoded(url)
        }
        if url.hasPrefix("#"), role == .link { return url }
        guard let base, let baseScheme = base.scheme?.lowercased(), baseScheme == "http" || baseScheme == "https" else {
            return nil
        }
        guard let resolved = URL(string: encoded(url) ?? url, relativeTo: base)?.absoluteString,
              let resolvedScheme = scheme(of: resolved), resolvedScheme == "http" || resolvedScheme == "https"
        else { return nil }
        return resolved
    }
}
