import Foundation

/// Text describing a value that is the same in every process, for comparing settings between
/// builds. `String(describing:)` is not: it lists a dictionary's or a set's entries in an order
/// that changes with each process's hash seed. Here such entries are sorted by their own
/// descriptions; everything else is described field by field, through reflection, so a field
/// added to a type later is covered without anyone remembering to add it.
enum StableDescription {
    static func of(_ value: Any) -> String {
        // The commonest leaves by their own types, as the general cases below would describe
        // them: a cast to a protocol there makes the runtime search every conformance of this
        // large program the first time it meets a type, on every build's start.
        switch value {
        case let text as String: return text.debugDescription
        case let number as Int: return String(number)
        case let number as Double: return number.debugDescription
        case let flag as Bool: return flag ? "true" : "false"
        case let url as URL: return url.description.debugDescription
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .dictionary?, .set?:
            return "[" + mirror.children.map { of($0.value) }.sorted().joined(separator: ", ") + "]"
        case .collection?:
            return "[" + mirror.children.map { of($0.value) }.joined(separator: ", ") + "]"
        case .optional?:
            return mirror.children.first.map { of($0.value) } ?? "nil"
        case .struct?, .class?, .enum?, .tuple?:
            let fields = mirror.children.map { ($0.label.map { $0 + ": " } ?? "") + of($0.value) }
            // Types that show nothing to reflection but describe themselves are taken at their
            // word, quoted like strings. (Asked only of those: each type's first such cast is a
            // search of every conformance of this program, for each of the settings' types on
            // every build's start.)
            if fields.isEmpty, mirror.displayStyle != .tuple, let described = value as? any CustomStringConvertible {
                return String(reflecting: described.description)
            }
            if mirror.displayStyle == .enum && fields.isEmpty { return String(describing: value) }
            return "\(mirror.subjectType)(" + fields.joined(separator: ", ") + ")"
        default:
            // Strings (quoted and escaped, so that no text can pass for the punctuation around
            // it), numbers, booleans and other leaves.
            return String(reflecting: value)
        }
    }
}
