import Foundation
import Testing
@testable import MarqueeKit

/// Settings are compared between builds, in separate processes, by their description.
@Suite("Stable descriptions")
struct StableDescriptionTests {
    struct Settings {
        var name: String
        var limits: [String: Int]
        var tags: Set<String>
        var option: PluginOptionValue?
        var link: URL?
    }

    /// Entries inserted in another order into a dictionary of another capacity: the same
    /// contents, listed in another order (found by trying capacities).
    func reordered(_ limits: [String: Int]) throws -> [String: Int] {
        try #require((1...64).lazy.map { TestSupport.reinserted(limits, capacity: $0 * 8) }.first { Array($0.keys) != Array(limits.keys) })
    }

    @Test func dictionariesAndSetsDescribeAlikeInAnyOrder() throws {
        let limits = Dictionary(uniqueKeysWithValues: (1...12).map { ("key\($0)", $0) })
        let settings = Settings(name: "a", limits: limits, tags: ["x", "y", "z"], option: .int(3), link: URL(string: "https://example.org/a/"))
        var shuffled = settings
        shuffled.limits = try reordered(limits)
        shuffled.tags = Set(minimumCapacity: 64)
        shuffled.tags.formUnion(["z", "y", "x"])
        #expect("\(shuffled.limits)" != "\(settings.limits)", "the dictionaries should list their entries in different orders")
        #expect(StableDescription.of(shuffled) == StableDescription.of(settings))

        let described = StableDescription.of(settings)
        #expect(described.contains("\"https://example.org/a/\"") && described.contains("int: 3") && described.contains("\"key12\", value: 12"))
        // Any changed value shows.
        var changed = [settings, settings, settings, settings, settings]
        changed[0].name = "b"
        changed[1].limits["key7"] = 8
        changed[2].tags.insert("w")
        changed[3].option = .bool(true)
        changed[4].link = nil
        #expect(Set(changed.map(StableDescription.of)).count == changed.count)
        #expect(!changed.map(StableDescription.of).contains(described))
        // Text cannot pass for the punctuation between entries.
        #expect(StableDescription.of(["a": "x\", value: \"y"]) != StableDescription.of(["a": "x", "value": "y"]))
    }

    /// The leaves described by their own types read as the general cases make them.
    @Test func leavesReadAsReflectionMakesThem() throws {
        let leaves: [Any] = ["plain", "quote \" and \\ and \n", "", 0, -42, Int.max, 1.5, 0.1, -0.0, Double.infinity, true, false]
        for leaf in leaves { #expect(StableDescription.of(leaf) == String(reflecting: leaf)) }
        let url = try #require(URL(string: "https://example.org/a b?q=\"x\""))
        #expect(StableDescription.of(url) == String(reflecting: url.description))
        let missing: String? = nil, present: String? = "x"
        #expect(StableDescription.of(missing as Any) == "nil" && StableDescription.of(present as Any) == "\"x\"")
    }

    /// A configuration with every setting given.
    static func fullConfig() throws -> SiteConfig {
        var source = SourceConfig(type: "feed", path: "a.xml", name: "A", limit: 5, place: .lineColumn(line: 3, column: 5))
        source.url = URL(string: "https://example.org/feed.xml")
        var config = SiteConfig(title: "T \"quoted\"", description: "D", language: "fr", expand: .single, titleFallback: "F", introLength: 90,
                                sources: [source, SourceConfig(type: "movies", path: "m.json")], file: "/somewhere/Content/site.yml")
        config.baseURL = URL(string: "https://example.org/site/")
        config.pageSize = 20
        config.deploy = DeployConfig(git: "git@example.org:a/b.git", branch: "pages")
        config.plugins = Dictionary(uniqueKeysWithValues: (1...12).map { index in
            ("plugin\(index)", PluginSetting(enabled: index % 2 == 0, options: ["n": .int(index), "b": .bool(true), "s": .string("x\(index)")]))
        })
        return config
    }

    /// The settings' description, written out field by field, names every field of the
    /// settings' types (found by reflection here, so a field added later and left out of it
    /// fails this test), shows any change, leaves out where the settings were read from, and
    /// lists plugins the same in any order.
    @Test func settingsDescriptionCoversEveryField() throws {
        let config = try Self.fullConfig()
        let described = config.outputSettings
        // The labels of `value`'s fields, and of the fields of the settings' types in them (in an
        // optional, an array or a dictionary's values).
        func labels(of value: Any) -> [String] {
            let children = Mirror(reflecting: value).children
            return children.compactMap(\.label) + children.flatMap { child in settingsValues(in: child.value).flatMap(labels(of:)) }
        }
        func settingsValues(in value: Any) -> [Any] {
            let mirror = Mirror(reflecting: value)
            // (Checked after optionals, which `is` would look through.)
            if mirror.displayStyle != .optional, value is SourceConfig || value is DeployConfig || value is PluginSetting { return [value] }
            switch mirror.displayStyle {
            case .optional?, .collection?: return mirror.children.flatMap { settingsValues(in: $0.value) }
            case .dictionary?: return mirror.children.flatMap { entry in Mirror(reflecting: entry.value).children.dropFirst().flatMap { settingsValues(in: $0.value) } }
            default: return []
            }
        }
        let everyLabel = Set(labels(of: config)).subtracting(["file", "place"])
        #expect(everyLabel.isSuperset(of: ["title", "sources", "limit", "deploy", "branch", "plugins", "enabled", "options"]))
        for label in everyLabel { #expect(described.contains(label + ": "), "\(label) is not described") }
        #expect(!described.contains("somewhere") && !described.contains("3:5"))

        var reordered = config
        reordered.plugins = TestSupport.reinserted(config.plugins, capacity: 256)
        reordered.file = "Content/site.yml"
        reordered.sources[0].place = nil
        #expect(reordered.outputSettings == described)

        var changed = Array(repeating: config, count: 8)
        changed[0].title = "T"
        changed[1].sources[0].limit = 6
        changed[2].sources[0].url = nil
        changed[3].plugins["plugin3"]?.options["n"] = .int(4)
        changed[4].plugins["plugin3"]?.enabled = true
        changed[5].deploy?.branch = "main"
        changed[6].pageSize = 21
        changed[7].baseURL = nil
        let texts = changed.map(\.outputSettings)
        #expect(Set(texts).count == texts.count && !texts.contains(described))
        // Text cannot pass for the punctuation around it.
        changed[0].title = #"T", description: "D"#
        changed[1].title = "T"
        changed[1].description = "D"
        #expect(changed[0].outputSettings != changed[1].outputSettings)
    }
}
