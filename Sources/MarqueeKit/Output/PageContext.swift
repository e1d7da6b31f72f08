import Foundation

/// Builds the values templates see: plain data (``TemplateValue``); Mustache escapes
/// `{{name}}` and leaves `{{{name}}}` (safe HTML) as is.
struct PageContext {
    let context: BuildContext

    var metrics: ThemeMetrics { context.theme.metrics }

    func site(root: String) -> TemplateObject {
        var values: TemplateObject = [
            "title": .text(context.config.title),
            "description": .text(context.config.description),
            "language": .text(context.config.language),
            "root": .text(root),
            "home": .text(root.isEmpty ? "./" : root),
            "searchIndex": .text(root + SiteFilesWriter.searchIndexPath),
        ]
        if context.config.baseURL != nil { values["feed"] = .text(root + AtomFeedWriter.path) }
        return values
    }

    func cell(_ item: Item, root: String, eager: Bool = false) -> TemplateObject {
        let plan = item.cell ?? CellPlan(template: item.images.isEmpty ? .basic : .image, breakpoints: [])
        let attributes = CellAttributes(plan)
        var values = common(item, root: root, extra: 6)
        values["isImage"] = .flag(plan.template == .image)
        values["classes"] = .text(attributes.classes)
        values["style"] = .text(attributes.style)
        values["plan"] = .text(attributes.summary)
        values["url"] = .text(root + "items/\(item.slug)/")
        let box = Int(metrics.imageBox)
        if let processed = item.images.lazy.compactMap(\.processed).first {
            values["image"] = .object(Self.inCell(Self.picture(processed.cell, placeholder: processed.placeholder, sizes: "\(box)px", root: root), box: box, eager: eager))
        } else if let image = ImageChoice.bestFit(item.images, box: metrics.imageBox) {
            var imageValues: TemplateObject = ["src": .text(SiteURL.resolve(image.url, root: root)), "sizes": .text("\(box)px"), "isPicture": .flag(false)]
            if let srcset = ImageChoice.srcset(item.images, root: root) { imageValues["srcset"] = .text(srcset) }
            values["image"] = .object(Self.inCell(imageValues, box: box, eager: eager))
        }
        return values
    }

    /// An image's values as a cell shows it: in the square box (`size`, also its `width` and
    /// `height`), loaded at once only on the first screen.
    private static func inCell(_ image: TemplateObject, box: Int, eager: Bool) -> TemplateObject {
        var values = image
        values["size"] = .number(box)
        values["width"] = .number(box)
        values["height"] = .number(box)
        values["loading"] = .text(eager ? "eager" : "lazy")
        return values
    }

    /// A `<picture>`'s values: one `<source>` per modern format and the fallback format's
    /// `<img>` (`src` its smallest rendition), with the placeholder colour.
    private static func picture(_ renditions: [ProcessedImage.Rendition], placeholder: String, sizes: String, root: String) -> TemplateObject {
        func srcset(_ format: ImageFormat) -> String {
            renditions.filter { $0.format == format }.map { "\(root)\($0.path) \($0.width)w" }.joined(separator: ", ")
        }
        let fallback = renditions.filter { $0.format == .jpeg || $0.format == .png }
        let smallest = fallback.min { $0.width < $1.width } ?? renditions[0]
        return [
            "isPicture": .flag(true),
            "sources": .list([ImageFormat.avif, .webp].map { format in
                .object(["type": .text(format.mediaType), "srcset": .text(srcset(format)), "sizes": .text(sizes)])
            }),
            "src": .text(root + smallest.path),
            "srcset": .text(srcset(smallest.format)),
            "sizes": .text(sizes),
            "width": .number(smallest.width),
            "height": .number(smallest.height),
            "placeholder": .text(placeholder),
        ]
    }

    func detail(_ item: Item, root: String) -> TemplateObject {
        var values = common(item, root: root, extra: 4)
        if let processed = item.images.lazy.compactMap(\.processed).first {
            // The column's width, or the screen's less the margins where that is narrower.
            let column = Int(metrics.detailWidth), margins = Int(2 * metrics.pageMargin)
            let sizes = "(min-width: \(column + margins)px) \(column)px, calc(100vw - \(margins)px)"
            var imageValues = Self.picture(processed.detail, placeholder: processed.placeholder, sizes: sizes, root: root)
            // The size stated is the largest rendition's, whose shape every rendition shares.
            if let largest = processed.detail.max(by: { $0.width < $1.width }) {
                imageValues["width"] = .number(largest.width)
                imageValues["height"] = .number(largest.height)
            }
            values["image"] = .object(imageValues)
        } else if let image = ImageChoice.largest(item.images) {
            var imageValues: TemplateObject = ["src": .text(SiteURL.resolve(image.url, root: root)), "isPicture": .flag(false)]
            if let width = image.width, let height = image.height {
                imageValues["width"] = .number(width)
                imageValues["height"] = .number(height)
            }
            values["image"] = .object(imageValues)
        }
        return values
    }

    /// The values cells and detail pages share, with room for `extra` more.
    private func common(_ item: Item, root: String, extra: Int) -> TemplateObject {
        var values = TemplateObject(minimumCapacity: 14 + extra)
        values["id"] = .text(item.id)
        values["slug"] = .text(item.slug)
        values["title"] = .text(item.title)
        values["intro"] = .text(item.intro)
        values["source"] = .text(item.source)
        let html = item.bodyHTML
        values["descriptionHTML"] = .text(SiteURL.resolveMarkers(in: html, root: root))
        values["hasDescription"] = .flag(!html.isEmpty)
        values["tags"] = item.tags.templateList
        values["badges"] = item.badges.templateList
        values["meta"] = .object(TemplateObject(uniqueKeysWithValues: item.metadata.templateValues.map { (TemplateKey($0.key), .text($0.value)) }))
        if let link = item.link { values["link"] = .text(link) }
        if let author = item.author, !author.isEmpty { values["author"] = .text(author) }
        if let date = item.date {
            values["date"] = .text(DateText.display(date))
            values["dateISO"] = .text(DateText.iso8601(date))
        }
        return values
    }
}

/// Dates as pages show them, formatted without `DateFormatter` so pages can render on many
/// threads at once.
enum DateText {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar
    }()
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    /// `8 November 2014` (UTC).
    static func display(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return "\(parts.day!) \(months[parts.month! - 1]) \(parts.year!)"
    }

    /// `2014-11-08T20:05:00Z`
    static func iso8601(_ date: Date) -> String {
        let p = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(p.year!)-\(two(p.month))-\(two(p.day))T\(two(p.hour)):\(two(p.minute)):\(two(p.second))Z"
    }
}
