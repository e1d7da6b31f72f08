import Foundation

/// Builds the values templates see. Everything is plain data (text, bools, numbers, arrays,
/// dictionaries; text as ``TemplateText``); Mustache escapes `{{name}}` and leaves `{{{name}}}`
/// (safe HTML) as is.
struct PageContext {
    let context: BuildContext

    var metrics: ThemeMetrics { context.theme.metrics }

    func site(root: String) -> [String: Any] {
        var values: [String: Any] = [
            "title": TemplateText(context.config.title),
            "description": TemplateText(context.config.description),
            "language": TemplateText(context.config.language),
            "root": TemplateText(root),
            "home": TemplateText(root.isEmpty ? "./" : root),
            "searchIndex": TemplateText(root + SiteFilesWriter.searchIndexPath),
        ]
        if context.config.baseURL != nil { values["feed"] = TemplateText(root + AtomFeedWriter.path) }
        return values
    }

    func cell(_ item: Item, root: String) -> [String: Any] {
        let plan = item.cell ?? CellPlan(template: item.images.isEmpty ? .basic : .image, breakpoints: [])
        var style: [String] = []
        var planSummary: [String] = []
        var classes = ["cell", "cell-\(plan.template.rawValue)"]
        for breakpoint in plan.breakpoints {
            style.append("--lines-\(breakpoint.breakpoint):\(breakpoint.collapsedLines)")
            style.append("--h-\(breakpoint.breakpoint):\(Int(breakpoint.collapsedHeight.rounded()))px")
            if breakpoint.isTruncated { classes.append("trunc-\(breakpoint.breakpoint)") }
            planSummary.append("\(breakpoint.breakpoint):\(breakpoint.collapsedLines)/\(breakpoint.descriptionLines)")
        }
        var values = common(item, root: root)
        values["isImage"] = plan.template == .image
        values["classes"] = TemplateText(classes.joined(separator: " "))
        values["style"] = TemplateText(style.joined(separator: ";"))
        values["plan"] = TemplateText(planSummary.joined(separator: " ") + (plan.isEstimated ? " estimated" : ""))
        values["url"] = TemplateText(root + "items/\(item.slug)/")
        if let image = ImageChoice.bestFit(item.images, box: metrics.imageBox) {
            var imageValues: [String: Any] = [
                "src": TemplateText(SiteURL.resolve(image.url, root: root)),
                "size": Int(metrics.imageBox),
                "sizes": TemplateText("\(Int(metrics.imageBox))px"),
            ]
            if let srcset = ImageChoice.srcset(item.images, root: root) { imageValues["srcset"] = TemplateText(srcset) }
            values["image"] = imageValues
        }
        return values
    }

    func detail(_ item: Item, root: String) -> [String: Any] {
        var values = common(item, root: root)
        if let image = ImageChoice.largest(item.images) {
            var imageValues: [String: Any] = ["src": TemplateText(SiteURL.resolve(image.url, root: root))]
            if let width = image.width, let height = image.height {
                imageValues["width"] = width
                imageValues["height"] = height
            }
            values["image"] = imageValues
        }
        return values
    }

    private func common(_ item: Item, root: String) -> [String: Any] {
        var values: [String: Any] = [
            "id": TemplateText(item.id),
            "slug": TemplateText(item.slug),
            "title": TemplateText(item.title),
            "intro": TemplateText(item.intro),
            "source": TemplateText(item.source),
            "descriptionHTML": TemplateText(SiteURL.resolveMarkers(in: item.bodyHTML, root: root)),
            "hasDescription": !item.bodyHTML.isEmpty,
            "tags": item.tags.templateTexts,
            "badges": item.badges.templateTexts,
            "meta": item.metadata.templateValues.mapValues(TemplateText.init),
        ]
        if let link = item.link { values["link"] = TemplateText(link) }
        if let author = item.author, !author.isEmpty { values["author"] = TemplateText(author) }
        if let date = item.date {
            values["date"] = TemplateText(DateText.display(date))
            values["dateISO"] = TemplateText(DateText.iso8601(date))
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
