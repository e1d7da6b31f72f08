import Foundation

/// Reads a movie list: `{"movies": [{"Title", "Photo", "Intro", "Description"}]}`.
///
/// `Description` is Markdown. `Photo` may be a path relative to the JSON file (copied into the
/// site), an absolute http(s) URL, empty, or missing.
public struct MovieListSource: Plugin {
    /// The source's name, shown on its items and its listing page.
    public let name: String
    /// The JSON file.
    public let file: URL
    /// At most this many movies, in the file's order.
    public let limit: Int?

    /// The longest description accepted, in bytes.
    public static let maximumDescriptionBytes = 256 * 1024

    /// Creates a source reading `file`.
    public init(name: String, file: URL, limit: Int? = nil) {
        self.name = name
        self.file = file
        self.limit = limit
    }

    /// The movie list.
    public func itemFiles(in context: BuildContext) -> [URL]? { [file] }

    public func loadItems(in context: BuildContext) async throws -> [Item] {
        let display = context.displayPath(file)
        let data = try InputFile.read(file, display: display)
        let document: JSONValue
        do {
            document = try JSONParser.parse(data)
        } catch {
            throw BuildError(file: display, place: .lineColumn(line: error.line, column: error.column), error.message + ".")
        }
        // The tree is released after the build (or never, when the program exits then): freeing
        // tens of thousands of small objects here would hold up loading.
        context.releaseLater(document)
        guard case .object = document, let list = document["movies"] else {
            let found: String
            if case .object(let members) = document {
                found = members.isEmpty ? "an empty object" : "an object with " + members.map { "\"\($0.key)\"" }.joined(separator: ", ")
            } else {
                found = document.kindName
            }
            throw BuildError(file: display, place: .path("$"), "expected an object with a \"movies\" array at the top, found \(found).")
        }
        guard case .array(let list) = list else {
            throw BuildError(file: display, place: .path("movies"), "expected an array of movies, found \(list.kindName).")
        }
        let folder = file.deletingLastPathComponent()
        // Each movie is read, checked and made into an item on whichever core is free; only
        // local photos are then registered, in the file's order, so asset names and the first
        // error reported never depend on timing.
        let movies = readAll(Array(list.prefix(limit ?? Int.max)), folder: folder, display: display)
        var items: [Item] = []
        items.reserveCapacity(movies.count)
        for (index, result) in movies.enumerated() {
            switch try result.get() {
            case .ready(let item):
                items.append(item)
            case .waitingForLocalPhoto(let photo, let fields):
                let image: ImageCandidate
                do throws(LocalAssetProblem) {
                    image = ImageCandidate(url: try context.localAssets.register(photo, relativeTo: folder))
                } catch {
                    throw BuildError(file: display, place: .path("\(Self.path(of: index)).Photo"), error.message + ".")
                }
                items.append(fields.item(image: image, source: name, folder: folder))
            }
        }
        return items
    }

    /// A movie read on any core: its item, or its fields until its local photo is registered.
    private enum Movie: Sendable {
        case ready(Item)
        case waitingForLocalPhoto(String, MovieFields)
    }

    /// Reads and checks every movie on every core, 64 at a time, so that their ids are hashed
    /// four side by side (``StableHash/Parts/of(_:)``: FNV-1a over a description, one byte after
    /// another, was a fifth of loading).
    private func readAll(_ list: [JSONValue], folder: URL, display: String) -> [Result<Movie, BuildError>] {
        let batch = 64
        let starts = Array(stride(from: 0, to: list.count, by: batch))
        let batches = starts.concurrentMap { start -> [Result<Movie, BuildError>] in
            let indices = start..<Swift.min(start + batch, list.count)
            let read: [Result<(MovieFields, Photo), BuildError>] = indices.map { index in
                Result { () throws(BuildError) -> (MovieFields, Photo) in try self.read(list[index], at: index, display: display) }
            }
            let idParts = StableHash.Parts.of(read.map { result -> [String] in
                guard case .success(let read) = result else { return [] }
                return [name, read.0.title, read.0.description]
            })
            return zip(read, idParts).map { result, idParts in
                result.map { read in movie(read.0, idParts: idParts, photo: read.1, folder: folder) }
            }
        }
        return batches.flatMap { $0 }
    }

    private func movie(_ fields: MovieFields, idParts: StableHash.Parts, photo: Photo, folder: URL) -> Movie {
        var fields = fields
        fields.idParts = idParts
        switch photo {
        case .none: return .ready(fields.item(image: nil, source: name, folder: folder))
        case .url(let url): return .ready(fields.item(image: ImageCandidate(url: url), source: name, folder: folder))
        case .local(let path): return .waitingForLocalPhoto(path, fields)
        }
    }

    /// A movie's photo as given.
    private enum Photo {
        case none
        case url(String)
        /// A path relative to the list, registered once every movie is read.
        case local(String)
    }

    /// One movie's strings, checked, and its id hash fed with all but the photo's final URL.
    private struct MovieFields: Sendable {
        var title, description, intro: String
        var idParts = StableHash.Parts()

        func item(image: ImageCandidate?, source: String, folder: URL) -> Item {
            var id = idParts
            id.add(image?.url ?? "")
            return Item(
                id: "movie-" + id.hex, source: source, title: title, intro: intro,
                body: .markdown(description, base: folder), images: image.map { [$0] } ?? [])
        }
    }

    private static func path(of index: Int) -> String { "movies[\(index)]" }

    /// One movie of the list, checked, and its photo.
    private func read(_ movie: JSONValue, at index: Int, display: String) throws(BuildError) -> (MovieFields, Photo) {
        guard case .object = movie else {
            throw BuildError(file: display, place: .path(Self.path(of: index)), "expected a movie object with Title and Description, found \(movie.kindName).")
        }
        func string(_ key: String, required: Bool) throws(BuildError) -> String? {
            guard let value = movie[key] else {
                if required { throw BuildError(file: display, place: .path("\(Self.path(of: index)).\(key)"), "\"\(key)\" is missing; every movie needs a \(key) string.") }
                return nil
            }
            if case .null = value, !required { return nil }
            guard case .string(let text) = value else {
                throw BuildError(file: display, place: .path("\(Self.path(of: index)).\(key)"), "expected a string, found \(value.kindName).")
            }
            return text
        }
        let title = try string("Title", required: true) ?? ""
        let description = try string("Description", required: true) ?? ""
        guard description.utf8.count <= Self.maximumDescriptionBytes else {
            throw BuildError(file: display, place: .path("\(Self.path(of: index)).Description"), "the description is \(description.utf8.count / 1024) KiB, over the \(Self.maximumDescriptionBytes / 1024) KiB limit; shorten it.")
        }
        let intro = try string("Intro", required: false) ?? ""
        let photo = try string("Photo", required: false)?.trimmed(newlines: false)
        let fields = MovieFields(title: title, description: description, intro: intro)
        guard let photo, !photo.isEmpty else { return (fields, .none) }
        guard let scheme = URLPolicy.scheme(of: photo) else { return (fields, .local(photo)) }
        guard URLPolicy.imageSchemes.contains(scheme), URL(string: photo) != nil else {
            throw BuildError(
                file: display, place: .path("\(Self.path(of: index)).Photo"),
                "\"\(photo)\" is not an http(s) URL; give a path relative to this file or an http(s) URL.")
        }
        return (fields, .url(photo))
    }
}
