import Foundation

/// The instants `--at` accepts.
enum QueryTime {
    /// `2025-11-10 08:00`, `2025-11-10T08:00:30` (in `zone`), `08:00` (today in `zone`), `2025-11-10` (its
    /// start), or ISO 8601 with `Z` or an offset; `nil` for anything else.
    static func parse(_ text: String, in zone: TimeZone, now: Date = Date()) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime]
        if let date = iso.date(from: trimmed) { return date }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let numbers = trimmed.split { !$0.isNumber }.compactMap { Int($0) }
        let separators = trimmed.filter { !$0.isNumber }
        switch (numbers.count, separators) {
        case (2, ":"), (3, "::"):
            var day = calendar.dateComponents([.year, .month, .day], from: now)
            day.hour = numbers[0]
            day.minute = numbers[1]
            day.second = numbers.count == 3 ? numbers[2] : 0
            return valid(day, calendar)
        case (3, "--"), (5, "-- :"), (5, "--T:"), (6, "-- ::"), (6, "--T::"):
            let components = DateComponents(
                year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers.count > 3 ? numbers[3] : 0,
                minute: numbers.count > 4 ? numbers[4] : 0, second: numbers.count > 5 ? numbers[5] : 0)
            return valid(components, calendar)
        default:
            return nil
        }
    }

    /// The date of `components`, when each is in range (the calendar would roll 25:00 into the next day).
    private static func valid(_ components: DateComponents, _ calendar: Calendar) -> Date? {
        guard let hour = components.hour, let minute = components.minute, let second = components.second,
            (0 ... 23).contains(hour), (0 ... 59).contains(minute), (0 ... 59).contains(second),
            let month = components.month, (1 ... 12).contains(month), let day = components.day, (1 ... 31).contains(day)
        else { return nil }
        return calendar.date(from: components)
    }
}
