import Foundation

/// A description in the form its source gave it.
public enum Markup: Sendable, Equatable {
    /// CommonMark, rendered by cmark in safe mode. Relative URLs resolve against `base`.
    case markdown(String, base: URL?)
    /// HTML from an untrusted source, sanitized against an allow-list. Relative URLs resolve against `base`.
    case html(String, base: URL?)
    /// Plain text, escaped.
    case text(String)
}
