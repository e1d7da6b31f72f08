import Foundation

/// Dates as feeds write them: RFC 822 (`Sat, 08 Nov 2014 14:30:02 PST`) and RFC 3339
/// (`2014-11-08T14:30:02Z`). Parsed by hand because real feeds bend both formats.
package enum FeedDate {
    static let zoneOffsets: [String: Int] = [
        "UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6,
        "PST": -8, "PDT": -7, "AKST": -9, "AKDT": -8, "HST": -10, "BST": 1, "CET": 1, "CEST": 2, "EET": 2,
        "EEST": 3, "JST": 9, "IST": 5, "AEST": 10, "AEDT": 11, "A": -1, "M": -12, "N": 1, "Y": 12,
    ]
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Parses either format; nil when the text is not a date.
    package static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmed()
        guard !trimmed.isEmpty, trimmed.count < 64 else { return nil }
        return trimmed.first?.isNumber == true && trimmed.contains("-") ? parseRFC3339(trimmed) ?? parseRFC822(trimmed) : parseRFC822(trimmed)
    }

    /// `[Day, ]DD Mon YYYY HH:MM[:SS] ZONE`
    package static func parseRFC822(_ text: String) -> Date? {
        var parts: [String]
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII (nearly every date): its characters are its bytes, which split without the
            // search for grapheme boundaries that splitting the characters makes.
            parts = text.utf8.split(whereSeparator: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") }).map { String(Substring($0)) }
        } else {
            parts = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        }
        if let first = parts.first, first.first?.isLetter == true { parts.removeFirst() }
        guard parts.count >= 4, let day = Int(parts[0]),
              let month = months.firstIndex(of: String(parts[1].prefix(3)).lowercased()),
              var year = Int(parts[2])
        else { return nil }
        if year < 100 { year += year < 50 ? 2000 : 1900 }
        let time = parts[3].split(separator: ":").compactMap { Int($0) }
        guard time.count >= 2 else { return nil }
        var offsetSeconds = 0
        if parts.count >= 5 {
            let zone = parts[4]
            if let sign = zone.first, sign == "+" || sign == "-", zone.count == 5, let value = Int(zone.dropFirst()) {
                offsetSeconds = (value / 100 * 3600 + value % 100 * 60) * (sign == "-" ? -1 : 1)
            } else if let hours = zoneOffsets[zone.uppercased()] {
                offsetSeconds = hours * 3600
            }
        }
        return make(year: year, month: month + 1, day: day, hour: time[0], minute: time[1], second: time.count > 2 ? time[2] : 0, offset: offsetSeconds)
    }

    /// `YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|±HH:MM]`
    package static func parseRFC3339(_ text: String) -> Date? {
        let scalars = Array(text.utf8)
        func number(_ start: Int, _ length: Int) -> Int? {
            guard start + length <= scalars.count else { return nil }
            var value = 0
            for byte in scalars[start..<start + length] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2) else { return nil }
        var hour = 0, minute = 0, second = 0, offset = 0
        var index = 10
        if index < scalars.count, scalars[index] == UInt8(ascii: "T") || scalars[index] == UInt8(ascii: "t") || scalars[index] == UInt8(ascii: " ") {
            guard let h = number(11, 2), let m = number(14, 2) else { return nil }
            hour = h; minute = m
            index = 16
            if index < scalars.count, scalars[index] == UInt8(ascii: ":"), let s = number(17, 2) { second = s; index = 19 }
            if index < scalars.count, scalars[index] == UInt8(ascii: ".") {
                index += 1
                while index < scalars.count, scalars[index] >= 0x30 && scalars[index] <= 0x39 { index += 1 }
            }
            if index < scalars.count {
                let sign = scalars[index]
                if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), let oh = number(index + 1, 2) {
                    let om = number(index + 4, 2) ?? number(index + 3, 2) ?? 0
                    offset = (oh * 3600 + om * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
                }
            }
        }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    private static func make(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        // Foundation's calendar ignores an offset no time zone can have, and so does this (asked
        // only past the offsets real zones have, so that a date makes no time zone).
        let offset = abs(offset) <= 14 * 3_600 || TimeZone(secondsFromGMT: offset) != nil ? offset : 0
        guard year >= 1583 else { return calendarDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset) }
        // Days since 1970-01-01 in the Gregorian calendar (the usual shift of the year to start in
        // March); a day past the month's end runs on into the next, as with Foundation's calendar.
        // Worked out here rather than with a `Calendar`: a feed has a date per item, and a
        // `Calendar` is costly to make.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second - offset))
    }

    /// ``make(year:month:day:hour:minute:second:offset:)`` by Foundation's Gregorian calendar,
    /// which is Julian before 1582.
    static func calendarDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int) -> Date? {
        var components = DateComponents()
        components.year = year; components.month = month; components.day = day
        components.hour = hour; components.minute = minute; components.second = second
        components.timeZone = TimeZone(secondsFromGMT: offset)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar.date(from: components)
    }
}
