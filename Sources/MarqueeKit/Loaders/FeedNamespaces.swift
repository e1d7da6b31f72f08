/// Namespace URIs of the feed vocabularies, matched by URI rather than by prefix.
enum FeedNamespace {
    static let none = ""
    static let media = "http://search.yahoo.com/mrss/"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let atom = "http://www.w3.org/2005/Atom"
    static let rss1 = "http://purl.org/rss/1.0/"
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let iTunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"
}

extension XMLTreeElement {
    /// Media RSS children, accepting the namespace URI with or without its trailing slash.
    func mediaChildren(_ name: String) -> [XMLTreeElement] {
        children.filter { $0.name == name && ($0.namespace == FeedNamespace.media || $0.namespace == "http://search.yahoo.com/mrss") }
    }

    func mediaChild(_ name: String) -> XMLTreeElement? { mediaChildren(name).first }
}
