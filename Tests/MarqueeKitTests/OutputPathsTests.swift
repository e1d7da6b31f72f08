import Foundation
import Testing
@testable import MarqueeKit

@Suite("Output paths")
struct OutputPathsTests {
    /// Random additions, changes and removals, with paths that share prefixes, an empty path and
    /// non-ASCII ones, agree with a dictionary at every step; places never move as the table grows.
    @Test func agreesWithADictionaryAndKeepsPlaces() {
        var generator = SeededRandom(seed: 11)
        var table = OutputPaths<Int>()
        var model: [String: Int] = [:]
        var places: [String: Int] = [:]
        let names = (0..<300).map { $0 % 7 == 0 ? "items/é\($0)/index.html" : "items/\($0)/index.html" } + ["", "index.html", "a"]
        for step in 0..<5_000 {
            let path = names.randomElement(using: &generator)!
            let value: Int? = Int.random(in: 0..<4, using: &generator) == 0 ? nil : step
            table[path] = value
            model[path] = value
            if let place = table.place(of: path) {
                #expect(places[path] == nil || places[path] == place)
                places[path] = place
            }
            if step % 500 == 0 {
                #expect(table.count == model.count)
                for name in names { #expect(table[name] == model[name]) }
                #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.path, $0.value) }) == model)
            }
        }
        #expect(table.place(of: "items/never/index.html") == nil)
        for (path, place) in places {
            #expect(table.path(at: place) == path)
            #expect(table.value(at: place) == model[path])
        }
        var copy = OutputPaths<Int>()
        for (path, value) in model.sorted(by: { $0.key > $1.key }) { copy[path] = value }
        #expect(copy == table)
        copy["index.html"] = -1
        #expect(copy != table)
    }
}
