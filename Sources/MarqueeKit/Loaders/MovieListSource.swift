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
        guard case .object = document, let list = document["movies"] else {
            let found: String
            if case .object(let members) = document {
                found = members.isEmpty ? "an empty object" : "an object with " + members.map { "\"\($0.key)\"" }.joined(separator: ", ")
            } else {
                found = document.kindName
            }
            throw BuildError(file: display, place: .path("$"), "expected an object with a \"movies\" array at the top, found \(found).")
        }
        guard case .array(let movies) = list else {
            throw BuildError(file: display, place: .path("movies"), "expected an array of movies, found \(list.kindName).")
        }
        let folder = file.deletingLastPathComponent()
        // Reading the fields and hashing them is spread over the cores; local photos are then
        // registered in the file's order, so asset names and the first error reported never
        // depend on timing.
        let fields = Array(movies.prefix(limit ?? Int.max).enumerated()).concurrentMap { index, movie in
            Result { () throws(BuildError) -> MovieFields in try self.fields(of: movie, at: index, display: display) }
        }
        var items: [Item] = []
        items.reserveCapacity(fields.count)
        for (index, result) in fields.enumerated() {
            let movie = try result.get()
            var images: [ImageCandidate] = []
            var id = movie.idParts
            if let photo = movie.photo {
                images.append(try image(photo, at: "\(Self.path(of: index)).Photo", folder: folder, display: display, context: context))
            }
            id.add(images.first?.url ?? "")
            items.append(Item(
                id: "movie-" + id.hex, source: name, title: movie.title, intro: movie.intro,
                body: .markdown(movie.description, base: folder), images: images))
        }
        return items
    }

    /// One movie's strings, checked, and its id hash fed with all but the photo's final URL.
    private struct MovieFields: Sendable {
        var title, description, intro: String
        var photo: String?
        var idParts: StableHash.Parts
    }

    private static func path(of index: Int) -> String { "movies[\(index)]" }

    private func fields(of movie: JSONValue, at index: Int, display: String) throws(BuildError) -> MovieFields {
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
        let photo = try string("Photo", required: false)?.trimmed(.whitespaces)
        var idParts = StableHash.Parts()
        for part in [name, title, description] { idParts.add(part) }
        return MovieFields(title: title, description: description, intro: intro, photo: photo?.isEmpty == false ? photo : nil, idParts: idParts)
    }

    private func image(_ photo: String, at path: String, folder: URL, display: String, context: BuildContext) throws(BuildError) -> ImageCandidate {
        if let scheme = URLPolicy.scheme(of: photo) {
            guard URLPolicy.imageSchemes.contains(scheme), URL(string: photo) != nil else {
                throw BuildError(file: display, place: .path(path), "\"\(photo)\" is not an http(s) URL; give a path relative to this file or an http(s) URL.")
            }
            return ImageCandidate(url: photo)
        }
        do {
            return ImageCandidate(url: try context.localAssets.register(photo, relativeTo: folder))
        } catch {
            throw BuildError(file: display, place: .path(path), error.message + ".")
        }
    }
}
