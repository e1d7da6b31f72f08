import Foundation
import Testing
@testable import MarqueeKit

/// The official Mustache specification's tests for what Marquee's templates support, run
/// against the compiler and renderer that make every page (Tests/Fixtures/mustache-spec).
@Suite("Mustache specification")
struct MustacheSpecTests {
    struct SpecTest: CustomTestStringConvertible, Sendable {
        let file: String
        let name: String
        let data: JSONValue
        let template: String
        let partials: [String: String]
        let expected: String
        var testDescription: String { "\(file): \(name)" }
    }

    static let files = ["interpolation", "sections", "inverted", "comments", "partials"]

    static let tests: [SpecTest] = files.flatMap { file -> [SpecTest] in
        let url = TestSupport.fixtures.appending(path: "mustache-spec/\(file).json")
        guard let data = try? Data(contentsOf: url), case .object(let spec) = try? JSONParser.parse(data),
              case .array(let tests)? = spec.first(where: { $0.key == "tests" })?.value
        else { return [] }
        return tests.compactMap { test -> SpecTest? in
            guard case .object(let fields) = test else { return nil }
            func string(_ key: String) -> String? {
                if case .string(let text)? = fields.first(where: { $0.key == key })?.value { return text }
                return nil
            }
            var partials: [String: String] = [:]
            if case .object(let named)? = fields.first(where: { $0.key == "partials" })?.value {
                for (name, value) in named { if case .string(let text) = value { partials[name] = text } }
            }
            guard let name = string("name"), let template = string("template"), let expected = string("expected"),
                  let data = fields.first(where: { $0.key == "data" })?.value
            else { return nil }
            return SpecTest(file: file, name: name, data: data, template: template, partials: partials, expected: expected)
        }
    }

    /// The test data as template values: JSON numbers that are whole print as integers, others
    /// as JSON writes them; `null` is a missing value.
    static func value(_ json: JSONValue) -> TemplateValue? {
        switch json {
        case .string(let text): .text(text)
        case .bool(let flag): .flag(flag)
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? .number(Int(number)) : .text(String(number))
        case .array(let elements): .list(elements.compactMap(value))
        case .object(let fields):
            .object(Dictionary(fields.compactMap { field in value(field.value).map { (TemplateKey(field.key), $0) } }) { first, _ in first })
        case .null: nil
        }
    }

    @Test func everyFileIsRead() {
        for file in Self.files {
            #expect(Self.tests.contains { $0.file == file }, "no tests read from \(file).json")
        }
        #expect(Self.tests.count >= 120)
    }

    @Test(arguments: tests)
    func rendersAsTheSpecificationSays(_ test: SpecTest) throws {
        let pages = try PageTemplates.compiled(["main": test.template].merging(test.partials) { first, _ in first })
        var output: [UInt8] = []
        #expect(pages.render("main", value: Self.value(test.data) ?? .object([:]), into: &output))
        #expect(String(decoding: output, as: UTF8.self) == test.expected)
    }
}
