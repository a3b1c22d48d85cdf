public import Foundation
import GRDB

extension GTFSStore {
    /// Calls `body` with each departure of `FeedStore.departures(from:between:and:feed:limit:)`, in time order, as
    /// they are read: memory stays bounded however many there are. The read is one snapshot; `body` runs
    /// inside it, so keep it short (print a line, send a row); a read of this store called from it (a trip's
    /// timetable, say) joins the snapshot.
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
    ///   - realtime: for a realtime board, how old a prediction may be (see `StopEvent.realtime`); `nil`
    ///     for the timetable alone.
    ///   - body: receives each departure; an error it throws ends the read and is rethrown.
    /// - Throws: `StoreError.unknownFeed(name:feeds:)` or `StoreError.unknownStop(id:feed:)` for a feed or
    ///   stop the store does not hold, `DatabaseError`, or what `body` throws.
    public func forEachDeparture(
        from stopID: String, between start: Date, and end: Date, feed: String = "default", limit: Int? = nil,
        realtime: RealtimeOptions? = nil, _ body: (StopEvent) throws -> Void
    ) throws {
        try read { db in try StopEvents.forEach(db, .departures, stopID: stopID, start: start, end: end, feed: feed, limit: limit, realtime: realtime, body) }
    }

    /// Calls `body` with each arrival of `FeedStore.arrivals(at:between:and:feed:limit:)`, in time order, as they
    /// are read, in bounded memory; as ``forEachDeparture(from:between:and:feed:limit:realtime:_:)``.
    /// - Parameters:
    ///   - stopID: a stop, platform or station (`location_type` 1), whose platforms are then included.
    ///   - start: the first instant, included.
    ///   - end: the last instant, excluded.
    ///   - feed: the feed's name.
    ///   - limit: the most arrivals (the earliest), or `nil` for all.
    ///   - realtime: for a realtime board, how old a prediction may be; `nil` for the timetable alone.
    ///   - body: receives each arrival; an error it throws ends the read and is rethrown.
    /// - Throws: `StoreError.unknownFeed(name:feeds:)` or `StoreError.unknownStop(id:feed:)` for a feed or
    ///   stop the store does not hold, `DatabaseError`, or what `body` throws.
    public func forEachArrival(
        at stopID: String, between start: Date, and end: Date, feed: String = "default", limit: Int? = nil,
        realtime: RealtimeOptions? = nil, _ body: (StopEvent) throws -> Void
    ) throws {
        try read { db in try StopEvents.forEach(db, .arrivals, stopID: stopID, start: start, end: end, feed: feed, limit: limit, realtime: realtime, body) }
    }

    /// Calls `body` with each departure of the whole network in `[start, end)`, in time order, as they are
    /// read (see `FeedStore.forEachDeparture(between:and:feed:limit:_:)`). The read is one snapshot;
    /// `body` runs inside it, so keep it short.
    /// - Parameters:
    ///   - start: the first instant, included.
    ///   - end: the last instant, excluded.
    ///   - feed: the feed's name.
    ///   - limit: the most departures (the earliest), or `nil` for all.
    ///   - body: receives each departure; an error it throws ends the read and is rethrown.
    /// - Throws: `StoreError.unknownFeed(name:feeds:)` for a feed the store does not hold, `DatabaseError`,
    ///   or what `body` throws.
    public func forEachDeparture(
        between start: Date, and end: Date, feed: String = "default", limit: Int? = nil, _ body: (StopEvent) throws -> Void
    ) throws {
        try read { db in try StopEvents.forEachOfNetwork(db, start: start, end: end, feed: feed, limit: limit, body) }
    }
}
