/// A day of the proleptic Gregorian calendar, convertible to and from a day number (days since
/// 1970-01-01), so dates can be computed with plain integer arithmetic.
struct CivilDate: Hashable {
    let year: Int
    let month: Int
    let day: Int

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date of a day number (Howard Hinnant's `civil_from_days`).
    init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The weekday of a day number: 0 for Monday … 6 for Sunday (1970-01-01 was a Thursday).
    static func weekday(ofDayNumber dayNumber: Int) -> Int {
        ((dayNumber + 3) % 7 + 7) % 7
    }
}
