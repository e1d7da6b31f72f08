import Foundation

/// Where in an input a problem sits: a line and column, or a path into structured data.
public enum InputPlace: Sendable, Equatable, CustomStringConvertible {
    /// 1-based line and column in a text file.
    case lineColumn(line: Int, column: Int)
    /// A path into a JSON or YAML document, such as `movies[3].Title`.
    case path(String)

    public var description: String {
        switch self {
        case .lineColumn(let line, let column): return "\(line):\(column)"
        case .path(let path): return path
        }
    }
}

/// An error a user can act on: which file, where in it, what is wrong and what to change.
///
/// Its `description` reads like a compiler diagnostic: `Content/movies.json:4:85: error: …`.
public struct BuildError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The file the problem is in, as the user would type it (relative to the site root when possible).
    public var file: String?
    /// Where in the file, when known.
    public var place: InputPlace?
    /// What is wrong, and in a second sentence what to change.
    public var message: String
    /// The plugin that reported the error, when it came from one.
    public var plugin: String?

    /// Creates an error; `message` says what is wrong and what to change.
    public init(file: String? = nil, place: InputPlace? = nil, _ message: String, plugin: String? = nil) {
        self.file = file
        self.place = place
        self.message = message
        self.plugin = plugin
    }

    public var description: String {
        var prefix = ""
        if let file {
            prefix = file
            if let place {
                switch place {
                case .lineColumn: prefix += ":\(place)"
                case .path(let path): prefix += " at \(path)"
                }
            }
            prefix += ": "
        }
        let origin = plugin.map { "plugin \"\($0)\": " } ?? ""
        return "\(prefix)error: \(origin)\(message)"
    }
}

/// A problem that does not stop the build, such as a remote feed that could not be fetched.
public struct BuildWarning: Sendable, CustomStringConvertible, Equatable {
    /// The file or feed the warning is about.
    public var file: String?
    /// What happened and what the build did about it.
    public var message: String

    /// Creates a warning.
    public init(file: String? = nil, _ message: String) {
        self.file = file
        self.message = message
    }

    public var description: String {
        (file.map { "\($0): " } ?? "") + "warning: " + message
    }
}
