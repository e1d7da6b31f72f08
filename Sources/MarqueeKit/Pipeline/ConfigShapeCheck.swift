// libyaml, the parser under Yams: its events show each alias before Yams expands it. Yams
// builds the expanded tree and hashes every mapping key to find duplicates, so a key made of
// nested aliases costs time exponential in the file's size before any check of ours could run.
import CYaml

/// Refuses configuration text whose shape a few lines can make explosive, before Yams reads it:
/// more than a bound of values once YAML's aliases (`*name`) are expanded, or a mapping key that
/// is not a single value (a list, a mapping, or an alias). Syntax errors are left to Yams, which
/// reports them with their place.
enum ConfigShapeCheck {
    /// Why `text` is refused, with its 1-based line and column; nil when it is fine.
    static func problem(in text: String, maximumValues: Int) -> (message: String, line: Int, column: Int)? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var walk = Walk(maximumValues: maximumValues)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                let place = (line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
                let outcome: Walk.Outcome
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return nil
                case YAML_SCALAR_EVENT:
                    outcome = walk.completed(size: 1, anchor: name(event.data.scalar.anchor), mayBeKey: true)
                case YAML_ALIAS_EVENT:
                    outcome = walk.completed(size: walk.size(of: name(event.data.alias.anchor)), anchor: nil, mayBeKey: false)
                case YAML_SEQUENCE_START_EVENT:
                    outcome = walk.opened(anchor: name(event.data.sequence_start.anchor), isMapping: false)
                case YAML_MAPPING_START_EVENT:
                    outcome = walk.opened(anchor: name(event.data.mapping_start.anchor), isMapping: true)
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    outcome = walk.closed()
                default:
                    outcome = .fine
                }
                switch outcome {
                case .fine: continue
                case .tooManyValues:
                    return ("the configuration holds more than \(maximumValues) values once its aliases (`*name`) are expanded; write the values out or use fewer aliases.", place.line, place.column)
                case .keyNotSingle:
                    return ("a key must be a single word, not a list, a mapping or an alias.", place.line, place.column)
                }
            }
        }
    }

    private static func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        anchor.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    /// The sizes of the collections open at the current event, and of every anchored node.
    private struct Walk {
        enum Outcome { case fine, tooManyValues, keyNotSingle }

        struct Collection {
            var anchor: String?
            var isMapping: Bool
            var size = 1
            var children = 0
        }

        let maximumValues: Int
        var open: [Collection] = []
        var anchors: [String: Int] = [:]
        var total = 0

        /// The expanded size of the node an alias names (1 for an unknown one: Yams reports it).
        func size(of anchor: String?) -> Int {
            anchor.flatMap { anchors[$0] } ?? 1
        }

        mutating func opened(anchor: String?, isMapping: Bool) -> Outcome {
            if let parent = open.last, parent.isMapping, parent.children.isMultiple(of: 2) { return .keyNotSingle }
            open.append(Collection(anchor: anchor, isMapping: isMapping))
            return .fine
        }

        mutating func closed() -> Outcome {
            guard let collection = open.popLast() else { return .fine }
            // (Its place as a key was checked when it opened.)
            return completed(size: collection.size, anchor: collection.anchor, mayBeKey: true)
        }

        /// A node of `size` values ended; it is added to the collection holding it. An alias
        /// may not be a key: it `mayBeKey` false.
        mutating func completed(size: Int, anchor: String?, mayBeKey: Bool) -> Outcome {
            if let anchor { anchors[anchor] = size }
            guard !open.isEmpty else {
                total += size
                return total > maximumValues ? .tooManyValues : .fine
            }
            if !mayBeKey && open[open.count - 1].isMapping && open[open.count - 1].children.isMultiple(of: 2) {
                return .keyNotSingle
            }
            open[open.count - 1].children += 1
            open[open.count - 1].size += size
            return open[open.count - 1].size > maximumValues ? .tooManyValues : .fine
        }
    }
}
