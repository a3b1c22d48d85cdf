public import Foundation
import GRDB

extension GTFSStore {
    /// The departures from a stop between two instants, in time order: every trip that leaves the stop
    /// (or, for a station, one of its platforms) in `[start, end)`, on every service date, including trips
    /// that began on an earlier day (times past 24:00) and the runs of `frequencies.txt` trips. Stop times
    /// where boarding is not possible (`pickup_type` 1) are left out, and so is each trip's last stop,
    /// where it only arrives.
    ///
    /// Instants are exact on the days the clocks change: GTFS times count from noon minus 12 hours of the
    /// service date, in the feed's time zone. Reads one consistent snapshot: an import running meanwhile
    /// is not seen half done.
    ///
    /// ```swift
    /// let now = Date()
    /// for departure in try store.departures(from: "de:11000:900100003", between: now, and: now + 3600) {
    ///     print(departure.departure!, departure.routeShortName ?? "", departure.headsign ?? "", departure.platformCode ?? "")
    /// }
    /// ```
    /// - Parameters:
    ///   - stopID: a stop, platform or station (`location_type` 1), whose platforms are then included.
    ///   - start: the first instant, included.
    ///   - end: the last instant, excluded.
    ///   - feed: the feed's name.
    ///   - limit: the most departures returned (the earliest): ``boardLimit`` unless given. A week of a
    ///     line every minute holds 10,080; ``forEachDeparture(from:between:and:feed:limit:_:)`` hands on
    ///     any number of them without holding them.
    /// - Returns: the departures; empty for an unknown stop or feed.
    /// - Throws: `DatabaseError`.
    public func departures(
        from stopID: String, between start: Date, and end: Date, feed: String = "default", limit: Int = GTFSStore.boardLimit
    ) throws -> [StopEvent] {
        try board(.departures, stopID, start, end, feed, limit)
    }

    /// Calls `body` with each departure of ``departures(from:between:and:feed:limit:)``, in time order, as
    /// they are read: memory stays bounded however many there are. The read is one snapshot; `body` runs
    /// inside it, so keep it short (print a line, send a row).
    ///
    /// ```swift
    /// try store.forEachDeparture(from: "de:11000:900100003", between: start, and: start + 7 * 86_400) { departure in
    ///     print(departure.departure!, departure.routeShortName ?? "")
    /// }
    /// ```
    /// - Parameters:
    ///   - stopID: a stop, platform or station (`location_type` 1), whose platforms are then included.
    ///   - start: the first instant, included.
    ///   - end: the last instant, excluded.
    ///   - feed: the feed's name.
    ///   - limit: the most departures (the earliest), or `nil` for all.
    ///   - body: receives each departure; an error it throws ends the read and is rethrown.
    /// - Throws: `DatabaseError`, or what `body` throws.
    public func forEachDeparture(
        from stopID: String, between start: Date, and end: Date, feed: String = "default", limit: Int? = nil,
        _ body: (StopEvent) throws -> Void
    ) throws {
        try pool.read { db in try StopEvents.forEach(db, .departures, stopID: stopID, start: start, end: end, feed: feed, limit: limit, body) }
    }

    /// The arrivals at a stop between two instants, in time order; as
    /// ``departures(from:between:and:feed:limit:)``, with arrival times, leaving out stop times where
    /// alighting is not possible (`drop_off_type` 1) and each trip's first stop.
    ///
    /// ```swift
    /// let arrivals = try store.arrivals(at: "de:11000:900100003", between: start, and: start + 1800)
    /// ```
    /// - Parameters:
    ///   - stopID: a stop, platform or station (`location_type` 1), whose platforms are then included.
    ///   - start: the first instant, included.
    ///   - end: the last instant, excluded.
    ///   - feed: the feed's name.
    ///   - limit: the most arrivals returned (the earliest): ``boardLimit`` unless given.
    /// - Returns: the arrivals; empty for an unknown stop or feed.
    /// - Throws: `DatabaseError`.
    public func arrivals(
        at stopID: String, between start: Date, and end: Date, feed: String = "default", limit: Int = GTFSStore.boardLimit
    ) throws -> [StopEvent] {
        try board(.arrivals, stopID, start, end, feed, limit)
    }

    /// Calls `body` with each arrival of ``arrivals(at:between:and:feed:limit:)``, in time order, as they
    /// are read, in bounded memory; as ``forEachDeparture(from:between:and:feed:limit:_:)``.
    /// - Parameters:
    ///   - stopID: a stop, platform or station (`location_type` 1), whose platforms are then included.
    ///   - start: the first instant, included.
    ///   - end: the last instant, excluded.
    ///   - feed: the feed's name.
    ///   - limit: the most arrivals (the earliest), or `nil` for all.
    ///   - body: receives each arrival; an error it throws ends the read and is rethrown.
    /// - Throws: `DatabaseError`, or what `body` throws.
    public func forEachArrival(
        at stopID: String, between start: Date, and end: Date, feed: String = "default", limit: Int? = nil,
        _ body: (StopEvent) throws -> Void
    ) throws {
        try pool.read { db in try StopEvents.forEach(db, .arrivals, stopID: stopID, start: start, end: end, feed: feed, limit: limit, body) }
    }

    /// The events of one board, collected.
    private func board(_ kind: StopEvents.Kind, _ stopID: String, _ start: Date, _ end: Date, _ feed: String, _ limit: Int) throws -> [StopEvent] {
        var events: [StopEvent] = []
        try pool.read { db in
            try StopEvents.forEach(db, kind, stopID: stopID, start: start, end: end, feed: feed, limit: limit) { events.append($0) }
        }
        return events
    }

    /// The most events ``departures(from:between:and:feed:limit:)`` and ``arrivals(at:between:and:feed:limit:)``
    /// return unless asked for more: 1,000.
    public static let boardLimit = 1_000
}
