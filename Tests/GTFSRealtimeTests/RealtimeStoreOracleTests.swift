// A randomized end-to-end oracle test of realtime boards on both stores: random small feeds in
// Europe/Berlin and random realtime messages, applied with `applyRealtime` and read back with
// `departures(from:between:and:realtime:)` and `arrivals(at:between:and:realtime:)`, each board compared
// field by field with what an oracle written from the documented rules expects (the doc comments of
// `RealtimePropagation`, `TripInstances`, `FeedStore`, `StopEvent` and `RealtimeOptions`, and
// docs/Database.md "Realtime"), not from the implementation.
//
// Where the rules leave a choice, the oracle reads them so (and the generator avoids what they leave open):
// - A call without a time of the timetable (a non-timepoint) is on no board, as on the timetable's boards,
//   even when an update gives it an absolute time (FeedStore's board documentation says so). The next call
//   then always has a full update of its own, so what such a time carries on does not matter.
// - A prediction as old as the largest age is fresh ("within"); older than it when applied, none is made.
// - Without start_date and without an absolute time at a call with times, the update's own timestamp finds
//   the service date (the generator always gives one then); two updates of one instance are never sent.
// - An added trip's calls give stop_sequence, stop_id and both times; its delays are nil.
//
// Replay seeds: `ORACLE_SEEDS=7,12 swift test --skip-build --filter RealtimeStoreOracleTests` (both tests then
// run those seeds).

import Foundation
import GTFS
import GTFSImport
import GTFSPostgres
import GTFSStoreCore
import TestSupport
import Testing

@Suite struct RealtimeStoreOracleTests {
    /// The seeds of the SQLite test: `ORACLE_SEEDS` when set, else 1…40 and 59, the first seed whose boards
    /// reach a run of an `exact_times` 0 trip updated with a start_time off the run's start at a window's edge.
    static let sqliteSeeds: [Int] = replaySeeds ?? Array(1 ... 40) + [59]
    /// The seeds of the PostgreSQL test: `ORACLE_SEEDS` when set, else 1…5.
    static let postgresSeeds: [Int] = replaySeeds ?? Array(1 ... 5)

    static var replaySeeds: [Int]? {
        ProcessInfo.processInfo.environment["ORACLE_SEEDS"].map { $0.split(separator: ",").compactMap { Int($0) } }
    }

    @Test(arguments: sqliteSeeds) func sqliteBoardsFollowTheRules(seed: Int) throws {
        let scenario = OracleScenario(seed: seed)
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("oracle.sqlite"))
        _ = try store.importFeedSynchronously(from: scenario.write(to: folder))
        try scenario.check(store, storeName: "SQLite")
    }

    @Test func postgresBoardsFollowTheRules() throws {
        let server = try TestServer()
        defer { server.stop() }
        let store = try PostgresStore(connectionString: server.connectionString)
        for seed in Self.postgresSeeds {
            let scenario = OracleScenario(seed: seed)
            let folder = try TemporaryFolder()
            _ = try store.importFeedSynchronously(from: scenario.write(to: folder))
            try scenario.check(store, storeName: "PostgreSQL")
            #expect(try store.removeFeed(named: "default", lockWait: nil) != nil)
        }
    }
}

// MARK: - Time in Berlin

/// Service days and local dates in Europe/Berlin, from Foundation's calendar.
private enum Berlin {
    static let zone = TimeZone(identifier: "Europe/Berlin")!
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }()

    private static func noon(_ date: Int) -> Date {
        calendar.date(from: DateComponents(year: date / 10_000, month: date / 100 % 100, day: date % 100, hour: 12))!
    }

    /// The instant GTFS times of the service date `date` (`YYYYMMDD`) count from: noon minus 12 h.
    static func dayStart(_ date: Int) -> Int64 { Int64(noon(date).timeIntervalSince1970) - 43_200 }

    /// The date `days` after `date`.
    static func date(_ date: Int, plus days: Int) -> Int {
        localDate(Int64(calendar.date(byAdding: .day, value: days, to: noon(date))!.timeIntervalSince1970))
    }

    /// The local calendar date of an instant.
    static func localDate(_ instant: Int64) -> Int {
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(instant)))
        return parts.year! * 10_000 + parts.month! * 100 + parts.day!
    }

    /// An instant as local ISO 8601 text with its offset, and its Unix seconds.
    static func text(_ instant: Int64?) -> String {
        guard let instant else { return "-" }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        return "\(formatter.string(from: Date(timeIntervalSince1970: Double(instant))))(\(instant))"
    }
}

/// `HH:MM:SS`, hours past 24 as they are.
private func gtfsTime(_ seconds: Int) -> String {
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
}

private func gtfsSeconds(_ text: String) -> Int? {
    let parts = text.split(separator: ":").compactMap { Int($0) }
    guard parts.count == 3 else { return nil }
    return parts[0] * 3600 + parts[1] * 60 + parts[2]
}

/// Whether `a` sorts before `b` byte by byte (UTF-8), as the boards order trip ids.
private func bytewise(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

// MARK: - Random numbers

private struct Dice {
    var generator: SeededGenerator
    init(seed: Int) { generator = SeededGenerator(seed: UInt64(seed)) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0 ..< 1, using: &generator) < probability }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0 ... items.count - 1)] }
}

// MARK: - The feed

/// A stop time: times in seconds after the service day's start, `nil` for a call without times.
private struct OracleStopTime {
    var sequence: Int, stop: String, arrival: Int?, departure: Int?
    var pickup = 0, dropOff = 0
}

private struct OracleFrequency {
    var start: Int, end: Int, headway: Int, exact: Int
    var runs: [Int] { Array(stride(from: start, to: end, by: headway)) }
}

private struct OracleTrip {
    var id: String, route: String, service: String, direction: Int
    var calls: [OracleStopTime]
    var frequency: OracleFrequency?

    /// The first call's departure (its arrival when it has none).
    var first: Int { calls[0].departure ?? calls[0].arrival ?? 0 }
    /// The earliest and latest times of its calls.
    var span: (first: Int, last: Int) {
        let times = calls.compactMap { $0.departure ?? $0.arrival }
        return (times.min() ?? 0, times.max() ?? 0)
    }
    /// The shifts of the instances a service date has: its runs for a frequency-based trip, else 0.
    var runShifts: [Int] { frequency.map { $0.runs.map { $0 - first } } ?? [0] }
}

private struct OracleFeed {
    var day: Int
    var stops: [String]
    var routes: [String]
    var trips: [OracleTrip]
    var serviceDates: [String: [Int]]
    var calendar: String, calendarDates: String

    func dates(of trip: OracleTrip) -> [Int] { serviceDates[trip.service] ?? [] }
    func trip(_ id: String) -> OracleTrip? { trips.first { $0.id == id } }

    var files: [String: String] {
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type,timepoint\n"
        for trip in trips {
            for call in trip.calls {
                let (arrival, departure) = (call.arrival.map(gtfsTime) ?? "", call.departure.map(gtfsTime) ?? "")
                let timepoint = call.arrival == nil ? 0 : 1
                stopTimes += "\(trip.id),\(arrival),\(departure),\(call.stop),\(call.sequence),\(call.pickup),\(call.dropOff),\(timepoint)\n"
            }
        }
        var files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Oracle,https://example.org,Europe/Berlin\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n"
                + stops.enumerated().map { "\($1),Stop \($1),52.5\($0),13.4\($0)\n" }.joined(),
            "routes.txt": "route_id,agency_id,route_short_name,route_type\n" + routes.map { "\($0),A,L\($0),3\n" }.joined(),
            "trips.txt": "route_id,service_id,trip_id,direction_id\n"
                + trips.map { "\($0.route),\($0.service),\($0.id),\($0.direction)\n" }.joined(),
            "stop_times.txt": stopTimes,
            "calendar.txt": calendar,
            "calendar_dates.txt": calendarDates,
        ]
        let frequencies = trips.compactMap { trip in
            trip.frequency.map { "\(trip.id),\(gtfsTime($0.start)),\(gtfsTime($0.end)),\($0.headway),\($0.exact)\n" }
        }
        if !frequencies.isEmpty { files["frequencies.txt"] = "trip_id,start_time,end_time,headway_secs,exact_times\n" + frequencies.joined() }
        return files
    }
}

/// Random feeds: 6–10 stops, 1–2 routes, 5–15 trips of 2–8 calls from 05:00 to 27:00 on three service
/// dates around a DST night or an ordinary day, loops, calls without times, and maybe a frequency-based trip.
private enum FeedMaker {
    /// Trip ids that sort differently by bytes than by a human: case, punctuation, a leading zero, UTF-8.
    static let tripIDs = ["T1", "T2", "T10", "t3", "T-4", "T_5", "T05", "a6", "B7", "Z8", "T9", "x11", "Ä12", "T.13", "t14", "T15"]

    static func feed(_ dice: inout Dice) -> OracleFeed {
        let ordinary = dice.pick([20_260_615, 20_261_127, 20_260_104])
        let day = dice.pick([20_260_329, 20_261_025, ordinary])
        let stops = (1 ... dice.int(6 ... 10)).map { "S\($0)" }
        let routes = Array(["R1", "R2"].prefix(dice.int(1 ... 2)))
        let (calendar, calendarDates, serviceDates) = services(&dice, day: day)
        let ids = tripIDs.shuffled(using: &dice.generator).prefix(dice.int(5 ... 15))
        var trips = ids.map { trip(&dice, id: $0, stops: stops, routes: routes) }
        if dice.chance(0.5) {
            let index = dice.int(0 ... trips.count - 1)
            let headway = dice.pick([300, 600, 900, 1200])
            let start = dice.int(6 * 60 ... 20 * 60) * 60
            let end = start + (dice.int(2 ... 5) - 1) * headway + headway / 2
            trips[index].frequency = OracleFrequency(start: start, end: end, headway: headway, exact: dice.int(0 ... 1))
        }
        if dice.chance(0.6) { alignStarts(&dice, &trips) }
        return OracleFeed(
            day: day, stops: stops, routes: routes, trips: trips, serviceDates: serviceDates, calendar: calendar, calendarDates: calendarDates)
    }

    /// `WK` every day from the day before to the day after (one of them maybe removed), `EX` on the day (and
    /// maybe the day before) from calendar_dates alone.
    static func services(_ dice: inout Dice, day: Int) -> (String, String, [String: [Int]]) {
        let (before, after) = (Berlin.date(day, plus: -1), Berlin.date(day, plus: 1))
        var weekly = [before, day, after]
        var extra = [day]
        var dates = "service_id,date,exception_type\nEX,\(day),1\n"
        if dice.chance(0.5) {
            extra.insert(before, at: 0)
            dates += "EX,\(before),1\n"
        }
        if dice.chance(0.3) {
            let removed = weekly.remove(at: dice.int(0 ... 2))
            dates += "WK,\(removed),2\n"
        }
        let calendar = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,1,1,\(before),\(after)\n"
        return (calendar, dates, ["WK": weekly, "EX": extra])
    }

    static func trip(_ dice: inout Dice, id: String, stops: [String], routes: [String]) -> OracleTrip {
        var chosen: [String] = []
        let count = dice.int(2 ... 8)
        if dice.chance(0.3) {
            while chosen.count < count {
                let stop = dice.pick(stops)
                if stop != chosen.last { chosen.append(stop) }
            }
        } else {
            chosen = Array(stops.shuffled(using: &dice.generator).prefix(count))
        }
        var relative: [(arrival: Int, departure: Int)] = []
        var time = 0
        for _ in chosen {
            // Five-minute steps and mostly no dwell: calls of different trips often coincide, so that the
            // order by trip id, stop_sequence and date is tested.
            let dwell = dice.chance(0.7) ? 0 : dice.int(1 ... 2) * 60
            relative.append((time, time + dwell))
            time += dwell + dice.int(1 ... 4) * 300
        }
        let first = dice.int(60 ... 324 - (relative[relative.count - 1].departure + 299) / 300) * 300
        var sequence = dice.int(0 ... 3)
        var calls: [OracleStopTime] = []
        for (index, stop) in chosen.enumerated() {
            sequence += dice.pick([1, 1, 1, 2, 5, 10])
            let timed = index == 0 || index == chosen.count - 1 || !dice.chance(0.15)
            calls.append(
                OracleStopTime(
                    sequence: sequence, stop: stop, arrival: timed ? first + relative[index].arrival : nil,
                    departure: timed ? first + relative[index].departure : nil, pickup: dice.chance(0.1) ? 1 : 0,
                    dropOff: dice.chance(0.1) ? 1 : 0))
        }
        return OracleTrip(
            id: id, route: dice.pick(routes), service: dice.chance(0.7) ? "WK" : "EX", direction: dice.int(0 ... 1), calls: calls)
    }

    /// Gives a trip the route, direction, service, first stop and first departure of another, so that a
    /// descriptor by route and start finds two and takes the first by id, and their departures tie.
    static func alignStarts(_ dice: inout Dice, _ trips: inout [OracleTrip]) {
        let plain = trips.indices.filter { trips[$0].frequency == nil }
        guard plain.count >= 2 else { return }
        let pair = plain.shuffled(using: &dice.generator).prefix(2)
        let (model, moved) = (pair[pair.startIndex], pair[pair.startIndex + 1])
        let delta = trips[model].first - trips[moved].first
        guard trips[moved].span.last + delta <= 27 * 3600 else { return }
        for index in trips[moved].calls.indices {
            trips[moved].calls[index].arrival = trips[moved].calls[index].arrival.map { $0 + delta }
            trips[moved].calls[index].departure = trips[moved].calls[index].departure.map { $0 + delta }
        }
        (trips[moved].route, trips[moved].direction, trips[moved].service) = (trips[model].route, trips[model].direction, trips[model].service)
        trips[moved].calls[0].stop = trips[model].calls[0].stop
    }
}

// MARK: - The message

/// When the message is applied and read, and the largest age of both.
private struct OracleClock {
    var apply: Int64, read: Int64, maxAge: Int64
}

/// Random full-dataset messages: trip updates for some trips (by id, or by route and start; with or without
/// start_date; frequency runs by start_time), cancellations, an added trip, fresh and stale timestamps.
private enum MessageMaker {
    static func message(_ dice: inout Dice, feed: OracleFeed, clock: OracleClock) -> RealtimeMessage {
        var message = RealtimeMessage(timestamp: stamp(&dice, clock: clock, header: true))
        for trip in feed.trips where dice.chance(0.7) {
            guard let frequency = trip.frequency else {
                message.tripUpdates.append(update(&dice, trip: trip, run: nil, feed: feed, clock: clock))
                continue
            }
            for run in frequency.runs.shuffled(using: &dice.generator).prefix(dice.int(1 ... 2)) {
                message.tripUpdates.append(update(&dice, trip: trip, run: run, feed: feed, clock: clock))
            }
        }
        if dice.chance(0.4) { message.tripUpdates.append(added(&dice, feed: feed, clock: clock)) }
        for index in message.tripUpdates.indices { message.tripUpdates[index].entityID = "e\(index + 1)" }
        // Two updates of one trip instance: the rules do not say which wins; keep the first.
        let oracle = Oracle(feed: feed, message: message, clock: clock)
        var seen = Set<OracleKey>()
        message.tripUpdates = message.tripUpdates.filter { update in
            guard update.trip.relationship != .added, let instance = oracle.resolve(update) else { return true }
            return seen.insert(instance.key).inserted
        }
        return message
    }

    /// A timestamp: none, fresh (or a little ahead), exactly as old as the largest age when read, a second
    /// older, or stale when applied; the header's is mostly fresh.
    static func stamp(_ dice: inout Dice, clock: OracleClock, header: Bool) -> Int64? {
        switch dice.int((header ? 3 : 0) ... 11) {
        case 0 ... 3: return header && dice.chance(0.5) ? clock.apply - Int64(dice.int(0 ... 120)) : nil
        case 4 ... 7: return clock.apply - Int64(dice.int(-60 ... Int(clock.maxAge) / 2))
        case 8: return clock.read - clock.maxAge
        case 9: return clock.read - clock.maxAge - 1
        default: return clock.apply - clock.maxAge - Int64(dice.int(1 ... 3600))
        }
    }

    static func update(_ dice: inout Dice, trip: OracleTrip, run: Int?, feed: OracleFeed, clock: OracleClock) -> RealtimeTripUpdate {
        let date = dice.pick(feed.dates(of: trip))
        // Now and then a start_date on which the trip does not run: no instance, no predictions.
        let startDate = dice.chance(0.05) ? Berlin.date(feed.day, plus: 2) : date
        var descriptor = RealtimeTrip(tripID: trip.id)
        var shift = 0
        if let frequency = trip.frequency, let run {
            let start: Int
            if frequency.exact == 1 {
                start = dice.chance(0.9) ? run : run + dice.int(1 ... 4) * 60
            } else {
                let most = (frequency.headway / 2 - 60) / 60
                start = run + dice.int(-most ... most) * 60
            }
            descriptor.startTime = gtfsTime(start)
            shift = start - trip.first
        }
        let cancel = dice.chance(0.1)
        let byRoute = trip.frequency == nil && !cancel && dice.chance(0.15)
        let dated = cancel || byRoute || dice.chance(0.6)
        if byRoute {
            descriptor = RealtimeTrip(
                routeID: trip.route, directionID: dice.chance(0.5) ? trip.direction : nil, startTime: gtfsTime(trip.first),
                startDate: String(startDate))
        } else if dated {
            descriptor.startDate = String(startDate)
        }
        if cancel { descriptor.relationship = .canceled }
        let base = Berlin.dayStart(date) + Int64(shift)
        let (updates, anchored) = cancel ? ([], false) : stopTimeUpdates(&dice, trip.calls, base: base)
        var timestamp = stamp(&dice, clock: clock, header: false)
        // Without start_date nor an absolute time at a call with times, the update's own timestamp finds the day.
        if !dated && !anchored && timestamp == nil { timestamp = clock.apply - Int64(dice.int(0 ... 60)) }
        return RealtimeTripUpdate(entityID: "", trip: descriptor, timestamp: timestamp, stopTimeUpdates: updates)
    }

    /// Updates of some calls, in order: by stop_sequence or stop_id (an absolute time only where the stop_id
    /// finds that very call), delays and absolute times, SKIPPED, NO_DATA, sometimes one that matches nothing.
    /// Now and then an absolute time at a call without times, the next call then updated in full by its
    /// stop_sequence, so that what such a time carries on does not matter. `anchored`: whether an absolute
    /// time is at a call with times (which finds the service date without start_date).
    static func stopTimeUpdates(
        _ dice: inout Dice, _ calls: [OracleStopTime], base: Int64
    ) -> (updates: [RealtimeStopTimeUpdate], anchored: Bool) {
        var chosen = calls.indices.shuffled(using: &dice.generator).prefix(dice.int(1 ... min(4, calls.count))).sorted()
        var untimed: [Int] = []
        for index in chosen where calls[index].arrival == nil && !untimed.contains(index - 1) && dice.chance(0.25) { untimed.append(index) }
        chosen = Array(Set(chosen + untimed.map { $0 + 1 })).sorted()
        var (taken, next, anchored) = (Set<Int>(), 0, false)
        var updates: [RealtimeStopTimeUpdate] = []
        for index in chosen {
            let call = calls[index]
            let completes = untimed.contains(index - 1)
            var update =
                untimed.contains(index)
                ? untimedTimes(&dice, calls, index, base: base)
                : completes ? RealtimeStopTimeUpdate(arrival: .init(delay: dice.int(-2 ... 20) * 30), departure: .init(delay: dice.int(-2 ... 20) * 30))
                : events(&dice, call, base: base)
            let timed = update.arrival?.time != nil || update.departure?.time != nil
            anchored = anchored || (timed && call.arrival != nil)
            let byStop = calls.indices.first { $0 >= next && calls[$0].stop == call.stop && !taken.contains($0) } ?? index
            if !completes && dice.chance(0.5) && (!timed || byStop == index) {
                update.stopID = call.stop
                taken.insert(byStop)
                next = byStop + 1
            } else {
                update.stopSequence = call.sequence
                taken.insert(index)
                next = index + 1
            }
            updates.append(update)
            if dice.chance(0.08) {
                updates.append(
                    dice.chance(0.5)
                        ? RealtimeStopTimeUpdate(stopSequence: 999_999, arrival: RealtimeStopTimeEvent(delay: 3600))
                        : RealtimeStopTimeUpdate(stopID: "NOWHERE", arrival: RealtimeStopTimeEvent(delay: 3600)))
            }
        }
        return (updates, anchored)
    }

    /// Absolute times at a call without times: between its neighbours' times, a little late.
    static func untimedTimes(_ dice: inout Dice, _ calls: [OracleStopTime], _ index: Int, base: Int64) -> RealtimeStopTimeUpdate {
        let before = calls[..<index].last { $0.departure != nil }?.departure ?? 0
        let after = calls[(index + 1)...].first { $0.arrival != nil }?.arrival ?? before
        let time = base + Int64((before + after) / 2 + dice.int(0 ... 10) * 30)
        return RealtimeStopTimeUpdate(arrival: RealtimeStopTimeEvent(time: time), departure: RealtimeStopTimeEvent(time: time + Int64(dice.int(0 ... 1) * 60)))
    }

    /// What an update says of a call: SKIPPED, NO_DATA, nothing, or an arrival and/or a departure as a
    /// delay or an absolute time (sometimes with a contradicting delay, which the time overrides).
    static func events(_ dice: inout Dice, _ call: OracleStopTime, base: Int64) -> RealtimeStopTimeUpdate {
        var update = RealtimeStopTimeUpdate()
        switch dice.int(0 ... 19) {
        case 0 ... 1: update.relationship = .skipped
        case 2 ... 3: update.relationship = .noData
        case 4: break
        default:
            let delay = dice.int(-4 ... 30) * 30
            let which = dice.int(0 ... 2)
            if which != 1 { update.arrival = event(&dice, delay, scheduled: call.arrival.map { base + Int64($0) }) }
            if which != 0 {
                let later = which == 2 ? dice.int(0 ... 4) * 30 : 0
                update.departure = event(&dice, delay + later, scheduled: call.departure.map { base + Int64($0) })
            }
        }
        return update
    }

    static func event(_ dice: inout Dice, _ delay: Int, scheduled: Int64?) -> RealtimeStopTimeEvent {
        guard let scheduled, dice.chance(0.5) else { return RealtimeStopTimeEvent(delay: delay) }
        return RealtimeStopTimeEvent(delay: dice.chance(0.2) ? delay + 600 : nil, time: scheduled + Int64(delay))
    }

    /// An `ADDED` trip of 2–4 calls with both times each, with or without start_date.
    static func added(_ dice: inout Dice, feed: OracleFeed, clock: OracleClock) -> RealtimeTripUpdate {
        var time = Berlin.dayStart(feed.day) + Int64(dice.int(4 * 60 ... 26 * 60) * 60)
        var sequence = 0
        var updates: [RealtimeStopTimeUpdate] = []
        for _ in 0 ..< dice.int(2 ... 4) {
            sequence += dice.int(1 ... 3)
            let departure = time + (dice.chance(0.3) ? 60 : 0)
            updates.append(
                RealtimeStopTimeUpdate(
                    stopSequence: sequence, stopID: dice.pick(feed.stops), arrival: RealtimeStopTimeEvent(time: time),
                    departure: RealtimeStopTimeEvent(time: departure)))
            time = departure + Int64(dice.int(2 ... 15) * 60)
        }
        let trip = RealtimeTrip(
            tripID: dice.pick(["ADD1", "X-added", "a0"]), routeID: dice.pick(feed.routes),
            startDate: dice.chance(0.5) ? String(feed.day) : nil, relationship: .added)
        return RealtimeTripUpdate(entityID: "", trip: trip, timestamp: stamp(&dice, clock: clock, header: false), stopTimeUpdates: updates)
    }
}

// MARK: - The oracle

private struct OracleKey: Hashable {
    var trip: String, date: Int, runShift: Int
}

/// A trip instance an update is about: its calls count from the service date's start plus `shift`; the
/// timetable's run it is (`runShift`) keys it on boards.
private struct OracleInstance {
    var trip: OracleTrip, date: Int, shift: Int, runShift: Int
    var key: OracleKey { OracleKey(trip: trip.id, date: date, runShift: runShift) }
}

/// A call with its scheduled instants.
private struct OracleCall {
    var sequence: Int, stop: String, arrival: Int64?, departure: Int64?
}

private struct OraclePrediction {
    var status: RealtimeStatus
    var arrival: Int64? = nil, departure: Int64? = nil
    var arrivalDelay: Int? = nil, departureDelay: Int? = nil
}

private struct OracleAddedCall {
    var trip: String, date: Int, sequence: Int, stop: String, arrival: Int64?, departure: Int64?
    var isFirst: Bool, isLast: Bool
}

/// A row of a board, as compared.
private struct OracleRow: Hashable, CustomStringConvertible {
    var trip: String, date: Int, sequence: Int, stop: String
    var arrival: Int64?, departure: Int64?
    var status: RealtimeStatus?
    var predictedArrival: Int64?, predictedDeparture: Int64?
    var arrivalDelay: Int?, departureDelay: Int?

    init(_ event: StopEvent) {
        func seconds(_ date: Date?) -> Int64? { date.map { Int64($0.timeIntervalSince1970.rounded()) } }
        (trip, date, sequence, stop) = (event.tripID.description, event.serviceDate.integerValue, event.stopSequence, event.stopID.description)
        (arrival, departure, status) = (seconds(event.arrival), seconds(event.departure), event.realtime?.status)
        (predictedArrival, predictedDeparture) = (seconds(event.realtime?.predictedArrival), seconds(event.realtime?.predictedDeparture))
        (arrivalDelay, departureDelay) = (event.realtime?.arrivalDelay, event.realtime?.departureDelay)
    }

    init(trip: String, date: Int, sequence: Int, stop: String, arrival: Int64?, departure: Int64?, prediction: OraclePrediction) {
        (self.trip, self.date, self.sequence, self.stop, self.arrival, self.departure) = (trip, date, sequence, stop, arrival, departure)
        (status, predictedArrival, predictedDeparture) = (prediction.status, prediction.arrival, prediction.departure)
        (arrivalDelay, departureDelay) = (prediction.arrivalDelay, prediction.departureDelay)
    }

    var description: String {
        func delay(_ value: Int?) -> String { value.map(String.init) ?? "-" }
        return "\(trip) \(date) #\(sequence) at \(stop) \(status?.rawValue ?? "nil") arr \(Berlin.text(arrival)) dep \(Berlin.text(departure))"
            + " predicted arr \(Berlin.text(predictedArrival)) dep \(Berlin.text(predictedDeparture))"
            + " delays \(delay(arrivalDelay))/\(delay(departureDelay))"
    }
}

/// A board asked of a store: a stop's departures or arrivals in `[from, to)`.
private struct OracleAsk: CustomStringConvertible {
    var arrivals: Bool, stop: String, from: Int64, to: Int64
    var description: String { "\(arrivals ? "arrivals at" : "departures from") \(stop) in [\(Berlin.text(from)), \(Berlin.text(to)))" }
}

/// The rules, restated: which instance an update is about, what it predicts of each call, which
/// predictions count when read, and what a board shows.
private struct Oracle {
    let feed: OracleFeed
    let message: RealtimeMessage
    let clock: OracleClock

    /// The instant an update's age counts from when read: its timestamp, else its message's, else when
    /// the message was applied.
    func age(_ update: RealtimeTripUpdate) -> Int64 { clock.read - (update.timestamp ?? message.timestamp ?? clock.apply) }

    /// Older than the largest age when applied (by its timestamp, else the header's): no predictions.
    func staleWhenApplied(_ update: RealtimeTripUpdate) -> Bool {
        guard let stamp = update.timestamp ?? message.timestamp else { return false }
        return clock.apply - stamp > clock.maxAge
    }

    /// The trip of a descriptor: by trip_id; else of its route (and direction) running on start_date whose
    /// first departure is start_time, the first by id.
    func trip(of descriptor: RealtimeTrip) -> OracleTrip? {
        if let id = descriptor.tripID { return feed.trip(id) }
        guard let route = descriptor.routeID, let date = descriptor.startDate.flatMap({ Int($0) }),
            let start = descriptor.startTime.flatMap(gtfsSeconds)
        else { return nil }
        return feed.trips.filter { trip in
            trip.route == route && descriptor.directionID.map { $0 == trip.direction } != false && feed.dates(of: trip).contains(date)
                && trip.first == start
        }.min { bytewise($0.id, $1.id) }
    }

    /// The instance an update is about; `nil` when none is found.
    func resolve(_ update: RealtimeTripUpdate) -> OracleInstance? {
        guard let trip = self.trip(of: update.trip) else { return nil }
        var (shift, runShift) = (0, 0)
        if let frequency = trip.frequency {
            // exact_times 1: the run that starts at start_time; 0: the nearest run, counted from start_time.
            guard let start = update.trip.startTime.flatMap(gtfsSeconds) else { return nil }
            let run = frequency.exact == 1 ? frequency.runs.first { $0 == start } : frequency.runs.min { abs($0 - start) < abs($1 - start) }
            guard let run else { return nil }
            (shift, runShift) = (start - trip.first, run - trip.first)
        }
        guard let date = serviceDate(update, trip: trip, shift: shift) else { return nil }
        return OracleInstance(trip: trip, date: date, shift: shift, runShift: runShift)
    }

    /// start_date when given (if the trip runs then); else the service date whose instance the first
    /// absolute time is nearest (against its matched call's scheduled instant), else the one whose span the
    /// update's timestamp is nearest; ties to the earlier date.
    func serviceDate(_ update: RealtimeTripUpdate, trip: OracleTrip, shift: Int) -> Int? {
        let dates = feed.dates(of: trip)
        if let given = update.trip.startDate { return Int(given).flatMap { dates.contains($0) ? $0 : nil } }
        let relative = calls(of: trip, base: 0)
        let matches = Self.match(relative, update.stopTimeUpdates)
        let anchor = zip(update.stopTimeUpdates, matches).lazy.compactMap { stu, index -> (time: Int64, scheduled: Int64)? in
            guard let index else { return nil }
            if let time = stu.arrival?.time, let scheduled = relative[index].arrival { return (time, scheduled) }
            if let time = stu.departure?.time, let scheduled = relative[index].departure { return (time, scheduled) }
            return nil
        }.first
        let reference = update.timestamp ?? message.timestamp ?? clock.apply
        func distance(_ date: Int) -> Int64 {
            let base = Berlin.dayStart(date) + Int64(shift)
            if let anchor { return abs(anchor.time - (base + anchor.scheduled)) }
            return max(base + Int64(trip.span.first) - reference, reference - (base + Int64(trip.span.last)), 0)
        }
        return dates.sorted().min { distance($0) < distance($1) }
    }

    func calls(of trip: OracleTrip, base: Int64) -> [OracleCall] {
        trip.calls.map {
            OracleCall(sequence: $0.sequence, stop: $0.stop, arrival: $0.arrival.map { base + Int64($0) }, departure: $0.departure.map { base + Int64($0) })
        }
    }

    /// The call each update matches (by index), `nil` for none: its stop_sequence's call; without one, the
    /// first call with its stop_id after the previous match that no update matched yet.
    static func match(_ calls: [OracleCall], _ updates: [RealtimeStopTimeUpdate]) -> [Int?] {
        var taken = Set<Int>()
        var after = 0
        return updates.map { update in
            var found: Int?
            if let sequence = update.stopSequence {
                found = calls.firstIndex { $0.sequence == sequence }
            } else if let stop = update.stopID {
                found = calls.indices.first { $0 >= after && calls[$0].stop == stop && !taken.contains($0) }
            }
            guard let index = found, !taken.contains(index) else { return nil }
            taken.insert(index)
            after = index + 1
            return index
        }
    }

    /// What the updates predict of each call by stop_sequence; calls without a prediction are absent.
    static func propagate(_ calls: [OracleCall], _ updates: [RealtimeStopTimeUpdate], cancelled: Bool) -> [Int: OraclePrediction] {
        if cancelled { return Dictionary(uniqueKeysWithValues: calls.map { ($0.sequence, OraclePrediction(status: .cancelled)) }) }
        var byCall: [Int: RealtimeStopTimeUpdate] = [:]
        for (update, index) in zip(updates, match(calls, updates)) { if let index { byCall[index] = update } }
        var carried: Int?
        var result: [Int: OraclePrediction] = [:]
        func plus(_ instant: Int64?, _ delay: Int?) -> Int64? { instant.flatMap { at in delay.map { at + Int64($0) } } }
        func own(_ event: RealtimeStopTimeEvent?, _ scheduled: Int64?) -> Int?? {
            guard let event, event.delay != nil || event.time != nil else { return nil }
            if let time = event.time, let scheduled { return .some(Int(time - scheduled)) }
            return .some(event.delay)
        }
        for (index, call) in calls.enumerated() {
            guard let update = byCall[index] else {
                if let delay = carried {
                    result[call.sequence] = OraclePrediction(
                        status: .predicted, arrival: plus(call.arrival, delay), departure: plus(call.departure, delay), arrivalDelay: delay,
                        departureDelay: delay)
                }
                continue
            }
            switch update.relationship {
            case .skipped: result[call.sequence] = OraclePrediction(status: .skipped)
            case .noData, .unscheduled: carried = nil
            case .scheduled:
                let arrivalDelay = own(update.arrival, call.arrival) ?? carried
                let departureDelay = own(update.departure, call.departure) ?? arrivalDelay
                let prediction = OraclePrediction(
                    status: .predicted, arrival: update.arrival?.time ?? plus(call.arrival, arrivalDelay),
                    departure: update.departure?.time ?? plus(call.departure, departureDelay), arrivalDelay: arrivalDelay,
                    departureDelay: departureDelay)
                if prediction.arrival != nil || prediction.departure != nil || arrivalDelay != nil || departureDelay != nil {
                    result[call.sequence] = prediction
                }
                carried = departureDelay
            }
        }
        return result
    }

    /// The predictions that count when read: of updates fresh when applied and when read.
    func predictions() -> (calls: [OracleKey: [Int: OraclePrediction]], added: [OracleAddedCall]) {
        var calls: [OracleKey: [Int: OraclePrediction]] = [:]
        var added: [OracleAddedCall] = []
        for update in message.tripUpdates where !staleWhenApplied(update) && age(update) <= clock.maxAge {
            if update.trip.relationship == .added {
                added += addedCalls(update)
                continue
            }
            guard let instance = resolve(update) else { continue }
            let scheduled = self.calls(of: instance.trip, base: Berlin.dayStart(instance.date) + Int64(instance.shift))
            calls[instance.key] = Self.propagate(scheduled, update.stopTimeUpdates, cancelled: update.trip.relationship == .canceled)
        }
        return (calls, added)
    }

    /// An added trip's calls: its stop time updates' stops and times, on start_date, else the first time's local date.
    func addedCalls(_ update: RealtimeTripUpdate) -> [OracleAddedCall] {
        let updates = update.stopTimeUpdates
        guard let first = updates.lazy.compactMap({ $0.arrival?.time ?? $0.departure?.time }).first else { return [] }
        let date = update.trip.startDate.flatMap { Int($0) } ?? Berlin.localDate(first)
        let sequences = updates.compactMap(\.stopSequence)
        return updates.map {
            OracleAddedCall(
                trip: update.trip.tripID ?? update.entityID, date: date, sequence: $0.stopSequence ?? 0, stop: $0.stopID ?? "",
                arrival: $0.arrival?.time, departure: $0.departure?.time, isFirst: $0.stopSequence == sequences.min(),
                isLast: $0.stopSequence == sequences.max())
        }
    }

    /// The board: every call of every instance at the stop (departures without each trip's last call and
    /// pickup_type 1, arrivals without its first and drop_off_type 1) and the added trips' calls, whose
    /// expected instant (predicted when predicted, else scheduled) is in the window, in the order of that
    /// instant, trip id (bytes), stop_sequence and service date.
    func board(_ ask: OracleAsk, _ predictions: (calls: [OracleKey: [Int: OraclePrediction]], added: [OracleAddedCall])) -> [OracleRow] {
        rows(ask, predictions).map(\.row)
    }

    /// The board's rows with their expected instants.
    func rows(
        _ ask: OracleAsk, _ predictions: (calls: [OracleKey: [Int: OraclePrediction]], added: [OracleAddedCall])
    ) -> [(expected: Int64, row: OracleRow)] {
        var rows: [(expected: Int64, row: OracleRow)] = []
        for trip in feed.trips {
            for date in feed.dates(of: trip) {
                for runShift in trip.runShifts {
                    let key = OracleKey(trip: trip.id, date: date, runShift: runShift)
                    let scheduled = calls(of: trip, base: Berlin.dayStart(date) + Int64(runShift))
                    for (index, call) in scheduled.enumerated() where call.stop == ask.stop {
                        let stopTime = trip.calls[index]
                        let excluded = ask.arrivals ? index == 0 || stopTime.dropOff == 1 : index == scheduled.count - 1 || stopTime.pickup == 1
                        guard !excluded else { continue }
                        let prediction = predictions.calls[key]?[call.sequence] ?? OraclePrediction(status: .scheduled)
                        let own = ask.arrivals ? call.arrival : call.departure
                        let predicted = ask.arrivals ? prediction.arrival : prediction.departure
                        // A call without a time of the timetable is on no board, realtime or not.
                        guard own != nil else { continue }
                        guard let expected = prediction.status == .predicted ? predicted ?? own : own, expected >= ask.from, expected < ask.to
                        else { continue }
                        let row = OracleRow(
                            trip: trip.id, date: date, sequence: call.sequence, stop: call.stop, arrival: call.arrival, departure: call.departure,
                            prediction: prediction)
                        rows.append((expected, row))
                    }
                }
            }
        }
        for call in predictions.added where call.stop == ask.stop && !(ask.arrivals ? call.isFirst : call.isLast) {
            guard let expected = ask.arrivals ? call.arrival : call.departure, expected >= ask.from, expected < ask.to else { continue }
            let prediction = OraclePrediction(status: .added, arrival: call.arrival, departure: call.departure)
            let row = OracleRow(
                trip: call.trip, date: call.date, sequence: call.sequence, stop: call.stop, arrival: call.arrival, departure: call.departure,
                prediction: prediction)
            rows.append((expected, row))
        }
        return rows.sorted { a, b in
            if a.expected != b.expected { return a.expected < b.expected }
            if a.row.trip != b.row.trip { return bytewise(a.row.trip, b.row.trip) }
            if a.row.sequence != b.row.sequence { return a.row.sequence < b.row.sequence }
            return a.row.date < b.row.date
        }
    }
}

// MARK: - A scenario

/// One seed's feed, message, clock and boards.
private struct OracleScenario {
    let seed: Int
    let feed: OracleFeed
    let message: RealtimeMessage
    let clock: OracleClock
    let asks: [OracleAsk]

    init(seed: Int) {
        var dice = Dice(seed: seed)
        self.seed = seed
        feed = FeedMaker.feed(&dice)
        let apply = Berlin.dayStart(feed.day) + Int64(dice.int(6 * 3600 ... 22 * 3600))
        let read = dice.chance(0.3) ? apply + Int64(dice.int(1 ... 900)) : apply
        clock = OracleClock(apply: apply, read: read, maxAge: Int64(dice.pick([300, 600, 1800])))
        message = MessageMaker.message(&dice, feed: feed, clock: clock)
        asks = Self.asks(&dice, feed: feed, oracle: Oracle(feed: feed, message: message, clock: clock))
    }

    /// For each stop, departures and arrivals: over all three service dates, in a random window, and in a
    /// window with an edge at (or a second off) the expected instant of a call with a prediction.
    static func asks(_ dice: inout Dice, feed: OracleFeed, oracle: Oracle) -> [OracleAsk] {
        let predictions = oracle.predictions()
        let dayStart = Berlin.dayStart(feed.day)
        var asks: [OracleAsk] = []
        for stop in feed.stops {
            for arrivals in [false, true] {
                let wide = OracleAsk(
                    arrivals: arrivals, stop: stop, from: Berlin.dayStart(Berlin.date(feed.day, plus: -1)),
                    to: Berlin.dayStart(Berlin.date(feed.day, plus: 2)) + 6 * 3600)
                asks.append(wide)
                let from = dayStart + Int64(dice.int(3 * 60 ... 26 * 60) * 60)
                asks.append(OracleAsk(arrivals: arrivals, stop: stop, from: from, to: from + Int64(dice.int(30 ... 480) * 60)))
                let live = oracle.rows(wide, predictions).filter { $0.row.status != .scheduled }.map(\.expected)
                guard !live.isEmpty else { continue }
                for _ in 0 ..< 2 {
                    let (edge, length) = (dice.pick(live) + Int64(dice.int(-1 ... 1)), Int64(dice.int(1 ... 60) * 60))
                    asks.append(OracleAsk(arrivals: arrivals, stop: stop, from: dice.chance(0.5) ? edge : edge - length, to: edge + length))
                    asks.append(OracleAsk(arrivals: arrivals, stop: stop, from: edge - length, to: edge))
                }
            }
        }
        return asks
    }

    func options(_ now: Int64) -> RealtimeOptions {
        RealtimeOptions(maxAge: TimeInterval(clock.maxAge), now: Date(timeIntervalSince1970: TimeInterval(now)))
    }

    /// Writes the feed's files into `folder/feed`.
    func write(to folder: TemporaryFolder) throws -> FeedSource {
        for (name, text) in feed.files { try folder.write(text, name: "feed/\(name)") }
        return try FeedSource(path: folder.file("feed"))
    }

    /// Applies the message to `store` (holding the feed as `default`) and compares every board with the oracle's.
    func check(_ store: any FeedStore, storeName: String) throws {
        _ = try store.applyRealtime(message, source: "oracle.pb", feed: "default", options: options(clock.apply))
        let oracle = Oracle(feed: feed, message: message, clock: clock)
        let predictions = oracle.predictions()
        var differing: [(ask: OracleAsk, expected: [OracleRow], got: [OracleRow])] = []
        for ask in asks {
            let (from, to) = (Date(timeIntervalSince1970: TimeInterval(ask.from)), Date(timeIntervalSince1970: TimeInterval(ask.to)))
            let events =
                ask.arrivals
                ? try store.arrivals(at: ask.stop, between: from, and: to, realtime: options(clock.read))
                : try store.departures(from: ask.stop, between: from, and: to, realtime: options(clock.read))
            let (got, expected) = (events.map(OracleRow.init), oracle.board(ask, predictions))
            if got != expected { differing.append((ask, expected, got)) }
        }
        guard let first = differing.first else { return }
        Issue.record(Comment(rawValue: report(storeName, differing.count, first)))
    }

    func report(_ storeName: String, _ count: Int, _ first: (ask: OracleAsk, expected: [OracleRow], got: [OracleRow])) -> String {
        let expectedSet = Set(first.expected)
        let gotSet = Set(first.got)
        let expected = first.expected.map { (gotSet.contains($0) ? "    " : "  - ") + $0.description }
        let got = first.got.map { (expectedSet.contains($0) ? "    " : "  + ") + $0.description }
        let files = feed.files.sorted { $0.key < $1.key }.map { "--- \($0.key)\n\($0.value)" }.joined()
        return """
            seed \(seed) on \(storeName): \(count) of \(asks.count) boards differ from the rules; the first: \(first.ask)
            expected (\(first.expected.count) rows; - only expected):
            \(expected.joined(separator: "\n"))
            store (\(first.got.count) rows; + only in the store):
            \(got.joined(separator: "\n"))
            applied at \(Berlin.text(clock.apply)), read at \(Berlin.text(clock.read)), max age \(clock.maxAge) s
            message:
            \(Self.describe(message))
            feed (service day \(feed.day)):
            \(files)
            """
    }

    static func describe(_ message: RealtimeMessage) -> String {
        func event(_ event: RealtimeStopTimeEvent?) -> String {
            guard let event else { return "-" }
            return "(delay \(event.delay.map(String.init) ?? "-"), time \(Berlin.text(event.time)))"
        }
        var lines = ["header timestamp \(Berlin.text(message.timestamp))"]
        for update in message.tripUpdates {
            let trip = update.trip
            lines.append(
                "\(update.entityID): trip_id \(trip.tripID ?? "-") route \(trip.routeID ?? "-") direction \(trip.directionID.map(String.init) ?? "-")"
                    + " start \(trip.startTime ?? "-") \(trip.startDate ?? "-") \(trip.relationship.rawValue) timestamp \(Berlin.text(update.timestamp))")
            for stu in update.stopTimeUpdates {
                lines.append(
                    "  stop_sequence \(stu.stopSequence.map(String.init) ?? "-") stop_id \(stu.stopID ?? "-") \(stu.relationship.rawValue)"
                        + " arrival \(event(stu.arrival)) departure \(event(stu.departure))")
            }
        }
        return lines.joined(separator: "\n")
    }
}
