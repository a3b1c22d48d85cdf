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
    ///   - limit: the most departures returned (the earliest).
    /// - Returns: the departures; empty for an unknown stop or feed.
    /// - Throws: `DatabaseError`.
    public func departures(
        from stopID: String, between start: Date, and end: Date, feed: String = "default", limit: Int? = nil
    ) throws -> [StopEvent] {
        try pool.read { db in try StopEvents.query(db, .departures, stopID: stopID, start: start, end: end, feed: feed, limit: limit) }
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
    ///   - limit: the most arrivals returned (the earliest).
    /// - Returns: the arrivals; empty for an unknown stop or feed.
    /// - Throws: `DatabaseError`.
    public func arrivals(
        at stopID: String, between start: Date, and end: Date, feed: String = "default", limit: Int? = nil
    ) throws -> [StopEvent] {
        try pool.read { db in try StopEvents.query(db, .arrivals, stopID: stopID, start: start, end: end, feed: feed, limit: limit) }
    }
}
