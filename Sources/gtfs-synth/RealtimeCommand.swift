import ArgumentParser
import Foundation
import GTFS
import GTFSRealtime
import ToolSupport

/// `gtfs-synth realtime`: a seeded GTFS-Realtime `TripUpdates` message for the trips of a feed that start in
/// a time window of one service date, for benchmarks and tests of the realtime import.
///
/// ```
/// USAGE: gtfs-synth realtime --feed <feed> --date <date> --from <from> --to <to> --out <out>
///                            [--seed <seed>] [--changed-percent <changed-percent>] [--timestamp <timestamp>]
/// ```
///
/// Each selected trip (it runs on `--date` and its first departure lies in `[--from, --to)`) gets an entity
/// `tu-TRIP_ID` with a stop time update for every one of its stops, delays from a seeded random walk; about
/// 2 % are `CANCELED`, 3 % skip one stop, 1 % have `NO_DATA` from some stop on, and about 0.5 % as many
/// `ADDED` trips (`tu-added-N`) copy a selected trip's stops five minutes later. `--changed-percent P`
/// gives about P % of the entities (never a cancelled one) 60 s more delay and leaves every other byte as
/// it is: two polls of one benchmark. The same arguments give the same bytes.
///
/// Example: `gtfs-synth realtime --feed feed.zip --date 20251124 --from 07:00:00 --to 08:00:00 --out trips.pb`
/// prints one line: the trips, stop time updates, cancelled, skipped, no-data, added and changed entities,
/// and the bytes written.
struct RealtimeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtime",
        abstract: "Write a seeded GTFS-Realtime TripUpdates message for the trips of a feed starting in a time window.",
        discussion: """
            A trip is selected when it runs on --date (calendar.txt, adjusted by calendar_dates.txt) and its \
            first departure lies in [--from, --to); frequency-based trips are left out. Each selected trip gets \
            an entity "tu-TRIP_ID" with a stop time update for every stop (stop_sequence and stop_id), delays \
            from a seeded random walk; about 2 % are CANCELED, 3 % skip one stop, 1 % have NO_DATA from some \
            stop on, and about 0.5 % as many ADDED trips ("tu-added-N") run a selected trip's stops five \
            minutes later. --changed-percent P adds 60 s to every delay of about P % of the entities and \
            changes nothing else: the message of a poll with P % of its trips changed. stop_times.txt is read \
            as a stream and must hold each trip's rows together. The same arguments give identical bytes.
            """
    )

    @Option(name: .long, help: "The feed: a directory or zip, as `gtfs-synth feed` writes it.")
    var feed: String

    @Option(name: .long, help: "The service date, YYYYMMDD.")
    var date: String

    @Option(name: .long, help: "The window's start, HH:MM:SS (GTFS time: past 24:00 for the next morning).")
    var from: String

    @Option(name: .long, help: "The window's end, excluded, HH:MM:SS.")
    var to: String

    @Option(name: .long, help: "The protobuf file to write (a FeedMessage).")
    var out: String

    @Option(name: .long, help: "Seed of every random choice; the same arguments give identical bytes.")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Percentage of the entities, 0 to 100, whose every delay gets 60 s more.")
    var changedPercent: Double = 0

    @Option(name: .long, help: "The header's and each update's timestamp, seconds since 1970 (default: --from on --date in the feed's time zone).")
    var timestamp: Int64?

    /// Checks the date, the window, the percentage and the timestamp before anything is read.
    func validate() throws {
        guard GTFSDate(date) != nil else { throw ValidationError("--date must be YYYYMMDD, got \(date)") }
        guard let start = GTFSTime(from) else { throw ValidationError("--from must be HH:MM:SS, got \(from)") }
        guard let end = GTFSTime(to) else { throw ValidationError("--to must be HH:MM:SS, got \(to)") }
        guard start < end else { throw ValidationError("--to (\(to)) must be later than --from (\(from))") }
        guard (0 ... 100).contains(changedPercent) else {
            throw ValidationError("--changed-percent must be between 0 and 100, got \(changedPercent)")
        }
        if let timestamp, timestamp < 0 { throw ValidationError("--timestamp must not be negative, got \(timestamp)") }
    }

    /// Reads the feed's schedule of the date, streams its stop times into the message file and prints the
    /// closing line; any failure becomes one line on standard error and status 1.
    func run() throws {
        // validate() has checked all three.
        guard let serviceDate = GTFSDate(date), let start = GTFSTime(from), let end = GTFSTime(to) else { return }
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let schedule = try RealtimeSchedule(feedPath: feed, date: serviceDate)
            guard let zoneName = schedule.timeZone else { throw ToolFailure("\(feed): agency.txt gives no agency_timezone") }
            guard let zone = TimeZone(identifier: zoneName) else { throw ToolFailure("\(feed): unknown agency_timezone \(zoneName)") }
            // Added trips' absolute times count from the service day's "noon minus 12 h", as GTFS times do.
            let dayStart = FeedClock(timeZone: zone).dayStart(serviceDate)
            let stamp = timestamp ?? dayStart + Int64(start.seconds)
            var generator = TripUpdateGenerator(
                seed: seed, serviceDate: serviceDate.description, window: start.seconds ..< end.seconds, dayStart: dayStart,
                timestamp: stamp, changedFraction: changedPercent / 100)
            let file = try MessageFile(path: out, timestamp: stamp)
            let rejected = try StopTimeGroups.forEachTrip(feedPath: feed, isWanted: { schedule.trips[$0] != nil }) { tripID, stops in
                guard let trip = schedule.trips[tripID], let update = generator.update(tripID: tripID, trip: trip, stops: stops) else { return }
                try file.append(update)
            }
            // Added trips come last, so that the scheduled entities keep their places whatever is added.
            for update in generator.finishAdded() { try file.append(update) }
            let bytes = try file.finish()
            let elapsed = clock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            if schedule.rejectedRows + rejected > 0 {
                // Lenient, as the importer is: a bad row costs its trip or stop, not the whole message.
                StandardError.line("warning: \(schedule.rejectedRows + rejected) invalid rows of the feed were left out")
            }
            StandardError.line(generator.counts.summary(bytes: bytes, path: out, seconds: seconds))
        } catch let failure as ToolFailure {
            throw failure
        } catch {
            throw ToolFailure("\(error)")
        }
    }
}

// MARK: - The schedule of the date

/// What the generator needs of a feed besides its stop times: the trips that run on one date (route and
/// direction of each) and the feed's time zone. Only trips of services running on the date are kept, so
/// that the table stays a fraction of `trips.txt`.
struct RealtimeSchedule {
    /// The route and direction of a trip, copied into its trip descriptor.
    struct TripInfo {
        /// `route_id`.
        let routeID: String
        /// `direction_id`, when the feed gives one.
        let directionID: Int?
    }

    /// The trips that run on the date and are not frequency-based, by `trip_id`.
    private(set) var trips: [GTFSID: TripInfo] = [:]
    /// The `agency_timezone` of the first agency by `agency_id` (no id first), as the stores choose it.
    private(set) var timeZone: String?
    /// Rows the parser rejected as invalid (and left out) in the files read.
    private(set) var rejectedRows = 0

    /// Reads `agency.txt`, `calendar.txt`, `calendar_dates.txt`, `trips.txt` and `frequencies.txt`.
    /// - Throws: ``GTFS/GTFSError`` when the feed cannot be read.
    init(feedPath: String, date: GTFSDate) throws {
        var options = ParseOptions()
        options.tables = [.agency, .calendar, .calendarDates, .trips, .frequencies]
        var running: Set<GTFSID> = []
        var firstAgency: (id: String, zone: String)?
        var schedule = self
        // The parser delivers files in GTFSFile.loadOrder: agency, calendar and calendar_dates before
        // trips (so trips can be filtered as they come), frequencies after them.
        let summary = try FeedParser(source: FeedSource(path: feedPath), options: options).parse { batch in
            switch batch.file {
            case .agency:
                for agency in batch.records(as: Agency.self) ?? [] {
                    let id = agency.agencyID?.description ?? ""
                    if firstAgency.map({ id < $0.id }) ?? true { firstAgency = (id, agency.agencyTimezone) }
                }
            case .calendar:
                for service in batch.records(as: ServiceCalendar.self) ?? [] where Self.runs(service, on: date) {
                    running.insert(service.serviceID)
                }
            case .calendarDates:
                for exception in batch.records(as: CalendarDate.self) ?? [] where exception.date == date {
                    switch exception.exceptionType {
                    case .added: running.insert(exception.serviceID)
                    case .removed: running.remove(exception.serviceID)
                    case .unknown: break
                    }
                }
            case .trips:
                for trip in batch.records(as: Trip.self) ?? [] where running.contains(trip.serviceID) {
                    schedule.trips[trip.tripID] = TripInfo(routeID: trip.routeID.description, directionID: trip.directionID?.code)
                }
            case .frequencies:
                // Their stop times are a template, not a trip of their own: no one instance to update.
                for frequency in batch.records(as: Frequency.self) ?? [] { schedule.trips[frequency.tripID] = nil }
            default:
                break
            }
        }
        schedule.timeZone = firstAgency?.zone
        schedule.rejectedRows = summary.tables.reduce(0) { $0 + $1.rowsRejected }
        self = schedule
    }

    /// Whether `calendar.txt` says the service runs on `date` (before `calendar_dates.txt`'s exceptions).
    static func runs(_ service: ServiceCalendar, on date: GTFSDate) -> Bool {
        guard service.startDate <= date, date <= service.endDate else { return false }
        let days = [service.monday, service.tuesday, service.wednesday, service.thursday, service.friday, service.saturday, service.sunday]
        return days[date.weekday - 1]
    }
}

// MARK: - Stop times, a trip at a time

/// One row of `stop_times.txt`, as much as an update needs.
struct ScheduledStop {
    /// `stop_sequence`.
    var sequence: Int
    /// `stop_id` (absent for GTFS-Flex rows that name a location instead).
    var stopID: GTFSID?
    /// `arrival_time` and `departure_time` in seconds from the service day's start, when given.
    var arrival: Int32?, departure: Int32?
}

/// Streams `stop_times.txt` and hands over the rows of one trip at a time, in stop sequence order.
///
/// Only the current trip's rows are held, so memory does not grow with the file. That needs each trip's
/// rows to be together (the synthetic feeds sort them by `trip_id` and `stop_sequence`); a trip whose rows
/// come back after another trip's is an error, not a reason to hold the whole file.
enum StopTimeGroups {
    /// Calls `body` with each trip that `isWanted` accepts and its stops, in file order.
    /// - Returns: the rows the parser rejected as invalid (and left out).
    /// - Throws: ``StopTimeOrderError`` when a trip's rows are not together, ``GTFS/GTFSError`` when the feed
    ///   cannot be read, `ToolFailure` when it has no `stop_times.txt`, or what `body` throws.
    static func forEachTrip(
        feedPath: String, isWanted: (GTFSID) -> Bool, _ body: (GTFSID, [ScheduledStop]) throws -> Void
    ) throws -> Int {
        var options = ParseOptions()
        options.tables = [.stopTimes]
        var current: GTFSID?
        var wanted = false
        var rows: [ScheduledStop] = []
        // Every trip seen so far: an id costs 24 bytes, and finding one again is what betrays an unsorted file.
        var finished: Set<GTFSID> = []
        var rowNumber = 0
        func endTrip() throws {
            guard let trip = current else { return }
            finished.insert(trip)
            // Rows of a trip may come in any order of stop_sequence; the update lists its stops in order.
            if wanted { try body(trip, rows.sorted { $0.sequence < $1.sequence }) }
            rows.removeAll(keepingCapacity: true)
        }
        let summary = try FeedParser(source: FeedSource(path: feedPath), options: options).parse { batch in
            for (index, row) in (batch.records(as: StopTime.self) ?? []).enumerated() {
                rowNumber += 1
                if row.tripID != current {
                    try endTrip()
                    guard !finished.contains(row.tripID) else {
                        throw StopTimeOrderError(fileName: batch.fileName, tripID: row.tripID.description, line: batch.line(at: index), row: rowNumber)
                    }
                    current = row.tripID
                    wanted = isWanted(row.tripID)
                }
                guard wanted else { continue }
                rows.append(ScheduledStop(sequence: row.stopSequence, stopID: row.stopID, arrival: row.arrivalTime?.seconds, departure: row.departureTime?.seconds))
            }
        }
        try endTrip()
        guard summary.tables.contains(where: { $0.file == .stopTimes }) else {
            throw ToolFailure("\(feedPath): the feed has no stop_times.txt")
        }
        return summary.tables.reduce(0) { $0 + $1.rowsRejected }
    }
}

/// `stop_times.txt` does not hold each trip's rows together, so it cannot be read a trip at a time.
struct StopTimeOrderError: Error, CustomStringConvertible {
    /// The file's name as the feed spells it.
    let fileName: String
    /// The trip whose rows came back.
    let tripID: String
    /// The line of the row that came back, when known.
    let line: Int?
    /// Its position among the data rows.
    let row: Int

    /// What is wrong, where, and what to do about it.
    var description: String {
        let place = line.map { "line \($0)" } ?? "data row \(row)"
        return "\(fileName) is not grouped by trip_id: trip \(tripID) continues at \(place) after other trips' rows; "
            + "sort it by trip_id and stop_sequence (realtime reads it a trip at a time to keep memory bounded)"
    }
}

// MARK: - Trip updates

/// How many entities and updates of each kind a message got: the tool's closing line.
struct RealtimeCounts {
    /// Scheduled trips selected (each an entity, cancelled ones included).
    var selected = 0
    /// Stop time updates of every entity, added trips' included.
    var stopTimeUpdates = 0
    /// Entities of each kind; `skipped` and `noData` count trips, not stops.
    var canceled = 0, skipped = 0, noData = 0, added = 0
    /// Entities given 60 s more delay by `--changed-percent`.
    var changed = 0

    /// The closing line: counts, the bytes written and the time taken.
    func summary(bytes: Int64, path: String, seconds: Double) -> String {
        "\(selected) trips selected, \(stopTimeUpdates) stop time updates, \(canceled) canceled, \(skipped) skipped, "
            + "\(noData) no-data, \(added) added, \(changed) changed; \(bytes) bytes written to \(path) in "
            + String(format: "%.2f s", seconds)
    }
}

/// Turns each selected trip's stops into its entity, and collects the added trips that copy some of them.
///
/// Every choice about a trip draws from streams keyed by its `trip_id` (and the seed), never from a
/// sequence shared between trips: a trip gets the same delays whatever else the window holds, and
/// `--changed-percent` draws from a stream of its own, so that it changes the chosen entities and nothing
/// else.
struct TripUpdateGenerator {
    /// Shares of the selected trips: cancelled, with one skipped stop, with no data from some stop on, and
    /// copied as an added trip.
    static let canceledShare = 0.02, skippedShare = 0.03, noDataShare = 0.01, addedShare = 0.005
    /// The random walk of delays: where it starts, how far it moves from stop to stop, and its bounds.
    static let initialDelay = 0 ... 180, delayStep = -30 ... 30, delayBounds = -120 ... 1800
    /// What a changed entity gets on every delay (and an added one on every time).
    static let changeSeconds = 60
    /// How much later an added trip runs than the trip it copies.
    static let addedOffset: Int64 = 300

    /// `--seed`: every stream starts from it.
    let seed: UInt64
    /// `start_date` of every trip, `YYYYMMDD`.
    let serviceDate: String
    /// First departures selected, in seconds from the service day's start.
    let window: Range<Int32>
    /// The service day's "noon minus 12 h", seconds since 1970: where added trips' absolute times count from.
    let dayStart: Int64
    /// Each update's `timestamp`.
    let timestamp: Int64
    /// `--changed-percent` as a fraction.
    let changedFraction: Double
    /// What was generated so far.
    private(set) var counts = RealtimeCounts()
    private var added: [RealtimeTripUpdate] = []

    /// How a trip differs from its schedule, apart from its delays.
    enum Fate: Equatable {
        case scheduled, canceled
        /// The stop at this index (never the first or the last) is skipped.
        case skipped(Int)
        /// The stops from this index on have no data.
        case noData(from: Int)
    }

    /// A generator for one message; see the properties for what each argument is.
    init(seed: UInt64, serviceDate: String, window: Range<Int32>, dayStart: Int64, timestamp: Int64, changedFraction: Double) {
        (self.seed, self.serviceDate, self.window, self.dayStart) = (seed, serviceDate, window, dayStart)
        (self.timestamp, self.changedFraction) = (timestamp, changedFraction)
    }

    /// The entity of a trip whose first departure lies in the window; `nil` for any other trip.
    /// - Parameters:
    ///   - tripID: the trip.
    ///   - trip: its route and direction.
    ///   - stops: its stops in stop sequence order.
    mutating func update(tripID: GTFSID, trip: RealtimeSchedule.TripInfo, stops: [ScheduledStop]) -> RealtimeTripUpdate? {
        guard let first = stops.first, let start = first.departure ?? first.arrival, window.contains(start) else { return nil }
        let key = Self.key(tripID)
        var random = SeededStream(seed: seed, purpose: .fate, key: key)
        let fate = Self.fate(stopCount: stops.count, random: &random)
        let changed = fate != .canceled && isChanged(key: key)
        let descriptor = RealtimeTrip(
            tripID: tripID.description, routeID: trip.routeID, directionID: trip.directionID,
            startTime: GTFSTime(seconds: start).description, startDate: serviceDate, relationship: fate == .canceled ? .canceled : .scheduled)
        var delays = SeededStream(seed: seed, purpose: .delays, key: key)
        let updates = fate == .canceled ? [] : Self.stopUpdates(stops, fate: fate, shift: changed ? Self.changeSeconds : 0, random: &delays)
        counts.selected += 1
        counts.stopTimeUpdates += updates.count
        switch fate {
        case .scheduled: break
        case .canceled: counts.canceled += 1
        case .skipped: counts.skipped += 1
        case .noData: counts.noData += 1
        }
        if changed { counts.changed += 1 }
        var copies = SeededStream(seed: seed, purpose: .added, key: key)
        if copies.unit() < Self.addedShare { addCopy(of: stops, trip: trip, start: start) }
        return RealtimeTripUpdate(entityID: "tu-" + tripID.description, trip: descriptor, timestamp: timestamp, stopTimeUpdates: updates)
    }

    /// The added trips collected so far, in the order of the trips they copy; the list starts afresh.
    mutating func finishAdded() -> [RealtimeTripUpdate] {
        defer { added = [] }
        return added
    }

    /// Whether `--changed-percent` picks the entity with this key.
    private func isChanged(key: UInt64) -> Bool {
        var random = SeededStream(seed: seed, purpose: .changed, key: key)
        // Drawn even at 0 %, so that the draw is the same for every percentage: the entities changed at
        // 5 % are among those changed at 10 %.
        return random.unit() < changedFraction
    }

    /// Draws a trip's fate: one draw decides the kind, so the kinds exclude each other.
    static func fate(stopCount: Int, random: inout SeededStream) -> Fate {
        let draw = random.unit()
        if draw < canceledShare { return .canceled }
        if draw < canceledShare + skippedShare {
            return stopCount >= 3 ? .skipped(random.int(in: 1 ... stopCount - 2)) : .scheduled
        }
        if draw < canceledShare + skippedShare + noDataShare {
            return stopCount >= 2 ? .noData(from: random.int(in: 1 ... stopCount - 1)) : .scheduled
        }
        return .scheduled
    }

    /// An update for every stop: its delay from the random walk plus `shift`, or its relationship.
    ///
    /// The walk takes a step at every stop, skipped and no-data ones included, so that a trip's delays do
    /// not depend on its fate.
    static func stopUpdates(_ stops: [ScheduledStop], fate: Fate, shift: Int, random: inout SeededStream) -> [RealtimeStopTimeUpdate] {
        var updates: [RealtimeStopTimeUpdate] = []
        updates.reserveCapacity(stops.count)
        var delay = random.int(in: initialDelay)
        for (index, stop) in stops.enumerated() {
            if index > 0 { delay = min(max(delay + random.int(in: delayStep), delayBounds.lowerBound), delayBounds.upperBound) }
            var update = RealtimeStopTimeUpdate(stopSequence: stop.sequence, stopID: stop.stopID?.description)
            switch fate {
            case .skipped(let skipped) where skipped == index: update.relationship = .skipped
            case .noData(let from) where index >= from: update.relationship = .noData
            default:
                let event = RealtimeStopTimeEvent(delay: delay + shift)
                (update.arrival, update.departure) = (event, event)
            }
            updates.append(update)
        }
        return updates
    }

    /// Adds a trip `ADDED` to the timetable that runs the stops of a selected one ``addedOffset`` later,
    /// with absolute times (an added trip has no schedule for delays to count from).
    private mutating func addCopy(of stops: [ScheduledStop], trip: RealtimeSchedule.TripInfo, start: Int32) {
        let tripID = "added-\(added.count + 1)"
        let changed = isChanged(key: Self.key(GTFSID(tripID)))
        let offset = dayStart + Self.addedOffset + (changed ? Int64(Self.changeSeconds) : 0)
        let updates = stops.map { stop in
            RealtimeStopTimeUpdate(
                stopSequence: stop.sequence, stopID: stop.stopID?.description,
                arrival: (stop.arrival ?? stop.departure).map { RealtimeStopTimeEvent(time: offset + Int64($0)) },
                departure: (stop.departure ?? stop.arrival).map { RealtimeStopTimeEvent(time: offset + Int64($0)) })
        }
        let descriptor = RealtimeTrip(
            tripID: tripID, routeID: trip.routeID, directionID: trip.directionID,
            startTime: GTFSTime(seconds: start + Int32(Self.addedOffset)).description, startDate: serviceDate, relationship: .added)
        added.append(RealtimeTripUpdate(entityID: "tu-" + tripID, trip: descriptor, timestamp: timestamp, stopTimeUpdates: updates))
        counts.added += 1
        counts.stopTimeUpdates += updates.count
        if changed { counts.changed += 1 }
    }

    /// FNV-1a of an id's bytes: the key of its random streams.
    static func key(_ id: GTFSID) -> UInt64 {
        id.withUTF8 { bytes in bytes.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 } }
    }
}

/// SplitMix64 streams, one per purpose and key. GTFSSynth has the same generator, but internal to it; the
/// numbers only need to be stable across toolchains (the stdlib's `random(in:using:)` may change), which a
/// plain modulo gives.
struct SeededStream {
    /// What a stream decides: each has its own, so that one decision never shifts another's numbers.
    enum Purpose: UInt64 {
        case fate = 1, delays, changed, added
    }

    private var state: UInt64

    /// The stream of `purpose` for the entity with `key`, under `seed`.
    init(seed: UInt64, purpose: Purpose, key: UInt64) {
        state = seed ^ (purpose.rawValue &* 0xD6E8_FEB8_6659_FD93)
        state = next() ^ (key &* 0x9E37_79B9_7F4A_7C15)
        _ = next()
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0 ..< 1`, with 53 random bits.
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// A number in `range` (the modulo's bias is below 2⁻⁵⁰ for the small ranges used here).
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(truncatingIfNeeded: next() % UInt64(range.upperBound - range.lowerBound + 1))
    }
}

// MARK: - The message file

/// Writes one `FeedMessage` a few thousand entities at a time, so that neither the whole message's values
/// nor its protobuf tree is ever held: memory stays that of one chunk however many trips the window has.
///
/// Protobuf writes a message's fields in field number order, the header (1) before the entities (2), and
/// repeated fields one after the other, so a message is its header's bytes followed by each entity's. Each
/// chunk is encoded as a whole message with the same header, and written without that header's bytes (it
/// is checked to be there): the file holds exactly what encoding the whole message at once would give.
/// The file is written beside its path and renamed into place when complete.
final class MessageFile {
    /// Entities encoded together: large enough that the header's bytes repeat rarely, small enough to
    /// keep a chunk's values and protobuf tree to a few MB.
    static let entitiesPerChunk = 2_000

    private let path: String
    private let temporaryPath: String
    private let header: RealtimeMessage
    private let headerBytes: Data
    private let handle: FileHandle
    private var pending: [RealtimeTripUpdate] = []
    private var bytesWritten: Int64 = 0
    private var isOpen = true
    private var finished = false

    /// Creates the file beside `path` (and `path`'s folder when missing) and writes the header.
    /// - Throws: when the file cannot be created or written.
    init(path: String, timestamp: Int64) throws {
        header = RealtimeMessage(version: "2.0", incrementality: .fullDataset, timestamp: timestamp)
        headerBytes = try header.serializedData()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        (self.path, temporaryPath) = (path, path + ".partial-\(getpid())")
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil) else { throw ToolFailure("cannot create \(temporaryPath)") }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporaryPath))
        try write(headerBytes)
    }

    deinit {
        // A run that failed leaves no half-written file behind.
        guard !finished else { return }
        if isOpen { try? handle.close() }
        try? FileManager.default.removeItem(atPath: temporaryPath)
    }

    /// Adds an entity; a full chunk is encoded and written.
    func append(_ update: RealtimeTripUpdate) throws {
        pending.append(update)
        if pending.count >= Self.entitiesPerChunk { try flush() }
    }

    /// Writes what is pending, closes the file and renames it into place.
    /// - Returns: the file's size in bytes.
    func finish() throws -> Int64 {
        try flush()
        isOpen = false
        try handle.close()
        guard rename(temporaryPath, path) == 0 else { throw ToolFailure("cannot rename \(temporaryPath) to \(path): \(String(cString: strerror(errno)))") }
        finished = true
        return bytesWritten
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        var message = header
        message.tripUpdates = pending
        let bytes = try message.serializedData()
        guard bytes.starts(with: headerBytes) else { throw ToolFailure("the encoder did not write the header first; cannot write in chunks") }
        try write(bytes.dropFirst(headerBytes.count))
        pending.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: Data) throws {
        try handle.write(contentsOf: bytes)
        bytesWritten += Int64(bytes.count)
    }
}
