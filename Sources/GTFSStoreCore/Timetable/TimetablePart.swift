package import GTFS

/// The parts of the timetable a store derives from a feed's tables for reading it, each rebuilt (per
/// feed) whenever an import changes one of the files it comes from.
package enum TimetablePart: CaseIterable, Sendable {
    /// Service days, the instants each service date's times count from, and the feed's UTC offsets.
    case calendar
    /// The runs of `frequencies.txt` trips.
    case frequencies
    /// The spatial and the name index of the stops.
    case stops

    /// The files the part comes from.
    package var sources: Set<GTFSFile> {
        switch self {
        case .calendar: [.calendar, .calendarDates, .agency]
        case .frequencies: [.frequencies, .stopTimes]
        case .stops: [.stops]
        }
    }

    /// The most days the service days of a feed span, counted from its first date: a calendar that runs
    /// "until 2099" (some feeds say forever this way) would otherwise fill the table with decades of rows.
    package static let longestServiceSpan = 5 * 366

    /// The most runs one row of `frequencies.txt` gives: a day of departures every second is 86,400; more
    /// is a mistake (a headway in minutes, say) that would otherwise fill the table.
    package static let maxRunsPerFrequency = 100_000
}
