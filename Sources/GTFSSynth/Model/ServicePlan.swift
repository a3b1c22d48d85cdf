import GTFS

/// One service (the days trips run), derived from its index alone, in one of VBB's three styles:
/// weekdays in `calendar.txt` with holidays as exceptions, an all-zero `calendar.txt` row with every day in
/// `calendar_dates.txt` (as VBB itself writes most services), or days in `calendar_dates.txt` only.
struct ServicePlan {
    /// How the service's days are given.
    enum Style {
        case weekdays, listedDays, datesOnly
    }

    /// The day number (days since 1970-01-01) of a day of 2025.
    private static func day(_ month: Int, _ day: Int) -> Int { GTFSDate(year: 2025, month: month, day: day)?.daysSince1970 ?? 0 }

    /// The feed's validity: the whole of 2025, as day numbers.
    static let feedStart = day(1, 1)
    static let feedEnd = day(12, 31)

    /// Berlin's public holidays in 2025.
    static let holidays = [day(1, 1), day(3, 8), day(4, 18), day(4, 21), day(5, 1), day(5, 29), day(6, 9), day(10, 3), day(12, 25), day(12, 26)]

    /// The weekday of a day number: 0 for Monday … 6 for Sunday.
    static func weekday(_ dayNumber: Int) -> Int { GTFSDate.weekday(daysSince1970: dayNumber) - 1 }

    /// Weekday masks (bit 0 Monday … bit 6 Sunday) and how common they are.
    private static let masks: [(mask: Int, weight: Double)] = [
        (0b001_1111, 0.35), (0b010_0000, 0.12), (0b100_0000, 0.12), (0b011_1111, 0.12), (0b111_1111, 0.15),
        (0b000_1111, 0.06), (0b001_0000, 0.04), (0b110_0000, 0.04),
    ]

    let style: Style
    /// Weekdays the service runs on (0 for the listed styles).
    let mask: Int
    /// First and last day, as day numbers.
    let startDay: Int
    let endDay: Int
    /// `calendar_dates.txt` rows: day number and exception type (1 added, 2 removed), by date.
    let exceptions: [(day: Int, type: Int)]

    /// Plans service `index`.
    init(index: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed, stream: .services, index: index)
        let feedStart = Self.feedStart
        let feedEnd = Self.feedEnd
        style = index % 20 == 19 ? .datesOnly : random.chance(0.45) ? .listedDays : .weekdays
        switch style {
        case .weekdays:
            mask = Self.masks[random.weightedIndex(Self.masks.map(\.weight))].mask
            startDay = feedStart + (random.chance(0.3) ? random.below(120) : 0)
            endDay = feedEnd - (random.chance(0.3) ? random.below(120) : 0)
            var exceptions: [(day: Int, type: Int)] = []
            let sundaysOnly = mask == 0b100_0000
            for holiday in Self.holidays where holiday >= startDay && holiday <= endDay {
                let runs = mask >> Self.weekday(holiday) & 1 == 1
                if runs && !sundaysOnly {
                    exceptions.append((holiday, 2))
                } else if !runs && sundaysOnly {
                    exceptions.append((holiday, 1))
                }
            }
            // A few more days off (building works), on days the service would run.
            var day = startDay
            for _ in 0 ..< random.below(4) {
                day += 1 + random.below(90)
                guard day <= endDay else { break }
                if mask >> Self.weekday(day) & 1 == 1, !Self.holidays.contains(day) {
                    exceptions.append((day, 2))
                }
            }
            self.exceptions = exceptions.sorted { $0.day < $1.day }
        case .listedDays, .datesOnly:
            mask = 0
            startDay = feedStart
            endDay = feedEnd
            // Listed days, strictly increasing: at least one, about every `gap` days.
            let gap = random.int(in: 3 ... 14)
            var exceptions: [(day: Int, type: Int)] = []
            var day = feedStart + random.below(gap)
            while day <= feedEnd {
                exceptions.append((day, 1))
                day += 1 + random.below(2 * gap)
            }
            self.exceptions = exceptions
        }
    }
}
