import Yams

/// A YAML node with the path and file it came from, for precise errors.
struct ConfigNode {
    let node: Node
    let path: String
    let file: String

    var place: InputPlace? {
        node.mark.map { .lineColumn(line: $0.line, column: $0.column) }
    }

    func error(_ message: String) -> BuildError {
        BuildError(file: file, place: place, (path.isEmpty ? "" : "\(path): ") + message)
    }

    func mapping(allowed: [String]) throws(BuildError) -> [String: ConfigNode] {
        guard case .mapping(let mapping) = node else {
            throw error("expected a mapping of `key: value` lines.")
        }
        var result: [String: ConfigNode] = [:]
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else {
                throw ConfigNode(node: keyNode, path: path, file: file).error("a key must be a single word, not a list or mapping; allowed here: \(allowed.joined(separator: ", ")).")
            }
            let child = ConfigNode(node: value, path: path.isEmpty ? key : "\(path).\(key)", file: file)
            guard allowed.contains(key) else {
                throw ConfigNode(node: keyNode, path: path, file: file)
                    .error("unknown key \(Self.excerpt(key)); allowed here: \(allowed.joined(separator: ", ")).")
            }
            result[key] = child
        }
        return result
    }

    /// `text` quoted for an error message, cut to its first 60 characters: a message quotes
    /// the offending value, not a whole file.
    static func excerpt(_ text: String) -> String {
        text.count <= 60 ? text.debugDescription : String(text.prefix(60)).debugDescription.dropLast() + "…\""
    }

    func sequence() throws(BuildError) -> [ConfigNode] {
        guard case .sequence(let sequence) = node else {
            throw error("expected a list (lines starting with `- `).")
        }
        return sequence.enumerated().map { ConfigNode(node: $1, path: "\(path)[\($0)]", file: file) }
    }

    func string() throws(BuildError) -> String {
        guard case .scalar(let scalar) = node else { throw error("expected a single value.") }
        return scalar.string
    }

    func int(in range: ClosedRange<Int>) throws(BuildError) -> Int {
        guard case .scalar(let scalar) = node, let value = Int(scalar.string) else {
            throw error("expected a whole number.")
        }
        guard range.contains(value) else {
            throw error("\(value) is out of range; use a number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }
}
