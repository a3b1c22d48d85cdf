import Foundation

/// The instants `--at` accepts: `2025-11-10 08:00`, `2025-11-10T08:00:30` (in the feed's zone), `08:00`
/// (today in that zone), `2025-11-10` (its start), or any of these dated forms with `Z` or an offset
/// (`2025-11-10T07:00:00Z`, `2025-11-10 08:00+01:00`). Every field is checked: 2025-02-29, 24:00 or an
/// offset of +99:00 is an error, not another instant.
enum QueryTime {
    /// Why a text is not an instant, for the usage error.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// The usage all problems end with.
    static let forms = "use 'YYYY-MM-DD HH:MM', 'HH:MM' or ISO 8601 such as 2025-11-10T07:00:00Z"

    /// The instant `text` names, its fields in `zone` unless it gives an offset; `now` gives today.
    /// - Throws: ``Problem`` naming what is wrong.
    static func parse(_ text: String, in zone: TimeZone, now: Date = Date()) throws(Problem) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let shape = /^(?:(\d{4})-(\d{2})-(\d{2}))?(?:(?:^|[T ])(\d{1,2}):(\d{2})(?::(\d{2}))?)?(Z|[+-]\d{2}:?\d{2})?$/
        guard let match = trimmed.wholeMatch(of: shape), match.output.1 != nil || match.output.4 != nil,
            match.output.7 == nil || match.output.1 != nil
        else { throw Problem(description: "not a time (\(forms))") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        if let offset = match.output.7 { calendar.timeZone = try offsetZone(String(offset)) }
        var components = match.output.1 == nil ? calendar.dateComponents([.year, .month, .day], from: now) : DateComponents()
        if let year = match.output.1, let month = match.output.2, let day = match.output.3 {
            (components.year, components.month, components.day) = (Int(year), Int(month), Int(day))
        }
        components.hour = match.output.4.flatMap { Int($0) } ?? 0
        components.minute = match.output.5.flatMap { Int($0) } ?? 0
        components.second = match.output.6.flatMap { Int($0) } ?? 0
        try check(components, calendar)
        guard let date = calendar.date(from: components) else { throw Problem(description: "not a time (\(forms))") }
        return date
    }

    /// Refuses a field out of range: the calendar would roll 2025-02-29 into March and 25:00 into the next day.
    private static func check(_ components: DateComponents, _ calendar: Calendar) throws(Problem) {
        let (year, month, day) = (components.year ?? 0, components.month ?? 0, components.day ?? 0)
        guard (1 ... 12).contains(month) else { throw Problem(description: "month \(month) does not exist") }
        let first = calendar.date(from: DateComponents(year: year, month: month, day: 1))
        let days = first.flatMap { calendar.range(of: .day, in: .month, for: $0)?.count } ?? 31
        guard (1 ... days).contains(day) else {
            throw Problem(description: "\(String(format: "%04d-%02d", year, month)) has no day \(day)")
        }
        let (hour, minute, second) = (components.hour ?? 0, components.minute ?? 0, components.second ?? 0)
        guard (0 ... 23).contains(hour), (0 ... 59).contains(minute), (0 ... 59).contains(second) else {
            throw Problem(description: "\(String(format: "%02d:%02d:%02d", hour, minute, second)) is not a time of day (00:00 to 23:59:59)")
        }
    }

    /// The zone of `Z` or an offset `±HH:MM` (`±HHMM`), at most 18 hours from UTC.
    private static func offsetZone(_ text: String) throws(Problem) -> TimeZone {
        if text == "Z" { return TimeZone(secondsFromGMT: 0) ?? .current }
        let digits = text.dropFirst().filter(\.isNumber)
        let (hours, minutes) = (Int(digits.prefix(2)) ?? 99, Int(digits.suffix(2)) ?? 99)
        guard hours * 60 + minutes <= 18 * 60, minutes <= 59,
            let zone = TimeZone(secondsFromGMT: (text.hasPrefix("-") ? -1 : 1) * (hours * 3600 + minutes * 60))
        else { throw Problem(description: "the offset \(text) is out of range (-18:00 to +18:00)") }
        return zone
    }
}
