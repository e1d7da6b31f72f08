import Foundation
import MarqueeKit
import SwiftCSV

/// A source plugin: reads films from a CSV file with the columns
/// `title,year,director,summary` (the summary is Markdown).
public struct CSVFilmSource: Plugin {
    public let name = "csv-films"
    public let file: URL

    public init(file: URL) {
        self.file = file
    }

    /// Its items come from the CSV file alone: a rebuild in which it did not change can stop
    /// before reading it.
    public func itemFiles(in context: BuildContext) -> [URL]? { [file] }

    public func loadItems(in context: BuildContext) async throws -> [Item] {
        let display = context.displayPath(file)
        let csv: CSV<Named>
        do {
            csv = try CSV<Named>(url: file)
        } catch {
            throw BuildError(file: display, "cannot read the CSV: \(error).")
        }
        for column in ["title", "year", "director", "summary"] where !csv.header.contains(column) {
            throw BuildError(file: display, place: .lineColumn(line: 1, column: 1), "the header has no \"\(column)\" column.")
        }
        return csv.rows.map { row in
            let title = row["title"] ?? ""
            var item = Item(
                id: "csv-\(title)-\(row["year"] ?? "")",
                source: "Films (CSV)",
                title: title,
                intro: "\(row["year"] ?? "") · directed by \(row["director"] ?? "unknown")",
                body: .markdown(row["summary"] ?? "", base: file.deletingLastPathComponent()),
                author: row["director"])
            item.tags = [row["year"] ?? ""].filter { !$0.isEmpty }
            return item
        }
    }
}
