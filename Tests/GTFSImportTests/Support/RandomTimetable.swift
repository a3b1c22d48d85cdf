import GTFS
import TestSupport

/// A small random GTFS feed, the same for the same arguments, that holds every case a timetable read side
/// can get wrong: times past 24:00:00 and past 48:00:00, service dates on the days clocks change,
/// calendar_dates additions and removals, services defined only by calendar_dates, frequency-based trips
/// (exact_times 0 and 1, several rows, rows ending past 24:00:00), stations with platforms, stop_sequence
/// with gaps, stop times without times, pickup and drop-off types, stop and trip headsigns.
///
/// Sizes stay small (20–40 stops, 5–10 routes, 50–150 trips, a few hundred to about two thousand stop times)
/// so a test imports a feed in well under a second. The CSV has no quotes (``TimetableOracle`` reads it
/// as plain comma-separated text) and LF line ends.
///
/// ```swift
/// let feed = RandomTimetable.make(seed: 7, timeZone: "America/New_York")
/// let path = try FeedFiles.directory(feed.files, in: folder)
/// let oracle = try feed.oracle()
/// ```
///
/// What the arguments change:
/// - `seed`: everything;
/// - `variant`: times, calendars and calendar_dates, frequencies, pickup and drop-off types, which stop
///   times are without times, but no id and no stop_sequence: two variants of a seed are two different
///   timetables over the same stops, routes, trips and services;
/// - `idPrefix`: prepended to every id (agencies, stops, routes, services, trips), nothing else;
/// - `timeZone`: `agency_timezone` and the point the stops are scattered around;
/// - `feedName`: nothing in the files; it is the name tests import the feed under and the oracle's.
struct RandomTimetable: Sendable {
    /// The seed the feed was made from.
    let seed: UInt64
    /// The timing variant (0 by default).
    let variant: Int
    /// The feed name to import the files under (also the ``oracle()``'s).
    let feedName: String
    /// `agency_timezone`.
    let timeZone: String
    /// The prefix of every id.
    let idPrefix: String
    /// GTFS file name → CSV text.
    let files: [String: String]
    /// The stations (location_type 1), in file order.
    let stationIDs: [String]
    /// Each station's platforms (location_type 0 with parent_station and platform_code).
    let platformIDs: [String: [String]]
    /// The stops without a parent station that are not stations.
    let plainStopIDs: [String]
    /// Every row of stops.txt, in file order: stations, platforms and plain stops.
    let stopIDs: [String]
    /// Every route.
    let routeIDs: [String]
    /// Every trip.
    let tripIDs: [String]
    /// The trips listed in frequencies.txt.
    let frequencyTripIDs: [String]
    /// Every service (calendar.txt services, then those defined only by calendar_dates.txt).
    let serviceIDs: [String]
    /// The first and last date a service row names (calendar ranges and calendar_dates), `YYYYMMDD`.
    let dateRange: ClosedRange<Int>

    /// The days of 2025 on which the clocks change in the zones the tests use (all Sundays).
    static let clockChanges: [String: [Int]] = [
        "Europe/Berlin": [20250330, 20251026],
        "America/New_York": [20250309, 20251102],
    ]

    /// The days of 2025 on which the clocks change in this feed's zone (empty for a zone not in
    /// ``clockChanges``).
    var clockChangeDates: [Int] { Self.clockChanges[timeZone] ?? [] }

    /// The oracle for this feed, under ``feedName``.
    /// - Throws: ``TimetableOracle/InvalidFeed`` (a bug of the generator).
    func oracle() throws -> TimetableOracle {
        try TimetableOracle(files: files, feedName: feedName)
    }

    /// Makes a feed.
    ///
    /// - Parameters:
    ///   - seed: picks everything; the same arguments give the same files, in any process.
    ///   - feedName: the name tests import the feed under; not written into the files.
    ///   - timeZone: `agency_timezone` (tests use "Europe/Berlin" and "America/New_York").
    ///   - idPrefix: prepended to every id, so two feeds of one seed can have distinct ids ("" for identical).
    ///   - variant: another timetable (times, calendars, frequencies) with the same ids and stop_sequences.
    static func make(
        seed: UInt64, feedName: String = "default", timeZone: String = "Europe/Berlin", idPrefix: String = "",
        variant: Int = 0
    ) -> RandomTimetable {
        var builder = Builder(seed: seed, variant: variant, timeZone: timeZone, prefix: idPrefix)
        builder.build()
        return RandomTimetable(
            seed: seed, variant: variant, feedName: feedName, timeZone: timeZone, idPrefix: idPrefix, files: builder.files,
            stationIDs: builder.stationIDs, platformIDs: builder.platformIDs, plainStopIDs: builder.plainStopIDs,
            stopIDs: builder.stopIDs, routeIDs: builder.routeIDs, tripIDs: builder.tripIDs,
            frequencyTripIDs: builder.frequencyTripIDs, serviceIDs: builder.serviceIDs,
            dateRange: (builder.dates.min() ?? 20250101) ... (builder.dates.max() ?? 20251231))
    }
}


// MARK: - Civil dates

/// Day numbers (days since 1970-01-01) and back, for picking dates and weekdays, from the library's
/// ``GTFSDate``: the oracle uses Foundation's calendar instead, so a mistake there shows as a difference.
private enum CivilDate {
    /// The day number of `YYYYMMDD`.
    static func dayNumber(_ date: Int) -> Int {
        guard let date = GTFSDate(integerValue: date) else { preconditionFailure("the generator's dates are valid: \(date)") }
        return date.daysSince1970
    }

    /// `YYYYMMDD` of a day number.
    static func date(_ dayNumber: Int) -> Int {
        guard let date = GTFSDate(daysSince1970: dayNumber) else { preconditionFailure("the generator's dates are valid: \(dayNumber)") }
        return date.integerValue
    }

    /// 0 for Monday … 6 for Sunday.
    static func weekday(_ dayNumber: Int) -> Int { ((dayNumber + 3) % 7 + 7) % 7 }
}

// MARK: - The builder

/// Builds one feed. Two streams of draws: `shape` decides ids, the network and stop_sequences, `timing`
/// (seeded from seed and variant) decides times and dates. Every `shape` draw is made whatever `timing`
/// drew, so a variant keeps the ids.
private struct Builder {
    var shape: Draws
    var timing: Draws
    let variant: Int
    let timeZone: String
    let prefix: String

    var files: [String: String] = [:]
    var stationIDs: [String] = []
    var platformIDs: [String: [String]] = [:]
    var plainStopIDs: [String] = []
    var stopIDs: [String] = []
    var routeIDs: [String] = []
    var tripIDs: [String] = []
    var frequencyTripIDs: [String] = []
    var serviceIDs: [String] = []
    /// Every date a service row names, for ``RandomTimetable/dateRange``.
    var dates: [Int] = []

    /// Stops that stop_times may use (platforms and plain stops, not stations), and their names.
    private var servedStops: [(id: String, name: String)] = []

    /// Names without commas or quotes (the CSV is written unquoted).
    private static let names = [
        "Alexanderplatz", "Hauptbahnhof", "Zoologischer Garten", "Ostkreuz", "Südkreuz", "Gesundbrunnen",
        "Friedrichstraße", "Warschauer Straße", "Hermannplatz", "Rathaus Steglitz", "Spandau", "Wannsee",
        "Potsdamer Platz", "Nollendorfplatz", "Kottbusser Tor", "Schönhauser Allee", "Pankow", "Lichtenberg",
        "Tegel", "Adlershof", "Westend", "Mehringdamm", "Yorckstraße", "Tempelhof", "Neukölln", "Wedding",
        "Treptower Park", "Frankfurter Allee", "Jungfernheide", "Bernauer Straße",
    ]

    /// The four clock changes of 2025 in both test zones: every feed has service on and around them.
    private static let allClockChanges = [20250309, 20250330, 20251026, 20251102]

    init(seed: UInt64, variant: Int, timeZone: String, prefix: String) {
        shape = Draws(seed: seed)
        // A different stream for every (seed, variant); mixing through SplitMix64 keeps nearby seeds apart.
        var mixer = SeededGenerator(seed: seed ^ 0x7469_6D69_6E67_0000)
        timing = Draws(seed: mixer.next() &+ UInt64(bitPattern: Int64(variant)) &* 0x9E37_79B9_7F4A_7C15)
        self.variant = variant
        self.timeZone = timeZone
        self.prefix = prefix
    }

    mutating func build() {
        let agencies = makeAgencies()
        makeStops()
        let services = makeServices()
        let routes = makeRoutes(agencies: agencies)
        makeTrips(routes: routes, services: services)
    }

    // MARK: Agencies and stops

    private mutating func makeAgencies() -> [String] {
        let count = shape.int(1 ... 2)
        var text = "agency_id,agency_name,agency_url,agency_timezone,agency_lang\n"
        var ids: [String] = []
        for index in 1 ... count {
            let id = "\(prefix)A\(index)"
            ids.append(id)
            // Several agencies of one feed share one time zone (a GTFS rule).
            text += "\(id),Agency \(index),https://example.com/agency\(index),\(timeZone),\(timeZone.hasPrefix("Europe") ? "de" : "en")\n"
        }
        files["agency.txt"] = text
        return ids
    }

    private mutating func makeStops() {
        // Around the city of the zone, in microdegrees so the text never depends on Double formatting.
        let (latitude, longitude) = timeZone == "America/New_York" ? (40_712_776, -74_005_974) : (52_520_008, 13_404_954)
        let names = shape.shuffled(Self.names)
        var nameIndex = 0
        func nextName() -> String {
            defer { nameIndex += 1 }
            return names[nameIndex % names.count]
        }
        var text = "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code\n"
        let stations = shape.int(4 ... 7)
        for station in 1 ... stations {
            let id = "\(prefix)ST\(station)", name = nextName()
            let lat = latitude + shape.int(-40_000 ... 40_000), lon = longitude + shape.int(-60_000 ... 60_000)
            stationIDs.append(id)
            stopIDs.append(id)
            text += "\(id),\(name),\(Self.degrees(lat)),\(Self.degrees(lon)),1,,\n"
            let letters = shape.chance(30)
            for platform in 1 ... shape.int(1 ... 3) {
                let platformID = "\(id)_\(platform)"
                let code = letters ? ["A", "B", "C"][platform - 1] : "\(platform)"
                // location_type 0 written out or left empty (its default): both mean a platform here.
                let type = shape.chance(50) ? "0" : ""
                text += "\(platformID),\(name) Gleis \(code),\(Self.degrees(lat + shape.int(-300 ... 300))),"
                    + "\(Self.degrees(lon + shape.int(-300 ... 300))),\(type),\(id),\(code)\n"
                platformIDs[id, default: []].append(platformID)
                stopIDs.append(platformID)
                servedStops.append((platformID, name))
            }
        }
        for stop in 1 ... shape.int(8 ... 16) {
            let id = "\(prefix)S\(stop)", name = nextName()
            let lat = latitude + shape.int(-40_000 ... 40_000), lon = longitude + shape.int(-60_000 ... 60_000)
            text += "\(id),\(name),\(Self.degrees(lat)),\(Self.degrees(lon)),\(shape.chance(50) ? "0" : ""),,\n"
            plainStopIDs.append(id)
            stopIDs.append(id)
            servedStops.append((id, name))
        }
        files["stops.txt"] = text
    }

    /// Microdegrees as a decimal: -74005974 → "-74.005974".
    private static func degrees(_ micro: Int) -> String {
        let whole = abs(micro) / 1_000_000, fraction = String(abs(micro) % 1_000_000)
        return (micro < 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    // MARK: Services

    /// calendar.txt services (`C…`), then services only in calendar_dates.txt (`D…`); returns their ids.
    private mutating func makeServices() -> [String] {
        var calendar = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
        var exceptions = "service_id,date,exception_type\n"
        let first = CivilDate.dayNumber(20250101), last = CivilDate.dayNumber(20251231)
        let calendarCount = shape.int(3 ... 6), datesOnlyCount = shape.int(1 ... 3)

        for index in 0 ..< calendarCount {
            let id = "\(prefix)C\(index)"
            serviceIDs.append(id)
            // Monday first, as calendar.txt's columns.
            var flags = (0 ..< 7).map { _ in timing.chance(50) }
            if index == 0 {
                // The first service runs on weekends: the clock changes are Sunday mornings, and a
                // Saturday trip past 24:00 crosses one.
                flags[5] = true
                flags[6] = true
            } else if timing.chance(15) {
                flags = Array(repeating: false, count: 7)  // a calendar row that only calendar_dates fills
            }
            var start = first + timing.int(0 ... 50), end = last - timing.int(0 ... 50)
            if index > 0, timing.chance(25) {
                // A short range around one clock change (its edges near the change are edge cases too).
                let change = CivilDate.dayNumber(timing.element(Self.allClockChanges))
                start = change - timing.int(0 ... 10)
                end = change + timing.int(0 ... 10)
            }
            calendar += "\(id)," + flags.map { $0 ? "1" : "0" }.joined(separator: ",")
                + ",\(CivilDate.date(start)),\(CivilDate.date(end))\n"
            dates += [CivilDate.date(start), CivilDate.date(end)]

            var used = Set<Int>()
            func add(_ day: Int, _ type: Int) {
                guard used.insert(day).inserted else { return }
                exceptions += "\(id),\(CivilDate.date(day)),\(type)\n"
                dates.append(CivilDate.date(day))
            }
            if index == 0 {
                // Make sure one removal and one addition change something: a removal on a running day,
                // an addition after the range.
                // (Its range is 264 days or more and Saturdays run, so a running day lies within a week.)
                var removal = start + timing.int(0 ... end - start - 7)
                while !flags[CivilDate.weekday(removal)] { removal += 1 }
                add(removal, 2)
                add(end + timing.int(1 ... 20), 1)
            }
            for _ in 0 ..< timing.int(1 ... 5) {
                let day: Int
                switch timing.int(0 ... 9) {
                case 0 ... 3: day = CivilDate.dayNumber(timing.element(Self.allClockChanges)) + timing.int(-1 ... 1)
                case 4 ... 5: day = timing.element([start - 1, start, end, end + 1])
                default: day = start + timing.int(0 ... max(0, end - start))
                }
                add(day, timing.chance(50) ? 1 : 2)
            }
        }

        for index in 0 ..< datesOnlyCount {
            let id = "\(prefix)D\(index)"
            serviceIDs.append(id)
            var used = Set<Int>()
            func add(_ day: Int, _ type: Int) {
                guard used.insert(day).inserted else { return }
                exceptions += "\(id),\(CivilDate.date(day)),\(type)\n"
                dates.append(CivilDate.date(day))
            }
            // Every clock change of both zones, then random days, many near the changes.
            for change in Self.allClockChanges where index == 0 || timing.chance(50) { add(CivilDate.dayNumber(change), 1) }
            for _ in 0 ..< timing.int(3 ... 15) {
                let day =
                    timing.chance(50)
                    ? CivilDate.dayNumber(timing.element(Self.allClockChanges)) + timing.int(-2 ... 2)
                    : first + timing.int(0 ... last - first)
                add(day, 1)
            }
            // A removal of a day the service never had: it changes nothing, and must not add the day.
            if timing.chance(30) { add(first + timing.int(0 ... last - first), 2) }
        }
        files["calendar.txt"] = calendar
        files["calendar_dates.txt"] = exceptions
        return serviceIDs
    }

    // MARK: Routes

    /// A route: its id and the stops of its pattern (direction 0; direction 1 runs it backwards).
    private struct Route {
        var id: String
        var pattern: [(id: String, name: String)]
    }

    private mutating func makeRoutes(agencies: [String]) -> [Route] {
        var text = "route_id,agency_id,route_short_name,route_long_name,route_type\n"
        var routes: [Route] = []
        // (route_type, short name prefix): basic and extended types, as VBB's feed has both.
        let kinds: [(type: Int, prefix: String)] = [
            (0, "M"), (1, "U"), (2, "RE"), (3, ""), (4, "F"), (109, "S"), (700, "X"), (900, ""),
        ]
        for index in 1 ... shape.int(5 ... 10) {
            let id = "\(prefix)R\(index)"
            let kind = shape.element(kinds)
            let pattern = Array(shape.shuffled(servedStops).prefix(shape.int(4 ... 9)))
            let longName = shape.chance(70) ? "\(pattern[0].name) - \(pattern[pattern.count - 1].name)" : ""
            text += "\(id),\(shape.element(agencies)),\(kind.prefix)\(shape.int(1 ... 199)),\(longName),\(kind.type)\n"
            routes.append(Route(id: id, pattern: pattern))
            routeIDs.append(id)
        }
        files["routes.txt"] = text
        return routes
    }

    // MARK: Trips

    /// Trips, their stop times and frequencies. Trip 0 starts at 47:30:00 (in variant 0; up to 29 minutes
    /// later in others) on `C0` and ends past 48:00:00;
    /// trips 1 and 2 are frequency-based (exact_times 0 with several rows; exact_times 1 with a row ending
    /// past 24:00:00); trip 3 runs on the calendar_dates-only service `D0`.
    private mutating func makeTrips(routes: [Route], services: [String]) {
        var trips = "route_id,service_id,trip_id,trip_headsign,direction_id\n"
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type,timepoint\n"
        var frequencies = "trip_id,start_time,end_time,headway_secs,exact_times\n"
        let calendarServices = services.filter { $0.hasPrefix("\(prefix)C") }
        let datesOnlyServices = services.filter { $0.hasPrefix("\(prefix)D") }

        for index in 0 ..< shape.int(50 ... 150) {
            let id = "\(prefix)T\(index)"
            tripIDs.append(id)
            // Every route has a trip; then any route.
            let route = index < routes.count ? routes[index] : shape.element(routes)
            let direction = shape.int(0 ... 1)
            let stops: [(id: String, name: String)] = direction == 0 ? route.pattern : route.pattern.reversed()
            let service =
                switch index {
                case 0: calendarServices[0]
                case 3: datesOnlyServices[0]
                default: shape.element(services)
                }
            let headsign = shape.chance(60) ? stops[stops.count - 1].name : ""
            trips += "\(route.id),\(service),\(id),\(headsign),\(direction)\n"

            // stop_sequence: increasing with gaps; trip 0 is 1, 3, 7, 8, 13, …
            var sequences: [Int] = []
            var sequence = index == 0 ? 1 : shape.element([0, 1, 1, 1, 3, 10])
            for position in stops.indices {
                sequences.append(sequence)
                sequence += index == 0 ? [2, 4, 1, 5][position % 4] : shape.element([1, 1, 1, 2, 3, 5])
            }
            let stopHeadsigns = stops.indices.map { position -> String in
                let wanted = (index == 0 && position == 1) || shape.chance(10)
                return wanted && position + 1 < stops.count ? "via \(stops[position + 1].name)" : ""
            }
            let reversedInFile = shape.chance(10)
            let isFrequencyBased = index == 1 || index == 2 || (index > 3 && shape.chance(12))

            // The first stop's departure: 47:30:00 for trip 0; for a frequency-based trip, its first run
            // or an unrelated time (the template's own times are never events).
            var firstDeparture = tripStart()
            if index == 0 { firstDeparture = 47 * 3600 + 30 * 60 + (variant == 0 ? 0 : timing.int(0 ... 29) * 60) }
            if isFrequencyBased {
                frequencyTripIDs.append(id)
                let rows = frequencyRows(trip: index)
                for row in rows {
                    frequencies += "\(id),\(time(row.start)),\(time(row.end)),\(row.headway),\(row.exact)\n"
                }
                if let start = rows.first?.start, timing.chance(50) { firstDeparture = start }
            }

            var rows: [String] = []
            var clock = firstDeparture
            for position in stops.indices {
                let isFirst = position == 0, isLast = position == stops.count - 1
                var arrival = clock, departure = clock
                if isFirst {
                    // A dwell before the first departure: arrival earlier than departure.
                    if clock >= 300, timing.chance(20) { arrival -= timing.int(1 ... 5) * 60 }
                } else {
                    if index == 0 {
                        // Trip 0 has at least four stops: 47:30:00 plus three legs of 11 minutes or more
                        // ends past 48:00:00.
                        clock += timing.int(11 ... 15) * 60
                    } else {
                        clock += timing.chance(70) ? timing.int(1 ... 7) * 60 : timing.int(45 ... 420)
                    }
                    arrival = clock
                    if !isLast, timing.chance(40) { clock += timing.int(15 ... 180) }
                    departure = clock
                }
                // A stop between the ends may have no times (not a timepoint): it gives no event.
                let untimed = !isFirst && !isLast && timing.chance(8)
                let pickup = isLast && timing.chance(50) ? "1" : isFirst || isLast ? timing.element(["", "0"]) : pickupDropOff()
                let dropOff = isFirst && timing.chance(50) ? "1" : isFirst || isLast ? timing.element(["", "0"]) : pickupDropOff()
                let timepoint = untimed ? "0" : timing.element(["", "1"])
                let forcedPickup = index == 0 && isLast ? "1" : pickup
                let forcedDropOff = index == 0 && isFirst ? "1" : dropOff
                rows.append(
                    "\(id),\(untimed ? "" : time(arrival)),\(untimed ? "" : time(departure)),\(stops[position].id),"
                        + "\(sequences[position]),\(stopHeadsigns[position]),\(forcedPickup),\(forcedDropOff),\(timepoint)\n")
            }
            // The file's order need not be the trip's: the oracle and the store must sort by stop_sequence.
            stopTimes += (reversedInFile ? rows.reversed() : rows).joined()
        }
        files["trips.txt"] = trips
        files["stop_times.txt"] = stopTimes
        files["frequencies.txt"] = frequencies
    }

    /// A trip's first departure: mostly daytime, some past 24:00:00, some just after the day's start,
    /// a few past 44:00:00.
    private mutating func tripStart() -> Int {
        let start: Int
        switch timing.int(0 ... 99) {
        case 0 ..< 70: start = timing.int(4 * 3600 ... 23 * 3600 + 59 * 60)
        case 70 ..< 88: start = timing.int(24 * 3600 ... 27 * 3600 + 59 * 60)
        case 88 ..< 95: start = timing.int(0 ... 4 * 3600)
        default: start = timing.int(44 * 3600 ... 49 * 3600)
        }
        // Most on the minute, some on any second.
        return timing.chance(80) ? start - start % 60 : start
    }

    /// An intermediate stop's pickup_type or drop_off_type: mostly regular (written or empty), sometimes
    /// none (1), phone (2) or driver (3).
    private mutating func pickupDropOff() -> String {
        switch timing.int(0 ... 99) {
        case 0 ..< 6: "1"
        case 6 ..< 9: "2"
        case 9 ..< 12: "3"
        case 12 ..< 50: "0"
        default: ""
        }
    }

    /// A frequency-based trip's rows, in order and not overlapping (a row may start where the previous
    /// ends: end_time is excluded, so that run belongs to the later row). Trip 1: exact_times 0 and at least
    /// two rows; trip 2: exact_times 1 and a last row ending past 24:00:00.
    private mutating func frequencyRows(trip: Int) -> [(start: Int, end: Int, headway: Int, exact: String)] {
        var rows: [(start: Int, end: Int, headway: Int, exact: String)] = []
        let count = trip == 1 ? timing.int(2 ... 3) : timing.int(1 ... 3)
        var cursor = (trip == 2 ? timing.int(21 * 12 ... 23 * 12) : timing.int(5 * 12 ... 20 * 12)) * 300
        for row in 0 ..< count {
            // 7-minute headways do not divide the hour: the last run falls short of end_time.
            let headway = timing.element([300, 420, 600, 900, 1200, 1800])
            var end = cursor + timing.int(2 ... 12) * 900
            if trip == 2 && row == count - 1 { end = max(end, 24 * 3600 + timing.int(1 ... 6) * 600) }
            let exact = trip == 1 ? "0" : trip == 2 ? "1" : timing.element(["", "0", "1"])
            rows.append((cursor, end, headway, exact))
            cursor = end + timing.element([0, 0, 600, 1800, 3600])
        }
        return rows
    }

    /// `HH:MM:SS`, or `H:MM:SS` now and then below 10 hours (both are valid GTFS).
    private mutating func time(_ seconds: Int) -> String {
        let hours = seconds / 3600, minutes = seconds / 60 % 60, rest = seconds % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let hourText = hours < 10 && timing.chance(20) ? "\(hours)" : two(hours)
        return "\(hourText):\(two(minutes)):\(two(rest))"
    }
}
