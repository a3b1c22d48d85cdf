public import Dispatch
public import Foundation
public import GTFS

/// A store of GTFS feeds: the SQLite store (`GTFSStore`, module `GTFSImport`) and the PostgreSQL store
/// (`PostgresStore`, module `GTFSPostgres`) are two implementations of it. A program written against it
/// imports, lists, removes and reads feeds in either, with the same options, summaries, errors and answers.
///
/// Importing has one primitive, ``makeImport(from:options:reporter:)``; ``ImportOperation``,
/// ``importFeed(from:options:progressQueue:progress:)`` and ``importFeedSynchronously(from:options:)`` run
/// it. Reading has a few questions a timetable is for, each in one read transaction, so an import running
/// meanwhile is never seen half done.
///
/// ```swift
/// func board(_ store: any FeedStore, stop: String, at start: Date) throws -> [StopEvent] {
///     try store.departures(from: stop, between: start, and: start + 3600)
/// }
/// ```
public protocol FeedStore: AnyObject, Sendable {
    /// What the store does of the options an import may ask for.
    var capabilities: StoreCapabilities { get }

    /// An import of `source` with `options`, not yet started: ``ImportOperation`` runs it.
    /// - Parameters:
    ///   - source: the feed.
    ///   - options: the import's options, which the import checks against ``capabilities`` first.
    ///   - reporter: where the import offers its progress.
    func makeImport(from source: FeedSource, options: ImportOptions, reporter: ProgressReporter) -> any FeedImport

    /// The feeds the store holds, by name, with their row counts (which takes a count of every table).
    func feeds() throws -> [StoredFeed]

    /// The names of the feeds the store holds, in order: at once, without counting rows.
    func feedNames() throws -> [String]

    /// Deletes a feed with every row it has, in one transaction; its import history stays.
    /// - Parameters:
    ///   - name: the feed's name.
    ///   - lockWait: how long to wait for an import or removal writing the store; `nil`: as long as it takes.
    /// - Returns: the rows deleted, or `nil` when the store holds no such feed.
    @discardableResult
    func removeFeed(named name: String, lockWait: Duration?) throws -> Int?

    /// The last check of the feed named `name` against its URL, with the content hash of the version the
    /// store holds now (``FeedCheck/storedContentHash``); `nil` when it was never checked.
    func feedCheck(named name: String) throws -> FeedCheck?

    /// Records a check of a feed against its URL, replacing the feed's previous one (its own transaction).
    func recordFeedCheck(_ check: FeedCheck) throws

    /// The rows of each table that holds any, for the feed named `feed`; empty for an unknown feed.
    func rowCounts(feed: String) throws -> [GTFSFile: Int]

    /// Calls `body` with each departure from a stop (a station: and its platforms) in `[start, end)`, in time
    /// order (then trip, stop sequence, service date), as they are read: memory stays bounded however
    /// many there are. Trips of earlier service dates still running (times past 24:00), the runs of
    /// `frequencies.txt` trips and the days the clocks change are on it; stop times without boarding
    /// (`pickup_type` 1) and each trip's last stop are not. Nothing for an unknown stop or feed.
    /// - Parameters:
    ///   - stopID: a stop, platform or station (`location_type` 1), whose platforms are then included.
    ///   - start: the first instant, included.
    ///   - end: the last instant, excluded.
    ///   - feed: the feed's name.
    ///   - limit: the most departures (the earliest), or `nil` for all.
    ///   - realtime: for a realtime board, how old a prediction may be: each call's ``StopEvent/realtime``
    ///     says what fresh predictions say of it, calls are in the window and in order by their expected
    ///     instant, and added trips are on it; `nil` for the timetable alone. As on the timetable's board,
    ///     a stop time without a time (a non-timepoint) is not on it, whatever an update predicts of it.
    ///   - body: receives each departure, inside the read; an error it throws ends the read and is rethrown.
    /// - Throws: ``StoreError/unknownFeed(name:feeds:)`` or ``StoreError/unknownStop(id:feed:)`` for a feed
    ///   or stop the store does not hold, the store's error, or what `body` throws.
    func forEachDeparture(
        from stopID: String, between start: Date, and end: Date, feed: String, limit: Int?, realtime: RealtimeOptions?,
        _ body: (StopEvent) throws -> Void
    ) throws

    /// As ``forEachDeparture(from:between:and:feed:limit:realtime:_:)``, for arrivals: without stop times where
    /// alighting is not possible (`drop_off_type` 1) and each trip's first stop.
    /// - Parameters:
    ///   - stopID: a stop, platform or station (`location_type` 1), whose platforms are then included.
    ///   - start: the first instant, included.
    ///   - end: the last instant, excluded.
    ///   - feed: the feed's name.
    ///   - limit: the most arrivals (the earliest), or `nil` for all.
    ///   - realtime: for a realtime board, how old a prediction may be; `nil` for the timetable alone.
    ///   - body: receives each arrival, inside the read; an error it throws ends the read and is rethrown.
    /// - Throws: as ``forEachDeparture(from:between:and:feed:limit:realtime:_:)``.
    func forEachArrival(
        at stopID: String, between start: Date, and end: Date, feed: String, limit: Int?, realtime: RealtimeOptions?,
        _ body: (StopEvent) throws -> Void
    ) throws

    /// Calls `body` with each departure of the whole network in `[start, end)`, in time order (then trip,
    /// stop sequence, service date), as they are read: memory stays bounded however many there are. As on
    /// a stop's board, trips of earlier service dates still running (however late their times), the runs
    /// of `frequencies.txt` trips and the days the clocks change are on it; stop times without boarding
    /// and each trip's last stop are not. The store reads it from an index of departure times, one range
    /// per service date that can reach the window: its cost grows with the window's departures, not with
    /// the feed.
    /// - Parameters:
    ///   - start: the first instant, included.
    ///   - end: the last instant, excluded.
    ///   - feed: the feed's name.
    ///   - limit: the most departures (the earliest), or `nil` for all.
    ///   - body: receives each departure, inside the read; an error it throws ends the read and is rethrown.
    /// - Throws: ``StoreError/unknownFeed(name:feeds:)`` for a feed the store does not hold, the store's
    ///   error, or what `body` throws.
    func forEachDeparture(between start: Date, and end: Date, feed: String, limit: Int?, _ body: (StopEvent) throws -> Void) throws

    /// The stop `id`, or `nil` when the feed has none.
    func stop(_ id: String, feed: String) throws -> Stop?

    /// The stops whose `parent_station` is `station` (its platforms, entrances and nodes), by `stop_id`; also
    /// when the feed does not list the station itself.
    func stops(inStation station: String, feed: String) throws -> [Stop]

    /// The stops within `meters` of a point, nearest first (ties by `stop_id`), across the antimeridian
    /// too; empty for an invalid point or an unknown feed.
    /// - Parameters:
    ///   - latitude: the point's latitude, in degrees.
    ///   - longitude: the point's longitude, in degrees.
    ///   - meters: the largest distance.
    ///   - feed: the feed's name.
    ///   - limit: the most stops (the nearest), or `nil` for all.
    func stops(near latitude: Double, _ longitude: Double, within meters: Double, feed: String, limit: Int?) throws -> [NearbyStop]

    /// The stops whose name has every word of `text` as a word's beginning, without case and diacritics:
    /// stations first, then stops without a parent station, then the rest; shorter names before longer
    /// ones; ties by `stop_id`. At most ``FeedStoreLimits/maxNameWords`` words (``StoreError/tooManyWords(count:limit:)``).
    /// - Parameters:
    ///   - text: the words; letters and digits count, everything else separates words.
    ///   - feed: the feed's name.
    ///   - limit: the most stops (the best matches).
    func stops(named text: String, feed: String, limit: Int) throws -> [Stop]

    /// How many stops ``stops(named:feed:limit:)`` finds without a limit: what a search cut at its limit
    /// leaves out. 0 for a text without words or an unknown feed.
    func countStops(named text: String, feed: String) throws -> Int

    /// The trip `id` with its stop times in `stop_sequence` order; `nil` when the feed has no such trip.
    func trip(_ id: String, feed: String) throws -> TripTimetable?

    /// The services that run on `date` (from `calendar` and `calendar_dates`), sorted.
    func services(on date: GTFSDate, feed: String) throws -> [GTFSID]

    /// The first and the last date on which some service of the feed runs; `nil` for an unknown feed or one
    /// whose services never run.
    func serviceDates(feed: String) throws -> ClosedRange<GTFSDate>?

    /// The feed's time zone (its agency's), in which its times count; `nil` for an unknown feed or zone.
    func timeZone(feed: String) throws -> TimeZone?

    /// Applies a GTFS-Realtime message from `source` to the feed named `feed`, in one transaction that
    /// writes only what differs from the source's previous message (nothing for the same message again);
    /// readers meanwhile see the state before it, whole.
    /// - Parameters:
    ///   - message: the message; its entities are read one at a time.
    ///   - source: where it came from (a file or a URL without secrets): each source's state is its own.
    ///   - feed: the static feed the message is about, which the store must hold.
    ///   - options: trip updates older than `maxAge` at `now` make no predictions.
    /// - Throws: ``RealtimeError`` (an unknown feed, a `DIFFERENTIAL` message), an error of the message's
    ///   bytes, or the store's error; the store is then as it was.
    func applyRealtime(_ message: any RealtimeEntitySource, source: String, feed: String, options: RealtimeOptions) throws -> RealtimeSummary

    /// The alerts in force at `instant` that inform one of `stops` (on any route, or one of `routes`), one
    /// of `routes` anywhere, or one of `trips`: what a board of those shows.
    func alerts(feed: String, stops: [String], routes: [String], trips: [String], at instant: Date) throws -> [RealtimeAlert]

    /// The positions of vehicles measured within `options.maxAge` of `options.now` (or not saying when):
    /// within `meters` of a point, nearest first, when `near` is given; of a route when `route` is given.
    func vehicles(
        feed: String, near: (latitude: Double, longitude: Double, meters: Double)?, route: String?, options: RealtimeOptions
    ) throws -> [RealtimeVehicle]
}

/// One import a store has prepared (``FeedStore/makeImport(from:options:reporter:)``): run once, on a
/// thread that may block, and cancellable from any other.
public protocol FeedImport: AnyObject, Sendable {
    /// Runs the import to its end.
    /// - Returns: the summary of a completed import.
    /// - Throws: ``ImportError``; in an atomic import the store is then as it was.
    func run() throws(ImportError) -> ImportSummary

    /// Stops the import as soon as it can; it then throws ``ImportError/cancelled(stoppedAt:)``. Returns at once.
    func cancel()
}

extension FeedStore {
    /// The departures from a stop between two instants, in time order: at most `limit`, the earliest (see
    /// ``forEachDeparture(from:between:and:feed:limit:realtime:_:)``).
    ///
    /// ```swift
    /// let now = Date()
    /// for departure in try store.departures(from: "de:11000:900100003", between: now, and: now + 3600) {
    ///     print(departure.departure!, departure.routeShortName ?? "", departure.headsign ?? "")
    /// }
    /// ```
    /// - Returns: the departures; empty when no trip leaves in the window.
    /// - Throws: ``StoreError/unknownFeed(name:feeds:)`` or ``StoreError/unknownStop(id:feed:)`` when the
    ///   store holds no such feed or stop, or the store's error.
    public func departures(
        from stopID: String, between start: Date, and end: Date, feed: String = "default", limit: Int = FeedStoreLimits.boardLimit,
        realtime: RealtimeOptions? = nil
    ) throws -> [StopEvent] {
        var events: [StopEvent] = []
        try forEachDeparture(from: stopID, between: start, and: end, feed: feed, limit: limit, realtime: realtime) { events.append($0) }
        return events
    }

    /// The departures of the whole network between two instants, in time order: at most `limit`, the
    /// earliest (see ``forEachDeparture(between:and:feed:limit:_:)``, which reads them all in bounded memory).
    ///
    /// ```swift
    /// let now = Date()
    /// let leaving = try store.departures(between: now, and: now + 600, limit: 5_000)
    /// ```
    /// - Returns: the departures; empty when no trip leaves in the window.
    /// - Throws: ``StoreError/unknownFeed(name:feeds:)`` when the store holds no such feed, or the store's error.
    public func departures(
        between start: Date, and end: Date, feed: String = "default", limit: Int = FeedStoreLimits.boardLimit
    ) throws -> [StopEvent] {
        var events: [StopEvent] = []
        try forEachDeparture(between: start, and: end, feed: feed, limit: limit) { events.append($0) }
        return events
    }

    /// The arrivals at a stop between two instants, in time order: at most `limit`, the earliest (see
    /// ``forEachArrival(at:between:and:feed:limit:realtime:_:)``).
    /// - Returns: the arrivals; empty when no trip arrives in the window.
    /// - Throws: ``StoreError/unknownFeed(name:feeds:)`` or ``StoreError/unknownStop(id:feed:)`` when the
    ///   store holds no such feed or stop, or the store's error.
    public func arrivals(
        at stopID: String, between start: Date, and end: Date, feed: String = "default", limit: Int = FeedStoreLimits.boardLimit,
        realtime: RealtimeOptions? = nil
    ) throws -> [StopEvent] {
        var events: [StopEvent] = []
        try forEachArrival(at: stopID, between: start, and: end, feed: feed, limit: limit, realtime: realtime) { events.append($0) }
        return events
    }

    /// Imports a feed with `async`/`await`: an ``ImportOperation`` on a thread of its own, cancelled when the
    /// task is.
    ///
    /// - Parameters:
    ///   - source: the feed.
    ///   - options: the feed's name, strictness, limits, and the rest.
    ///   - progressQueue: where `progress` runs; a private serial queue when `nil`.
    ///   - progress: receives throttled progress reports (see ``ImportOperation``).
    /// - Returns: the summary.
    /// - Throws: ``ImportError`` (``ImportError/cancelled(stoppedAt:)`` when the task is cancelled).
    public func importFeed(
        from source: FeedSource, options: ImportOptions = ImportOptions(), progressQueue: DispatchQueue? = nil,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws(ImportError) -> ImportSummary {
        let operation = ImportOperation(source: source, store: self, options: options, progressQueue: progressQueue, progressHandler: progress)
        let result = await operation.runOnThread()
        return try result.get()
    }

    /// Imports a feed on the calling thread, which it blocks until the end.
    /// - Returns: the summary.
    /// - Throws: ``ImportError``.
    public func importFeedSynchronously(from source: FeedSource, options: ImportOptions = ImportOptions()) throws(ImportError) -> ImportSummary {
        let operation = ImportOperation(source: source, store: self, options: options)
        operation.start()
        return try operation.finalResult.get()
    }
}

extension FeedStore {
    /// ``forEachDeparture(from:between:and:feed:limit:realtime:_:)`` of the timetable alone.
    public func forEachDeparture(
        from stopID: String, between start: Date, and end: Date, feed: String, limit: Int?, _ body: (StopEvent) throws -> Void
    ) throws {
        try forEachDeparture(from: stopID, between: start, and: end, feed: feed, limit: limit, realtime: nil, body)
    }

    /// ``forEachArrival(at:between:and:feed:limit:realtime:_:)`` of the timetable alone.
    public func forEachArrival(
        at stopID: String, between start: Date, and end: Date, feed: String, limit: Int?, _ body: (StopEvent) throws -> Void
    ) throws {
        try forEachArrival(at: stopID, between: start, and: end, feed: feed, limit: limit, realtime: nil, body)
    }

    /// The trip `id` as a board's ``StopEvent/tripID`` gives it (as with its text).
    public func trip(_ id: GTFSID, feed: String = "default") throws -> TripTimetable? { try trip(id.description, feed: feed) }

    /// The stop `id` as a board's ``StopEvent/stopID`` gives it (as with its text).
    public func stop(_ id: GTFSID, feed: String = "default") throws -> Stop? { try stop(id.description, feed: feed) }

    /// The departures from the stop `stopID` as a record gives it (as with its text).
    public func departures(
        from stopID: GTFSID, between start: Date, and end: Date, feed: String = "default", limit: Int = FeedStoreLimits.boardLimit
    ) throws -> [StopEvent] {
        try departures(from: stopID.description, between: start, and: end, feed: feed, limit: limit)
    }

    /// The arrivals at the stop `stopID` as a record gives it (as with its text).
    public func arrivals(
        at stopID: GTFSID, between start: Date, and end: Date, feed: String = "default", limit: Int = FeedStoreLimits.boardLimit
    ) throws -> [StopEvent] {
        try arrivals(at: stopID.description, between: start, and: end, feed: feed, limit: limit)
    }
}
