import GTFS

/// The trip instance a trip update is about, found in the timetable, and its calls.
struct TripInstance {
    /// The trip's id on boards (a `DUPLICATED` copy's new id, an added trip's own).
    var tripID: String
    /// The service date, `YYYYMMDD`.
    var date: Int
    /// The shift of the frequency run the instance is (0 for a timetabled trip), as boards key it.
    var runShift: Int
    /// How much later than its run the instance starts (an `exact_times` 0 run's `start_time`), which moves
    /// its calls on a board beyond their delays.
    var runOffset = 0
    /// Its calls with their scheduled instants.
    var calls: [ScheduledCall]
    /// Whether the instance is not in the timetable (`ADDED`, `NEW`, a `DUPLICATED` copy).
    var isAdded: Bool
}

/// Finds trip instances in a feed's timetable by the rules of the specification: by `trip_id`, else by
/// route, direction, start date and start time; on `start_date` when given, else on the service date whose
/// instance the update's times reach; frequency-based trips by `start_time`.
struct TripInstances {
    let session: any RealtimeSession
    let feed: Int64
    let clock: FeedClock?

    /// The instance `update` is about, or why none was found.
    func resolve(_ update: RealtimeTripUpdate, reference: Int64) throws -> Result<TripInstance, Reason> {
        let trip = update.trip
        switch trip.relationship {
        case .added, .new: return addedInstance(update)
        case .duplicated: return try duplicatedInstance(update)
        default: break
        }
        guard let tripID = try trip.tripID ?? tripByRouteAndStart(trip) else {
            return .failure(Reason("no trip of route \(trip.routeID ?? "?") starting \(trip.startDate ?? "?") \(trip.startTime ?? "?")"))
        }
        let template = try calls(of: tripID)
        guard !template.isEmpty else { return .failure(Reason("trip \(tripID) is not in the timetable")) }
        var shift = 0
        var runShift = 0
        let runs = try frequencyRuns(of: tripID)
        if !runs.isEmpty {
            guard let start = trip.startTime.flatMap(GTFSTime.init).map({ Int($0.seconds) }) else {
                return .failure(Reason("trip \(tripID) runs by frequencies and the update gives no start_time"))
            }
            guard let run = runs.min(by: { abs($0.start - start) < abs($1.start - start) }), run.exact == 0 || run.start == start else {
                return .failure(Reason("trip \(tripID) has no run at \(trip.startTime ?? "")"))
            }
            (shift, runShift) = (run.shift + start - run.start, run.shift)
        }
        let days = try serviceDays(of: tripID, date: trip.startDate, reference: reference)
        guard let day = bestDay(days, template: template, shift: shift, updates: update.stopTimeUpdates, reference: reference) else {
            return .failure(Reason("trip \(tripID) does not run \(trip.startDate.map { "on \($0)" } ?? "near the update's time")"))
        }
        let calls = template.map { instant($0, dayStart: day.start + Int64(shift)) }
        return .success(TripInstance(tripID: tripID, date: day.date, runShift: runShift, runOffset: shift - runShift, calls: calls, isAdded: false))
    }

    struct Reason: Error { let text: String; init(_ text: String) { self.text = text } }

    /// An added trip's calls, from its stop time updates' times.
    private func addedInstance(_ update: RealtimeTripUpdate) -> Result<TripInstance, Reason> {
        let calls = update.stopTimeUpdates.enumerated().compactMap { index, stu -> ScheduledCall? in
            guard let stop = stu.stopID else { return nil }
            let arrival = stu.arrival?.time ?? stu.departure?.time
            return ScheduledCall(stopSequence: stu.stopSequence ?? index + 1, stopID: stop, arrival: arrival, departure: stu.departure?.time ?? arrival)
        }
        guard let first = calls.lazy.compactMap({ $0.departure ?? $0.arrival }).first else {
            return .failure(Reason("added trip \(update.trip.tripID ?? update.entityID) gives no stop with a time"))
        }
        guard let date = update.trip.startDate.flatMap(GTFSDate.init) ?? clock?.date(containing: first) else {
            return .failure(Reason("added trip \(update.trip.tripID ?? update.entityID) has no start_date and the feed no time zone"))
        }
        return .success(TripInstance(tripID: update.trip.tripID ?? update.entityID, date: date.integerValue, runShift: 0, calls: calls, isAdded: true))
    }

    /// A `DUPLICATED` trip: its template's calls moved to the new start.
    private func duplicatedInstance(_ update: RealtimeTripUpdate) throws -> Result<TripInstance, Reason> {
        let trip = update.trip
        guard let template = trip.tripID else { return .failure(Reason("duplicated trip without trip_id")) }
        let calls = try calls(of: template)
        guard let firstTime = calls.first.flatMap({ $0.departure ?? $0.arrival }) else {
            return .failure(Reason("trip \(template) is not in the timetable"))
        }
        guard let start = (update.newStartTime ?? trip.startTime).flatMap(GTFSTime.init),
            let date = (update.newStartDate ?? trip.startDate).flatMap(GTFSDate.init), let clock
        else { return .failure(Reason("duplicated trip \(template) needs a new start date and time")) }
        let shift = Int64(start.seconds) - firstTime
        let moved = calls.map { instant($0, dayStart: clock.dayStart(date) + shift) }
        return .success(
            TripInstance(tripID: update.newTripID ?? template, date: date.integerValue, runShift: Int(shift), calls: moved, isAdded: true))
    }

    /// A call with its seconds after day start made instants.
    private func instant(_ call: ScheduledCall, dayStart: Int64) -> ScheduledCall {
        ScheduledCall(stopSequence: call.stopSequence, stopID: call.stopID, arrival: call.arrival.map { $0 + dayStart }, departure: call.departure.map { $0 + dayStart })
    }

    /// A trip's stop times, their times in seconds after the service day's start.
    private func calls(of tripID: String) throws -> [ScheduledCall] {
        let p = session.dialect.placeholder
        var calls: [ScheduledCall] = []
        try session.query(
            "SELECT stop_sequence, stop_id, arrival_time, departure_time FROM stop_times WHERE feed = \(p(1)) AND trip_id = \(p(2)) ORDER BY stop_sequence",
            [.integer(feed), .text(tripID)]
        ) { row in
            calls.append(ScheduledCall(stopSequence: Int(row.integer(0) ?? 0), stopID: row.text(1) ?? "", arrival: row.integer(2), departure: row.integer(3)))
        }
        return calls
    }

    private func frequencyRuns(of tripID: String) throws -> [(start: Int, shift: Int, exact: Int)] {
        let p = session.dialect.placeholder
        var runs: [(start: Int, shift: Int, exact: Int)] = []
        try session.query(
            "SELECT run_start, shift, exact_times FROM frequency_runs WHERE feed = \(p(1)) AND trip_id = \(p(2)) ORDER BY run_start",
            [.integer(feed), .text(tripID)]
        ) { row in runs.append((Int(row.integer(0) ?? 0), Int(row.integer(1) ?? 0), Int(row.integer(2) ?? 0))) }
        return runs
    }

    /// The service dates of a trip (with their day starts) near `reference`, or on `date`.
    private func serviceDays(of tripID: String, date: String?, reference: Int64) throws -> [(date: Int, start: Int64)] {
        let d = session.dialect
        let p = d.placeholder
        var sql = """
            SELECT \(d.integerDate("fd.date")), fd.day_start FROM trips t
            JOIN service_days sd ON sd.feed = t.feed AND sd.service_id = t.service_id
            JOIN feed_days fd ON fd.feed = sd.feed AND fd.date = sd.date
            WHERE t.feed = \(p(1)) AND t.trip_id = \(p(2))
            """
        var arguments: [SQLArgument] = [.integer(feed), .text(tripID)]
        if let date {
            guard let day = GTFSDate(date) else { return [] }
            sql += " AND \(d.integerDate("fd.date")) = \(p(3))"
            arguments.append(.integer(Int64(day.integerValue)))
        } else {
            // A trip can start up to a few days before its times reach (times past 24:00).
            sql += " AND fd.day_start >= \(p(3)) AND fd.day_start <= \(p(4))"
            arguments += [.integer(reference - 4 * 86_400), .integer(reference + 2 * 86_400)]
        }
        var days: [(date: Int, start: Int64)] = []
        try session.query(sql + " ORDER BY fd.day_start", arguments) { row in
            if let date = row.integer(0), let start = row.integer(1) { days.append((Int(date), start)) }
        }
        return days
    }

    /// The day whose instance the update reaches: its first absolute time nearest the matched call's
    /// scheduled one, else the reference instant nearest the instance's span; ties to the earlier day.
    private func bestDay(
        _ days: [(date: Int, start: Int64)], template: [ScheduledCall], shift: Int, updates: [RealtimeStopTimeUpdate], reference: Int64
    ) -> (date: Int, start: Int64)? {
        guard days.count > 1 else { return days.first }
        let matched = RealtimePropagation.match(template, updates).matched
        let anchor = zip(template, matched).lazy.compactMap { call, update -> (time: Int64, scheduled: Int64)? in
            if let time = update?.arrival?.time, let scheduled = call.arrival ?? call.departure { return (time, scheduled) }
            if let time = update?.departure?.time, let scheduled = call.departure ?? call.arrival { return (time, scheduled) }
            return nil
        }.first
        let times = template.compactMap { $0.departure ?? $0.arrival }
        let (first, last) = (times.min() ?? 0, times.max() ?? 0)
        func distance(_ day: (date: Int, start: Int64)) -> Int64 {
            let base = day.start + Int64(shift)
            if let anchor { return abs(anchor.time - (base + anchor.scheduled)) }
            return max(base + first - reference, reference - (base + last), 0)
        }
        return days.min { distance($0) < distance($1) }
    }

    /// The trip of a descriptor without `trip_id`: of its route (and direction), running on its start
    /// date, whose first stop time leaves at its start time; the first by id when several do.
    private func tripByRouteAndStart(_ trip: RealtimeTrip) throws -> String? {
        guard let route = trip.routeID, let date = trip.startDate.flatMap(GTFSDate.init),
            let start = trip.startTime.flatMap(GTFSTime.init)
        else { return nil }
        let d = session.dialect
        let p = d.placeholder
        var found: String?
        try session.query(
            """
            SELECT t.trip_id FROM trips t
            JOIN service_days sd ON sd.feed = t.feed AND sd.service_id = t.service_id AND \(d.integerDate("sd.date")) = \(p(3))
            WHERE t.feed = \(p(1)) AND t.route_id = \(p(2)) AND (\(p(5)) < 0 OR t.direction_id = \(p(5)))
                AND (SELECT coalesce(st.departure_time, st.arrival_time) FROM stop_times st WHERE st.feed = t.feed AND st.trip_id = t.trip_id
                     ORDER BY st.stop_sequence LIMIT 1) = \(p(4))
            ORDER BY t.trip_id LIMIT 1
            """,
            [.integer(feed), .text(route), .integer(Int64(date.integerValue)), .integer(Int64(start.seconds)), .integer(Int64(trip.directionID ?? -1))]
        ) { row in found = row.text(0) }
        return found
    }
}
