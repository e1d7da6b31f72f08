import Foundation

/// One entry of a source's `include:` or `exclude:` list: a word, matched whole and regardless of
/// case (`sponsored` matches "Sponsored post" but not "unsponsored"), or a regular expression
/// between slashes (`/^Ad:/`, with `(?i)` inside to ignore case), matched anywhere.
package struct ItemPattern: Sendable, Equatable {
    /// The entry as written in the configuration.
    package let text: String

    /// Reads an entry; throws the reason when a regular expression does not compile.
    package init(_ text: String) throws {
        self.text = text
        _ = try regex()
    }

    /// The regular expression between the slashes, when the entry is one. (Compiled where it is
    /// used: a compiled `Regex` cannot be shared between threads.)
    private func regex() throws -> Regex<AnyRegexOutput>? {
        guard text.count >= 2, text.hasPrefix("/"), text.hasSuffix("/") else { return nil }
        return try Regex(String(text.dropFirst().dropLast()))
    }

    /// A test of whether a title, tag or author matches.
    package func matcher() -> (String) -> Bool {
        if let regex = try? regex() { return { $0.contains(regex) } }
        let word = text
        return { candidate in
            var searched = candidate.startIndex..<candidate.endIndex
            while let found = candidate.range(of: word, options: [.caseInsensitive], range: searched) {
                let before = found.lowerBound == candidate.startIndex ? nil : candidate[candidate.index(before: found.lowerBound)]
                let after = found.upperBound == candidate.endIndex ? nil : candidate[found.upperBound]
                if !Self.isWordCharacter(before) && !Self.isWordCharacter(after) { return true }
                searched = candidate.index(after: found.lowerBound)..<candidate.endIndex
            }
            return false
        }
    }

    private static func isWordCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "_"
    }
}
