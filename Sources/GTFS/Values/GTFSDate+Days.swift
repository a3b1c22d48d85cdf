extension GTFSDate {
    /// Reads the integer `YYYYMMDD` (``integerValue``); `nil` when it is no date.
    /// - Parameter integerValue: the date as the integer `YYYYMMDD`, e.g. `20251124`.
    public init?(integerValue: Int) {
        guard (1_00_01 ... 9999_12_31).contains(integerValue) else { return nil }
        self.init(year: integerValue / 10000, month: integerValue / 100 % 100, day: integerValue % 100)
    }

    /// The number of days since 1970-01-01 (negative before it), in the proleptic Gregorian calendar.
    public var daysSince1970: Int {
        // Howard Hinnant's days_from_civil: years start in March, so the leap day ends the year.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` days after 1970-01-01; `nil` outside the years 1 to 9999.
    /// - Parameter days: days since 1970-01-01, negative before it.
    public init?(daysSince1970 days: Int) {
        // Howard Hinnant's civil_from_days; the bounds keep the arithmetic far from overflow.
        guard (-719_162 ... 2_932_896).contains(days) else { return nil }
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// The date `days` days later (earlier when negative); `nil` outside the years 1 to 9999.
    /// - Parameter days: the number of days to add.
    /// - Returns: the date, or `nil` when it falls outside the years 1 to 9999.
    public func adding(days: Int) -> GTFSDate? {
        let (sum, overflow) = daysSince1970.addingReportingOverflow(days)
        return overflow ? nil : GTFSDate(daysSince1970: sum)
    }

    /// The day of the week, ISO 8601: 1 is Monday, 7 is Sunday.
    public var weekday: Int { Self.weekday(daysSince1970: daysSince1970) }

    /// The day of the week of the day `days` days after 1970-01-01, ISO 8601: 1 is Monday, 7 is Sunday.
    /// - Parameter days: days since 1970-01-01, negative before it.
    /// - Returns: 1 (Monday) to 7 (Sunday).
    package static func weekday(daysSince1970 days: Int) -> Int {
        // 1970-01-01 was a Thursday.
        let fromMonday = (days % 7 + 3) % 7
        return (fromMonday < 0 ? fromMonday + 7 : fromMonday) + 1
    }
}
