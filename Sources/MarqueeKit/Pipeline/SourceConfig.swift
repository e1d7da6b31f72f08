import Foundation

/// One entry of the config's `sources:` list.
public struct SourceConfig: Sendable, Equatable {
    /// The source plugin that reads it: `movies`, `feed` or `opml` (a list of feeds).
    public var type: String
    /// A path relative to `Content/`.
    public var path: String?
    /// An http(s) URL, instead of a path.
    public var url: URL?
    /// A name shown in the gallery; defaults to the file name.
    public var name: String?
    /// At most this many items, newest first.
    public var limit: Int?
    /// Which items are kept (`include:`, `exclude:`, `since:`), before `limit` counts them.
    package var filter = ItemFilter()
    /// Where the entry is in the config file, for error messages.
    public var place: InputPlace?

    /// Creates a configuration in code.
    public init(type: String, path: String? = nil, name: String? = nil, limit: Int? = nil, place: InputPlace? = nil) {
        self.type = type
        self.path = path
        self.name = name
        self.limit = limit
        self.place = place
    }
}
