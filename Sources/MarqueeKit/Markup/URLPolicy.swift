import Foundation

/// What a URL in a description is used for; images allow fewer schemes than links.
public enum URLRole: Sendable {
    case link, image
}

/// Decides which URLs may appear in generated pages and makes relative ones absolute.
public enum URLPolicy {
    /// Schemes a link may use.
    public static let linkSchemes: Set<String> = ["http", "https", "mailto"]
    /// Schemes an image may use.
    public static let imageSchemes: Set<String> = ["http", "https"]

    /// Strips what browsers ignore in URLs (leading/trailing spaces and control characters,
    /// tabs and newlines anywhere), so that `java\tscript:` is seen as `javascript:`.
    public static func clean(_ raw: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars where scalar != "\t" && scalar != "\n" && scalar != "\r" {
            scalars.append(scalar)
        }
        let cleaned = String(scalars)
        return cleaned.trimmingCharacters(in: CharacterSet(charactersIn: "\u{0}"..."\u{20}"))
    }

    /// The lowercased scheme of `url`, or nil for a relative URL.
    public static func scheme(of url: String) -> String? {
        var scheme = ""
        for scalar in url.unicodeScalars {
            if scalar == ":" { return scheme.isEmpty ? nil : scheme.lowercased() }
            let isLetter = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            let isOther = ("0"..."9").contains(scalar) || scalar == "+" || scalar == "-" || scalar == "."
            if isLetter || (!scheme.isEmpty && isOther) {
                scheme.unicodeScalars.append(scalar)
            } else {
                return nil
            }
        }
        return nil
    }

    /// Resolves a URL found in untrusted web content: absolute http(s)/mailto URLs pass, relative
    /// ones are resolved against `base` (an http(s) URL), everything else is refused (nil).
    public static func resolveWeb(_ raw: String, role: URLRole, base: URL?) -> String? {
        let url = clean(raw)
        guard !url.isEmpty else { return nil }
        if let scheme = scheme(of: url) {
            let allowed = role == .image ? imageSchemes : linkSchemes
            guard allowed.contains(scheme) else { return nil }
            return URL(string: url) != nil ? url : url.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.union(["#", "%"]))
        }
        if url.hasPrefix("#"), role == .link { return url }
        guard let base, let baseScheme = base.scheme?.lowercased(), baseScheme == "http" || baseScheme == "https" else {
            return nil
        }
        let encoded = URL(string: url) != nil ? url : (url.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.union(["#", "%"])) ?? url)
        guard let resolved = URL(string: encoded, relativeTo: base)?.absoluteString,
              let resolvedScheme = scheme(of: resolved), resolvedScheme == "http" || resolvedScheme == "https"
        else { return nil }
        return resolved
    }
}
