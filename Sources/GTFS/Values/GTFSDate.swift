/// A calendar date written `YYYYMMDD` in GTFS, validated (February 31st is refused).
public struct GTFSDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The four-digit year.
    public let year: Int
    /// The month, 1…12.
    public let month: Int
    /// The day of the month, 1…31 as the month allows.
    public let day: Int

    /// Creates a date; `nil` when the day does not exist.
    ///
    /// - Parameters:
    ///   - year: the year, 1…9999.
    ///   - month: the month, 1…12.
    ///   - day: the day of the month.
    public init?(year: Int, month: Int, day: Int) {
        guard (1 ... 9999).contains(year), (1 ... 12).contains(month), day >= 1,
            day <= GTFSDate.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYYMMDD`.
    ///
    /// ```swift
    /// GTFSDate("20250231") // nil: February has no 31st
    /// ```
    /// - Parameter text: eight digits, `YYYYMMDD`.
    public init?(_ text: String) {
        var text = text
        guard let date = text.withUTF8({ GTFSDate(bytes: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = date
    }

    /// Parses `YYYYMMDD` from UTF-8 bytes without allocating.
    init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 8 else { return nil }
        var value = 0
        for byte in bytes {
            let digit = Int(byte) &- 48
            guard digit >= 0 && digit <= 9 else { return nil }
            value = value * 10 + digit
        }
        self.init(year: value / 10000, month: value / 100 % 100, day: value % 100)
    }

    /// The date as the integer `YYYYMMDD`: sortable and what the SQLite store keeps.
    public var integerValue: Int { year * 10000 + month * 100 + day }

    /// `YYYYMMDD`, as GTFS writes it.
    public var description: String {
        let text = String(integerValue)
        return String(repeating: "0", count: max(0, 8 - text.count)) + text
    }

    /// Orders chronologically.
    /// - Parameters:
    ///   - lhs: a date.
    ///   - rhs: another date.
    /// - Returns: whether `lhs` is earlier than `rhs`.
    public static func < (lhs: GTFSDate, rhs: GTFSDate) -> Bool { lhs.integerValue < rhs.integerValue }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
