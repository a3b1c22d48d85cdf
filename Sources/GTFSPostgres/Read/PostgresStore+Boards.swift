public import Foundation
import GTFS

extension PostgresStore {
    /// Calls `body` with each departure of `FeedStore.departures(from:between:and:feed:limit:)`,
    /// in time order, as they are read through a cursor: memory stays bounded however many there are. The
    /// read is one snapshot and holds the store's connection; `body` runs inside it, so keep it short.
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
    ///   stop the store does not hold, ``PostgresError``, or what `body` throws.
    public func forEachDeparture(
        from stopID: String, between start: Date, and end: Date, feed: String = "default", limit: Int? = nil,
        realtime: RealtimeOptions? = nil, _ body: (StopEvent) throws -> Void
    ) throws {
        try board(.departures, stopID: stopID, start: start, end: end, feed: feed, limit: limit, realtime: realtime, body)
    }

    /// Calls `body` with each arrival of `FeedStore.arrivals(at:between:and:feed:limit:)`,
    /// in time order, as ``forEachDeparture(from:between:and:feed:limit:realtime:_:)`` does.
    /// - Parameters:
    ///   - stopID: a stop, platform or station (`location_type` 1), whose platforms are then included.
    ///   - start: the first instant, included.
    ///   - end: the last instant, excluded.
    ///   - feed: the feed's name.
    ///   - limit: the most arrivals (the earliest), or `nil` for all.
    ///   - realtime: for a realtime board, how old a prediction may be; `nil` for the timetable alone.
    ///   - body: receives each arrival; an error it throws ends the read and is rethrown.
    /// - Throws: `StoreError.unknownFeed(name:feeds:)` or `StoreError.unknownStop(id:feed:)` for a feed or
    ///   stop the store does not hold, ``PostgresError``, or what `body` throws.
    public func forEachArrival(
        at stopID: String, between start: Date, and end: Date, feed: String = "default", limit: Int? = nil,
        realtime: RealtimeOptions? = nil, _ body: (StopEvent) throws -> Void
    ) throws {
        try board(.arrivals, stopID: stopID, start: start, end: end, feed: feed, limit: limit, realtime: realtime, body)
    }

    /// Calls `body` with each departure of the whole network in `[start, end)`, in time order, as they are
    /// read through a cursor (see `FeedStore.forEachDeparture(between:and:feed:limit:_:)`). The read is one
    /// snapshot and holds the store's connection; `body` runs inside it, so keep it short.
    /// - Parameters:
    ///   - start: the first instant, included.
    ///   - end: the last instant, excluded.
    ///   - feed: the feed's name.
    ///   - limit: the most departures (the earliest), or `nil` for all.
    ///   - body: receives each departure; an error it throws ends the read and is rethrown.
    /// - Throws: `StoreError.unknownFeed(name:feeds:)` for a feed the store does not hold, ``PostgresError``,
    ///   or what `body` throws.
    public func forEachDeparture(
        between start: Date, and end: Date, feed: String = "default", limit: Int? = nil, _ body: (StopEvent) throws -> Void
    ) throws {
        try read { reading in
            guard let number = try reading.feed(named: feed).map(Int64.init) else {
                throw StoreError.unknownFeed(name: feed, feeds: try reading.feedNames())
            }
            guard let query = NetworkWindowQuery(start: start, end: end, limit: limit, dialect: .postgres) else { return }
            let cursor = try reading.cursor(query.sql, query.arguments(feed: number), batch: min(limit ?? 500, 500), "read the departures")
            while let event = try Self.nextEvent(cursor, nil) { try body(event) }
        }
    }

    private func board(
        _ kind: BoardOrder.Kind, stopID: String, start: Date, end: Date, feed name: String, limit: Int?, realtime: RealtimeOptions?,
        _ body: (StopEvent) throws -> Void
    ) throws {
        try read { reading in
            let feed = try reading.feed(named: name).map(Int64.init)
            let stops = try feed.map { feed throws(PostgresError) in
                try reading.query(BoardQuery.stopsSQL(.postgres), [.integer(feed), .text(stopID), .text(stopID)], "find the stops of \(stopID)")
                    .compactMap { $0.first ?? nil }
            } ?? []
            try BoardQuery.check(stopID: stopID, feed: name, feedFound: feed != nil, stops: stops) {
                try reading.feedNames()
            }
            guard let feed else { return }
            let session = PostgresRealtimeSession(connection: reading.connection)
            // A schema an older build wrote has no realtime tables until its next write: nothing is predicted in it.
            let hasRealtime = try realtime != nil && reading.hasRealtime()
            let window = try realtime.flatMap { hasRealtime ? try RealtimeReads.window(session, feed: feed, options: $0) : nil }
            let body = realtime != nil && !hasRealtime ? { try body(RealtimeCall.scheduled($0)) } : body
            guard let query = BoardQuery(kind, stops: stops, start: start, end: end, limit: limit, dialect: .postgres, realtime: window) else { return }
            func cursor(runs: Bool) throws(PostgresError) -> PostgresCursor? {
                let latest = try reading.query(query.latestSQL(runs: runs), query.latestArguments(feed: feed), "find the latest time")
                guard let latest = latest.first?.first.flatMap({ $0 }).flatMap({ Int64($0) }) else { return nil }
                return try reading.cursor(
                    query.eventsSQL(runs: runs), query.eventArguments(feed: feed, latest: latest), batch: min(limit ?? 500, 500), "read the board")
            }
            let timetabled = try cursor(runs: false)
            let runs = try cursor(runs: true)
            let added = try window.map { _ in
                try reading.cursor(query.addedSQL(), query.addedArguments(feed: feed), batch: min(limit ?? 500, 500), "read the added trips")
            }
            let sources = [timetabled, runs, added].map { cursor in { try Self.nextEvent(cursor, query) } }
            try BoardOrder.merge(kind, sources, limit: limit, body)
        }
    }

    /// The next event of `cursor`, past any row that makes none; `nil` at its end.
    private static func nextEvent(_ cursor: PostgresCursor?, _ query: BoardQuery?) throws(PostgresError) -> StopEvent? {
        while let row = try cursor?.nextRow() {
            let row = TextRow(values: row)
            if let event = query.map({ $0.event(row) }) ?? BoardQuery.event(row) { return event }
        }
        return nil
    }
}
