import Foundation

/// What was read from one movie of a list, kept in the memo under a hash of the movie's bytes,
/// so that a rebuild makes the item of an unchanged movie without parsing it again: where its
/// strings are in those bytes, whether its photo is a local path or a URL, the state of its id's
/// hash and its description's digest. The strings are decoded from the list again (quicker than
/// from the memo), the description only when something reads it.
struct MovieRecord: Equatable, Codable {
    /// ``StableHash/Parts/state`` of the movie's id before its photo's final URL is added.
    var idState: UInt64
    /// ``Item/bodyDigest`` of its description.
    var bodyDigest: UInt64
    /// Where the strings' opening quotes are, counted from the movie's first byte: the title,
    /// the description, the intro (nil when missing or null) and the photo (nil for no photo).
    var title: Int, description: Int, intro: Int?, photo: Int?
    /// True when the photo is a path relative to the list, false for a URL.
    var photoIsLocal: Bool
}

extension MovieRecord {
    /// Read from one list of numbers, as ``encode(to:)`` writes it: a rebuild reads the record
    /// of every movie, and the memo reads a list of integers at once, where a record's members
    /// each go through a keyed container.
    init(from decoder: any Decoder) throws {
        let numbers = try decoder.singleValueContainer().decode([UInt64].self)
        func offset(_ number: UInt64) throws -> Int {
            guard let offset = Int(exactly: number) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a movie record"))
            }
            return offset
        }
        guard numbers.count == 7, numbers[6] <= 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a movie record"))
        }
        self.init(
            idState: numbers[0], bodyDigest: numbers[1], title: try offset(numbers[2]), description: try offset(numbers[3]),
            intro: numbers[4] == 0 ? nil : try offset(numbers[4] - 1), photo: numbers[5] == 0 ? nil : try offset(numbers[5] - 1),
            photoIsLocal: numbers[6] == 1)
    }

    /// `[idState, bodyDigest, title, description, intro + 1, photo + 1, photoIsLocal]`, with 0
    /// for a missing intro or photo.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode([
            idState, bodyDigest, UInt64(title), UInt64(description), intro.map { UInt64($0) + 1 } ?? 0,
            photo.map { UInt64($0) + 1 } ?? 0, photoIsLocal ? 1 : 0,
        ])
    }
}

extension MovieRecord {
    /// The record of a movie read as `fields` and `photo` from `range` of `list`; nil when its
    /// members cannot be found again there (then it is simply read again next time).
    init?(_ fields: MovieListSource.MovieFields, _ photo: MovieListSource.Photo, at range: Range<Int>, in list: [UInt8]) {
        guard let members = JSONLayout.members(ofObjectIn: range, of: list) else { return nil }
        // The last member of a name counts, as when the movie is read.
        var titleValue, descriptionValue, introValue, photoValue: Range<Int>?
        for member in members {
            guard let key = JSONParser.string(at: member.key, in: list) else { return nil }
            switch key {
            case "Title": titleValue = member.value
            case "Description": descriptionValue = member.value
            case "Intro": introValue = member.value
            case "Photo": photoValue = member.value
            default: continue
            }
        }
        func string(_ value: Range<Int>?) -> Int? {
            guard let value, list[value.lowerBound] == UInt8(ascii: "\"") else { return nil }
            return value.lowerBound - range.lowerBound
        }
        guard let title = string(titleValue), let description = string(descriptionValue) else { return nil }
        idState = fields.idParts.state
        bodyDigest = fields.bodyDigest
        self.title = title
        self.description = description
        intro = string(introValue)
        switch photo {
        case .none:
            self.photo = nil
            photoIsLocal = false
        case .url:
            guard let offset = string(photoValue) else { return nil }
            self.photo = offset
            photoIsLocal = false
        case .local:
            guard let offset = string(photoValue) else { return nil }
            self.photo = offset
            photoIsLocal = true
        }
    }

    /// The movie's fields and photo, from the movie at `range` of `list` (a list in `folder`);
    /// nil when its strings are not where the record says (a hash collision: the movie is then
    /// read).
    func fields(in range: Range<Int>, of list: [UInt8], folder: URL) -> (MovieListSource.MovieFields, MovieListSource.Photo)? {
        let start = range.lowerBound
        guard [title, description, intro ?? 0, photo ?? 0].allSatisfy({ $0 < range.count }),
              let title = JSONParser.string(at: start + title, in: list), list[start + description] == UInt8(ascii: "\"")
        else { return nil }
        var intro = ""
        if let offset = self.intro {
            guard let text = JSONParser.string(at: start + offset, in: list) else { return nil }
            intro = text
        }
        var photo = MovieListSource.Photo.none
        if let offset = self.photo {
            guard let text = JSONParser.string(at: start + offset, in: list)?.trimmed(newlines: false) else { return nil }
            photo = photoIsLocal ? .local(text) : .url(text)
        }
        let fields = MovieListSource.MovieFields(
            title: title, intro: intro, body: .undecodedMarkdown(JSONText(document: list, offset: start + description), base: folder),
            bodyDigest: bodyDigest, idParts: StableHash.Parts(state: idState))
        return (fields, photo)
    }
}
