import Foundation

/// Reads a movie list: `{"movies": [{"Title", "Photo", "Intro", "Description"}]}`, from a file
/// or from a URL (a movie webservice), fetched and cached as remote feeds are.
///
/// `Description` is Markdown. `Photo` may be a path relative to the list (a local list's photos
/// are copied into the site; a remote list's are addresses on its server), an absolute http(s)
/// URL, empty, or missing.
///
/// A rebuild reads again only the movies whose bytes changed: what was read from each movie is
/// kept in the memo under a hash of its bytes (see ``MovieRecord``), and an unchanged movie's
/// item is made from that and the list's bytes, its description decoded only if something asks
/// for it. A list of any other shape than `{"movies": [...]}`, or one with a syntax error, is
/// parsed whole (which reports the first error exactly).
package struct MovieListSource: Plugin {
    /// The source's name, shown on its items and its listing page.
    package let name: String
    /// The JSON file, or its URL.
    package let location: FeedLocation
    /// At most this many movies, in the file's order.
    package let limit: Int?
    /// Fetches a remote list.
    package let fetcher: FeedFetcher?

    /// The longest description accepted, in bytes.
    package static let maximumDescriptionBytes = 256 * 1024

    /// Creates a source reading the list at `location`; a remote one needs a `fetcher`.
    package init(name: String, location: FeedLocation, limit: Int? = nil, fetcher: FeedFetcher? = nil) {
        self.name = name
        self.location = location
        self.limit = limit
        self.fetcher = fetcher
    }

    /// Creates a source reading `file`.
    package init(name: String, file: URL, limit: Int? = nil) {
        self.init(name: name, location: .file(file), limit: limit)
    }

    /// The movie list's file; nil for a list at a URL, which may change at any time.
    package func itemFiles(in context: BuildContext) -> [URL]? {
        if case .file(let file) = location { return [file] }
        return nil
    }

    package func loadItems(in context: BuildContext) async throws -> [Item] {
        switch location {
        case .file(let file):
            let display = context.displayPath(file)
            return try items(InputFile.read(file, display: display), folder: file.deletingLastPathComponent(), display: display, context: context)
        case .remote(let url):
            // Relative photos and links in a remote list are addresses beside it on its server.
            let folder = url.deletingLastPathComponent()
            let document = RemoteDocument(url: url, fetcher: fetcher)
            let (movies, fetch) = await document.load(in: context) { body throws(BuildError) in
                try items([UInt8](body), folder: folder, display: url.absoluteString, context: context)
            }
            document.record(fetch, items: movies?.count ?? 0, in: context)
            return movies ?? []
        }
    }

    /// The items of the list `data`, read from `display`; relative paths in it are relative to
    /// `folder`.
    private func items(_ data: [UInt8], folder: URL, display: String, context: BuildContext) throws(BuildError) -> [Item] {
        // Each movie is read, checked and made into an item on whichever core is free; only
        // local photos are then registered, in the file's order, so asset names and the first
        // error reported never depend on timing.
        var batches = if let byMovie = readMovieByMovie(data, folder: folder, display: display, memo: context.memo) {
            byMovie
        } else {
            try readWhole(data, folder: folder, display: display, context: context)
        }
        // The batches' items are moved out, so that each item stays referenced once.
        var parts: [[Item]] = []
        parts.reserveCapacity(batches.count)
        for index in batches.indices {
            let start = batches[index].start
            for waiting in batches[index].waitingForLocalPhoto {
                let image: ImageCandidate
                do throws(LocalAssetProblem) {
                    image = ImageCandidate(url: try context.localAssets.register(waiting.path, relativeTo: folder, processed: true))
                } catch {
                    throw BuildError(file: display, place: .path("\(Self.path(of: start + waiting.offset)).Photo"), error.message + ".")
                }
                batches[index].items[waiting.offset] = waiting.fields.item(image: image, source: name, folder: folder)
            }
            if let failure = batches[index].failure { throw failure }
            parts.append(batches[index].items)
            batches[index].items = []
        }
        return Array(parts.joined())
    }

    /// The list parsed whole, then every movie read and checked.
    private func readWhole(_ data: [UInt8], folder: URL, display: String, context: BuildContext) throws(BuildError) -> [MovieBatch] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: data)
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
        guard case .array(let list) = list else {
            throw BuildError(file: display, place: .path("movies"), "expected an array of movies, found \(list.kindName).")
        }
        let movies = Array(list.prefix(limit ?? Int.max))
        return Self.inBatches(movies.count) { indices in
            var batch = MovieBatch(start: indices.lowerBound)
            for movie in readAndHash(indices.map { index in
                Result { () throws(BuildError) -> (MovieFields, Photo) in try read(movies[index], at: index, display: display, folder: folder) }
            }, folder: folder) {
                guard batch.add(movie, source: name, folder: folder) else { break }
            }
            return batch
        }
    }

    /// The list's movies found by structure, each read from the memo when its bytes are those of
    /// a movie the last build read, and parsed and read otherwise; nil when the list is not a
    /// plain `{"movies": [...]}` or a movie has a syntax error (the list is then parsed whole).
    private func readMovieByMovie(_ list: [UInt8], folder: URL, display: String, memo: BuildMemo) -> [MovieBatch]? {
        // Each movie's memo key, from its bytes hashed as soon as the scan finds them, while
        // they are still in the processor's cache.
        let keySeed = recordKeySeed(folder: folder)
        var foundKeys: [UInt64] = []
        guard let ranges = JSONLayout.objectElements(ofArrayUnder: "movies", in: list, found: { range in
            var key = keySeed
            key.combine(list.span.extracting(range))
            foundKeys.append(key.value)
        }) else { return nil }
        let movieKeys = foundKeys
        let records = memo.values(MovieRecord.self, for: movieKeys)
        let kept = Swift.min(ranges.count, limit ?? Int.max)
        let hasSyntaxError = Locked(false)
        let movies = Self.inBatches(ranges.count) { indices -> MovieBatch in
            var known = [Movie?](repeating: nil, count: indices.count)
            var read: [Result<(MovieFields, Photo), BuildError>] = []
            var keys: [UInt64] = []
            for index in indices {
                let key = movieKeys[index]
                let record = records[index]
                // Movies past the limit are only checked for syntax (as when the list is
                // parsed whole): a recorded one was valid.
                if index >= kept && record != nil { continue }
                if let record, var fields = record.fields(in: ranges[index], of: list, folder: folder) {
                    fields.0.origin = key
                    known[index - indices.lowerBound] = movie(fields.0, photo: fields.1, folder: folder)
                    continue
                }
                let value: JSONValue
                do {
                    value = try JSONParser.value(in: list, range: ranges[index], containerDepth: 2)
                } catch {
                    hasSyntaxError.withLock { $0 = true }
                    return MovieBatch(start: indices.lowerBound)
                }
                guard index < kept else { continue }
                read.append(Result { () throws(BuildError) -> (MovieFields, Photo) in
                    var read = try self.read(value, at: index, display: display, folder: folder)
                    read.0.origin = key
                    return read
                })
                keys.append(key)
            }
            let readIndices = indices.filter { known[$0 - indices.lowerBound] == nil && $0 < kept }
            let fresh = readAndHash(read, folder: folder) { position, fields, photo in
                let range = ranges[readIndices[position]]
                if let record = MovieRecord(fields, photo, at: range, in: list) { memo.store(record, for: keys[position]) }
            }
            var batch = MovieBatch(start: indices.lowerBound)
            var next = fresh.makeIterator()
            for index in indices where index < kept {
                // Taken out of `known`, not copied: a copy would retain and release each of its strings.
                let movie: Result<Movie, BuildError> = if let known = known[index - indices.lowerBound].take() { .success(known) } else { next.next()! }
                guard batch.add(movie, source: name, folder: folder) else { break }
            }
            return batch
        }
        return hasSyntaxError.withLock { $0 } ? nil : movies
    }

    /// Runs `body` on every core for batches of 64 consecutive indices below `count`; the
    /// batches in order.
    private static func inBatches(_ count: Int, _ body: @Sendable (Range<Int>) -> MovieBatch) -> [MovieBatch] {
        let batch = 64
        let starts = Array(stride(from: 0, to: count, by: batch))
        return starts.concurrentMap { start in body(start..<Swift.min(start + batch, count)) }
    }

    /// Movies read from one batch, with their ids: FNV-1a takes a description one byte after
    /// another, each step waiting for the last, so the batch's ids are hashed four side by side
    /// (``StableHash/Parts/of(_:)``). `readOne` sees each movie read, by its position in `read`.
    private func readAndHash(
        _ read: [Result<(MovieFields, Photo), BuildError>], folder: URL,
        readOne: (Int, MovieFields, Photo) -> Void = { _, _, _ in }
    ) -> [Result<Movie, BuildError>] {
        let idParts = StableHash.Parts.of(read.map { result -> [String] in
            guard case .success(let read) = result, case .given(.markdown(let description, _)) = read.0.body else { return [] }
            return [name, read.0.title, description]
        })
        return zip(read.indices, zip(read, idParts)).map { position, pair in
            let (result, idParts) = pair
            return result.map { read in
                var fields = read.0
                fields.idParts = idParts
                readOne(position, fields, read.1)
                return movie(fields, photo: read.1, folder: folder)
            }
        }
    }

    /// The memo key of what was read from a movie, before the movie's bytes are added: what else
    /// its item depends on (the source's name and the list's folder).
    private func recordKeySeed(folder: URL) -> StableHasher {
        var key = StableHasher("movie-record-1")
        key.combine(name)
        key.combine(folder.isFileURL ? folder.path : folder.absoluteString)
        return key
    }

    /// A movie read on any core: its item, or its fields until its local photo is registered.
    private enum Movie: Sendable {
        case ready(Item)
        case waitingForLocalPhoto(String, MovieFields)
    }

    /// The movies of a batch of consecutive ones, read on one core.
    private struct MovieBatch: Sendable {
        /// The first movie's place in the list.
        let start: Int
        /// The movies' items in order, up to the first movie that could not be read; one that
        /// waits for its local photo holds an item without it until the photo is registered.
        var items: [Item] = []
        /// The movies waiting for their local photo, by their place in `items`.
        var waitingForLocalPhoto: [(offset: Int, path: String, fields: MovieFields)] = []
        /// Why the movie after `items` could not be read.
        var failure: BuildError?

        /// Adds the next movie; false when it could not be read (the batch ends there: the build
        /// fails with that error or an earlier one).
        mutating func add(_ movie: consuming Result<Movie, BuildError>, source: String, folder: URL) -> Bool {
            switch consume movie {
            case .success(.ready(let item)):
                items.append(item)
            case .success(.waitingForLocalPhoto(let path, let fields)):
                waitingForLocalPhoto.append((items.count, path, fields))
                items.append(fields.item(image: nil, source: source, folder: folder))
            case .failure(let error):
                failure = error
                return false
            }
            return true
        }
    }

    private func movie(_ fields: MovieFields, photo: Photo, folder: URL) -> Movie {
        switch photo {
        case .none: return .ready(fields.item(image: nil, source: name, folder: folder))
        case .url(let url): return .ready(fields.item(image: ImageCandidate(url: url), source: name, folder: folder))
        case .local(let path) where folder.isFileURL: return .waitingForLocalPhoto(path, fields)
        case .local(let path):
            let url = URLPolicy.resolveWeb(path, role: .image, base: folder.appending(path: ""))
            return .ready(fields.item(image: url.map { ImageCandidate(url: $0) }, source: name, folder: folder))
        }
    }

    /// A movie's photo as given.
    enum Photo {
        case none
        case url(String)
        /// A path relative to the list, registered once every movie is read.
        case local(String)
    }

    /// One movie's strings, checked, the digest of its description and its id hash fed with all
    /// but the photo's final URL.
    struct MovieFields: Sendable {
        var title, intro: String
        /// The description: read, or still in the list's bytes.
        var body: Item.StoredBody
        /// ``Item/bodyDigest`` of the item's body.
        var bodyDigest: UInt64
        var idParts = StableHash.Parts()
        /// The movie's memo key (its bytes, the source's name and the list's folder), when known.
        var origin: UInt64?

        func item(image: ImageCandidate?, source: String, folder: URL) -> Item {
            var id = idParts
            id.add(image?.url ?? "")
            // The item's origin: the movie's and its photo's URL (a local photo's depends on the file).
            let originDigest = origin.map { origin in
                var hasher = Self.originNamespace
                hasher.combine(Int(truncatingIfNeeded: origin))
                hasher.combine(image?.url ?? "")
                return hasher.value
            }
            return Item(
                id: id.hex(prefixedBy: "movie-"), source: source, title: title, intro: intro, storedBody: body, bodyDigest: bodyDigest,
                images: image.map { [$0] } ?? [], originDigest: originDigest)
        }

        private static let originNamespace = StableHasher("movie-origin")
    }

    private static func path(of index: Int) -> String { "movies[\(index)]" }

    /// One movie of the list, checked, and its photo.
    private func read(_ movie: JSONValue, at index: Int, display: String, folder: URL) throws(BuildError) -> (MovieFields, Photo) {
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
        let body = Markup.markdown(description, base: folder)
        let fields = MovieFields(title: title, intro: intro, body: .given(body), bodyDigest: Item.digest(of: body))
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
