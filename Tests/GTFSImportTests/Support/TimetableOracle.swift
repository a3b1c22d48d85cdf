import Foundation

/// The timetable of one feed computed by brute force from its CSV texts: the reference ("oracle") that
/// tests compare the store's read side with.
///
/// It shares nothing with the code it checks: no SQL, nothing from `GTFSImport`, not even the `GTFS`
/// module's parser. It reads the simple CSV that ``RandomTimetable`` and hand-written tests produce (no
/// quotes), expands every service to its dates and every trip to its events, and filters. It is written to
/// be obviously right, not fast.
///
/// The GTFS rules it follows:
/// - a service runs on the dates of its `calendar.txt` row whose weekday flag is 1, between `start_date` and
///   `end_date` inclusive; a `calendar_dates.txt` row with `exception_type` 1 adds its date (with or without
///   a calendar row), one with 2 removes it (a removal wins over the calendar);
/// - a stop time's instant on a service date is "noon minus 12 h" of that date in the agency's time zone
///   plus the time's seconds (``dayStart(date:)``), which is not local midnight on the days clocks change;
/// - a trip in `frequencies.txt` is a template: for every frequency row and every run start
///   `s = start_time + k × headway_secs < end_time` its stop times shift by `s` minus the template's first
///   departure (the row with the lowest `stop_sequence`); `exact_times` 0 and 1 expand alike, and the
///   template's own times are not events;
/// - an empty departure (arrival) time gives no departure (arrival) event.
///
/// ```swift
/// let oracle = try TimetableOracle(files: feed.files, feedName: "vbb")
/// let from = try oracle.dayStart(date: 20250330)
/// let departures = oracle.departures(stops: oracle.stopsOfStation("ST1"), from: from, to: from + 3600)
/// ```
struct TimetableOracle: Sendable {
    /// One stop time of one trip on one service date (for a frequency-based trip: of one run).
    struct Event: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The feed's name, as given to the oracle (tests that merge feeds tell them apart by it).
        var feed: String
        /// `trip_id`.
        var tripID: String
        /// `stop_id`.
        var stopID: String
        /// `stop_sequence`.
        var stopSequence: Int
        /// The service date the trip runs on, `YYYYMMDD`: not necessarily the local date of the instant
        /// (a time past 24:00:00 falls on a later day).
        var serviceDate: Int
        /// The instant the query was about, Unix seconds: the departure for a departure query, the
        /// arrival for an arrival query.
        var instant: Int64
        /// The arrival, Unix seconds; `nil` when `arrival_time` is empty.
        var arrival: Int64?
        /// The departure, Unix seconds; `nil` when `departure_time` is empty.
        var departure: Int64?
        /// `pickup_type` (empty reads as 0).
        var pickupType: Int
        /// `drop_off_type` (empty reads as 0).
        var dropOffType: Int
        /// The trip's `route_id`.
        var routeID: String
        /// `stop_headsign` when given, else the trip's `trip_headsign`, else `nil`.
        var headsign: String?
        /// For a frequency-based trip, the run's start (`start_time + k × headway_secs`, seconds after the
        /// service day's start); `nil` for a trip with its own times.
        var runStart: Int?

        /// Orders by instant, trip, stop_sequence and service date (the order the read side is specified
        /// to return), then feed and run so the order is total. Ids compare as Swift strings, which for
        /// the ASCII ids of the test feeds is SQLite's byte order too.
        static func < (lhs: Event, rhs: Event) -> Bool {
            if lhs.instant != rhs.instant { return lhs.instant < rhs.instant }
            if lhs.tripID != rhs.tripID { return lhs.tripID < rhs.tripID }
            if lhs.stopSequence != rhs.stopSequence { return lhs.stopSequence < rhs.stopSequence }
            if lhs.serviceDate != rhs.serviceDate { return lhs.serviceDate < rhs.serviceDate }
            if lhs.feed != rhs.feed { return lhs.feed < rhs.feed }
            return (lhs.runStart ?? -1) < (rhs.runStart ?? -1)
        }

        /// One line a failing comparison can be read from: instant as ISO 8601, trip, stop, date.
        var description: String {
            let time = Date(timeIntervalSince1970: TimeInterval(instant)).formatted(.iso8601)
            return "\(time) \(feed)/\(tripID)#\(stopSequence) at \(stopID) on \(serviceDate)"
                + " arr \(arrival.map(String.init) ?? "-") dep \(departure.map(String.init) ?? "-")"
                + " pickup \(pickupType) drop-off \(dropOffType) route \(routeID) headsign \(headsign ?? "-")"
                + (runStart.map { " run \($0)" } ?? "")
        }
    }

    /// Which instant of a stop time a query selects and sorts by.
    enum Side: Sendable {
        /// `departure_time`.
        case departure
        /// `arrival_time`.
        case arrival
    }

    /// A feed the oracle cannot read: its inputs are generated, so anything unexpected is a mistake to see.
    struct InvalidFeed: Error, CustomStringConvertible {
        /// What is wrong, with the file and line.
        var description: String
    }

    /// The feed's name, copied into every event.
    let feedName: String
    /// The agency time zone's identifier (`agency_timezone`).
    let timeZoneID: String

    /// A `stop_times.txt` row, as the oracle needs it.
    private struct StopTimeRow: Sendable {
        var stopID: String
        var stopSequence: Int
        var arrival: Int?
        var departure: Int?
        var headsign: String?
        var pickupType: Int
        var dropOffType: Int
    }

    /// A `trips.txt` row with its stop times sorted by `stop_sequence`.
    private struct TripRow: Sendable {
        var routeID: String
        var serviceID: String
        var headsign: String?
        var stopTimes: [StopTimeRow] = []
    }

    /// A `frequencies.txt` row.
    private struct FrequencyRow: Sendable {
        var start: Int
        var end: Int
        var headway: Int
    }

    private let trips: [String: TripRow]
    private let frequencies: [String: [FrequencyRow]]
    private let datesByService: [String: Set<Int>]
    /// The day start of every date some service runs on.
    private let dayStarts: [Int: Int64]
    private let timeZone: TimeZone
    /// `parent_station` of every stop that has one.
    private let parents: [String: String]

    /// Reads a feed.
    ///
    /// - Parameters:
    ///   - files: GTFS file name → CSV text (no quoted fields), as ``RandomTimetable/files``.
    ///   - feedName: the name the feed is imported under; copied into every event.
    /// - Throws: ``InvalidFeed`` for anything the oracle does not expect: a missing or unknown time zone, a
    ///   quote, a row with the wrong number of cells, a malformed time or date, a repeated key, a
    ///   frequency-based trip whose first stop has no departure time.
    init(files: [String: String], feedName: String = "default") throws {
        self.feedName = feedName

        let agencies = try Self.table(files, "agency.txt")
        let zones = Set(try agencies.map { try $0.required("agency_timezone") })
        guard zones.count == 1, let zone = zones.first else {
            throw InvalidFeed(description: "agency.txt: expected one agency_timezone, found \(zones.sorted())")
        }
        // Identifiers are case-sensitive in Foundation ("europe/berlin" is nil), as in the tz database.
        guard let timeZone = TimeZone(identifier: zone) else { throw InvalidFeed(description: "agency.txt: unknown time zone \(zone)") }
        self.timeZone = timeZone
        timeZoneID = zone

        var parents: [String: String] = [:]
        for row in try Self.table(files, "stops.txt") {
            if let parent = row.optional("parent_station") { parents[try row.required("stop_id")] = parent }
        }
        self.parents = parents

        var trips: [String: TripRow] = [:]
        for row in try Self.table(files, "trips.txt") {
            let id = try row.required("trip_id")
            guard trips[id] == nil else { throw row.error("trip_id \(id) repeated") }
            trips[id] = TripRow(
                routeID: try row.required("route_id"), serviceID: try row.required("service_id"),
                headsign: row.optional("trip_headsign"))
        }
        for row in try Self.table(files, "stop_times.txt") {
            let tripID = try row.required("trip_id")
            guard trips[tripID] != nil else { throw row.error("trip \(tripID) is not in trips.txt") }
            let stopTime = StopTimeRow(
                stopID: try row.required("stop_id"), stopSequence: try row.integer("stop_sequence"),
                arrival: try row.time("arrival_time"), departure: try row.time("departure_time"),
                headsign: row.optional("stop_headsign"),
                pickupType: try row.optional("pickup_type").map { try row.integer("pickup_type", $0) } ?? 0,
                dropOffType: try row.optional("drop_off_type").map { try row.integer("drop_off_type", $0) } ?? 0)
            guard trips[tripID]?.stopTimes.contains(where: { $0.stopSequence == stopTime.stopSequence }) == false else {
                throw row.error("trip \(tripID) repeats stop_sequence \(stopTime.stopSequence)")
            }
            trips[tripID]?.stopTimes.append(stopTime)
        }
        // The file's order is not the trip's order: the first stop is the one with the lowest stop_sequence.
        for id in trips.keys { trips[id]?.stopTimes.sort { $0.stopSequence < $1.stopSequence } }
        self.trips = trips

        var frequencies: [String: [FrequencyRow]] = [:]
        for row in try Self.table(files, "frequencies.txt", optional: true) {
            let tripID = try row.required("trip_id")
            guard let trip = trips[tripID] else { throw row.error("trip \(tripID) is not in trips.txt") }
            guard trip.stopTimes.first?.departure != nil else {
                throw row.error("frequency-based trip \(tripID) has no departure time at its first stop")
            }
            let start = try row.time("start_time") ?? -1
            let end = try row.time("end_time") ?? -1
            let headway = try row.integer("headway_secs")
            guard start >= 0, end >= 0, headway > 0 else { throw row.error("start_time, end_time and a positive headway_secs are required") }
            if let exact = row.optional("exact_times"), exact != "0", exact != "1" { throw row.error("exact_times \(exact)") }
            guard frequencies[tripID, default: []].contains(where: { $0.start == start }) == false else {
                throw row.error("trip \(tripID) repeats start_time \(start)")
            }
            frequencies[tripID, default: []].append(FrequencyRow(start: start, end: end, headway: headway))
        }
        self.frequencies = frequencies

        let dates = try Self.serviceDates(
            calendar: try Self.table(files, "calendar.txt", optional: true),
            calendarDates: try Self.table(files, "calendar_dates.txt", optional: true))
        datesByService = dates
        var dayStarts: [Int: Int64] = [:]
        for date in Set(dates.values.joined()) { dayStarts[date] = try Self.dayStart(date: date, in: timeZone) }
        self.dayStarts = dayStarts
    }

    // MARK: Services

    /// The dates `serviceID` runs on, `YYYYMMDD`; empty for a service the feed does not define.
    func serviceDates(_ serviceID: String) -> Set<Int> {
        datesByService[serviceID] ?? []
    }

    /// Every service's dates: the calendar's weekdays in its range, plus additions, minus removals.
    private static func serviceDates(calendar: [CSVRecord], calendarDates: [CSVRecord]) throws -> [String: Set<Int>] {
        var result: [String: Set<Int>] = [:]
        let weekdayColumns = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        for row in calendar {
            let service = try row.required("service_id")
            guard result[service] == nil else { throw row.error("service_id \(service) repeated") }
            // Foundation numbers weekdays 1 (Sunday) to 7 (Saturday): the flags in that order.
            let flags = try weekdayColumns.map { column -> Bool in
                switch try row.required(column) {
                case "0": return false
                case "1": return true
                case let value: throw row.error("\(column) \(value)")
                }
            }
            var dates = Set<Int>()
            let end = try civilDay(try row.integer("end_date"))
            var day = try civilDay(try row.integer("start_date"))
            while day <= end {
                if flags[civil.component(.weekday, from: day) - 1] { dates.insert(try dateInteger(day)) }
                guard let next = civil.date(byAdding: .day, value: 1, to: day) else { throw row.error("no day after \(day)") }
                day = next
            }
            result[service] = dates
        }
        var seen = Set<String>()
        var removals: [(service: String, date: Int)] = []
        for row in calendarDates {
            let service = try row.required("service_id")
            let date = try row.integer("date")
            _ = try civilDay(date)
            guard seen.insert("\(service) \(date)").inserted else { throw row.error("\(service) \(date) repeated") }
            switch try row.required("exception_type") {
            case "1": result[service, default: []].insert(date)
            case "2": removals.append((service, date))
            case let value: throw row.error("exception_type \(value)")
            }
        }
        // Removals last, so a removal wins whatever the order of the file (a key appears once anyway).
        for removal in removals { result[removal.service]?.remove(removal.date) }
        return result
    }

    // MARK: Instants

    /// The instant GTFS times of `date` count from: local noon of the date in the agency's time zone,
    /// minus 12 hours, as Unix seconds. On a day the clocks change this is not local midnight
    /// (Europe/Berlin 2025-03-30: 2025-03-29T22:00:00Z, while midnight is 23:00Z).
    ///
    /// - Parameter date: `YYYYMMDD`.
    /// - Throws: ``InvalidFeed`` for a date that does not exist or whose local noon does not.
    func dayStart(date: Int) throws -> Int64 {
        if let start = dayStarts[date] { return start }
        return try Self.dayStart(date: date, in: timeZone)
    }

    /// ``dayStart(date:)`` in any time zone.
    static func dayStart(date: Int, in timeZone: TimeZone) throws -> Int64 {
        _ = try civilDay(date)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: date / 10000, month: date / 100 % 100, day: date % 100, hour: 12, minute: 0, second: 0)
        guard let noon = calendar.date(from: components) else { throw InvalidFeed(description: "no noon on \(date) in \(timeZone.identifier)") }
        // Foundation moves a local time that does not exist (a skipped day, as Pacific/Apia's 2011-12-30)
        // instead of failing: check that noon is noon of that date.
        let back = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: noon)
        guard back.year == components.year, back.month == components.month, back.day == components.day, back.hour == 12,
            back.minute == 0, back.second == 0
        else { throw InvalidFeed(description: "noon of \(date) does not exist in \(timeZone.identifier)") }
        let seconds = noon.timeIntervalSince1970
        guard seconds.rounded() == seconds else { throw InvalidFeed(description: "noon of \(date) is \(seconds) s") }
        return Int64(seconds) - 43_200
    }

    // MARK: Events

    /// Every departure at `stops` whose instant lies in `from ..< to` (Unix seconds), sorted.
    func departures(stops: Set<String>, from: Int64, to: Int64) -> [Event] {
        events(stops: stops, from: from, to: to, by: .departure)
    }

    /// Every arrival at `stops` whose instant lies in `from ..< to` (Unix seconds), sorted.
    func arrivals(stops: Set<String>, from: Int64, to: Int64) -> [Event] {
        events(stops: stops, from: from, to: to, by: .arrival)
    }

    /// Every stop time at `stops` whose departure (or arrival) instant lies in `from ..< to`, on every
    /// service date of its trip, for every run of a frequency-based trip; sorted by ``Event/<``.
    ///
    /// Brute force: every trip, every date of its service, every run, every stop time, then the filter.
    ///
    /// - Parameters:
    ///   - stops: the stop ids (expand a station with ``stopsOfStation(_:)``).
    ///   - from: the first instant included.
    ///   - to: the first instant excluded.
    ///   - side: departures or arrivals.
    func events(stops: Set<String>, from: Int64, to: Int64, by side: Side = .departure) -> [Event] {
        var result: [Event] = []
        for (tripID, trip) in trips {
            // (shift in seconds, run start): one unshifted run for a trip with its own times.
            var runs: [(shift: Int, start: Int?)] = [(0, nil)]
            if let rows = frequencies[tripID], let first = trip.stopTimes.first?.departure {
                runs = []
                for row in rows {
                    var start = row.start
                    while start < row.end {
                        runs.append((start - first, start))
                        start += row.headway
                    }
                }
            }
            // Only to skip dates quickly: every instant of the trip on a date lies within
            // dayStart + earliest ... dayStart + latest.
            let times = trip.stopTimes.flatMap { [$0.arrival, $0.departure].compactMap { $0 } }
            let shifts = runs.map(\.shift)
            guard let earliestTime = times.min(), let latestTime = times.max(), let earliestShift = shifts.min(),
                let latestShift = shifts.max()
            else { continue }  // no times, or a frequency-based trip without runs: no events
            let earliest = Int64(earliestTime + earliestShift), latest = Int64(latestTime + latestShift)
            for date in serviceDates(trip.serviceID) {
                guard let dayStart = dayStarts[date] else { continue }  // filled for every service date
                guard dayStart + latest >= from, dayStart + earliest < to else { continue }
                for run in runs {
                    for stopTime in trip.stopTimes where stops.contains(stopTime.stopID) {
                        let arrival = stopTime.arrival.map { dayStart + Int64($0 + run.shift) }
                        let departure = stopTime.departure.map { dayStart + Int64($0 + run.shift) }
                        guard let instant = side == .departure ? departure : arrival, from <= instant, instant < to else { continue }
                        result.append(
                            Event(
                                feed: feedName, tripID: tripID, stopID: stopTime.stopID, stopSequence: stopTime.stopSequence,
                                serviceDate: date, instant: instant, arrival: arrival, departure: departure,
                                pickupType: stopTime.pickupType, dropOffType: stopTime.dropOffType, routeID: trip.routeID,
                                headsign: stopTime.headsign ?? trip.headsign, runStart: run.start))
                    }
                }
            }
        }
        return result.sorted()
    }

    // MARK: Stops

    /// A station's id with the ids of the stops whose `parent_station` it is (its platforms); for a stop
    /// that is no one's parent, just that id.
    func stopsOfStation(_ stationID: String) -> Set<String> {
        Set(parents.filter { $0.value == stationID }.keys).union([stationID])
    }

    /// Every trip id of the feed.
    var tripIDs: Set<String> { Set(trips.keys) }

    /// Every trip listed in `frequencies.txt`.
    var frequencyTripIDs: Set<String> { Set(frequencies.keys) }

    /// The largest `arrival_time` or `departure_time` of `stop_times.txt`, in seconds (templates included).
    var latestStopTime: Int {
        trips.values.flatMap(\.stopTimes).flatMap { [$0.arrival, $0.departure].compactMap { $0 } }.max() ?? 0
    }

    // MARK: Reading

    /// A UTC Gregorian calendar for civil dates, which have no time zone (weekdays, the next day).
    private static let civil: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    /// Noon UTC of a `YYYYMMDD` date, refusing dates that do not exist (Foundation would roll 20250231 over).
    private static func civilDay(_ date: Int) throws -> Date {
        let components = DateComponents(year: date / 10000, month: date / 100 % 100, day: date % 100, hour: 12)
        guard (10000101 ... 99991231).contains(date), let day = civil.date(from: components), try dateInteger(day) == date else {
            throw InvalidFeed(description: "\(date) is not a date")
        }
        return day
    }

    /// `YYYYMMDD` of a civil day.
    private static func dateInteger(_ day: Date) throws -> Int {
        let parts = civil.dateComponents([.year, .month, .day], from: day)
        guard let year = parts.year, let month = parts.month, let dayOfMonth = parts.day else {
            throw InvalidFeed(description: "no date for \(day)")
        }
        return year * 10000 + month * 100 + dayOfMonth
    }

    /// One data row of a CSV file, by column name.
    private struct CSVRecord {
        var file: String
        var line: Int
        var cells: [String: String]

        /// A non-empty cell.
        func optional(_ column: String) -> String? {
            guard let value = cells[column], !value.isEmpty else { return nil }
            return value
        }

        func required(_ column: String) throws -> String {
            guard let value = optional(column) else { throw error("\(column) is empty or missing") }
            return value
        }

        func integer(_ column: String) throws -> Int {
            try integer(column, try required(column))
        }

        func integer(_ column: String, _ text: String) throws -> Int {
            guard text.allSatisfy(\.isASCII), let value = Int(text) else { throw error("\(column) \(text) is not an integer") }
            return value
        }

        /// `H:MM:SS`, `HH:MM:SS` or more hour digits, as seconds; `nil` when empty.
        func time(_ column: String) throws -> Int? {
            guard let text = optional(column) else { return nil }
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, (1 ... 3).contains(parts[0].count), parts[1].count == 2, parts[2].count == 2,
                parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Int(parts[2]), minutes < 60, seconds < 60
            else { throw error("\(column) \(text) is not a time") }
            return hours * 3600 + minutes * 60 + seconds
        }

        func error(_ message: String) -> InvalidFeed {
            InvalidFeed(description: "\(file):\(line): \(message)")
        }
    }

    /// The rows of `name`, each by column; no rows when an optional file is missing.
    private static func table(_ files: [String: String], _ name: String, optional: Bool = false) throws -> [CSVRecord] {
        guard let text = files[name] else {
            if optional { return [] }
            throw InvalidFeed(description: "\(name) is missing")
        }
        guard !text.contains("\"") else { throw InvalidFeed(description: "\(name): quoted fields are not read by the oracle") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else { return [] }
        guard Set(header).count == header.count else { throw InvalidFeed(description: "\(name): a column repeats") }
        var rows: [CSVRecord] = []
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == header.count else {
                throw InvalidFeed(description: "\(name):\(index + 1): \(cells.count) cells, the header has \(header.count)")
            }
            rows.append(CSVRecord(file: name, line: index + 1, cells: Dictionary(uniqueKeysWithValues: zip(header, cells))))
        }
        return rows
    }
}
