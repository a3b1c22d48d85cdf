public import Foundation
public import GTFS

extension PostgresStore {
    /// The stop `id`; `nil` when the feed has none.
    /// - Parameters:
    ///   - id: the stop's `stop_id`.
    ///   - feed: the feed's name.
    /// - Returns: the stop, or `nil`.
    /// - Throws: ``PostgresError``.
    public func stop(_ id: String, feed: String = "default") throws -> Stop? {
        try read { reading in
            guard let number = try reading.feed(named: feed) else { return nil }
            return try reading.records(Stop.self, feed: number, where: "stop_id = $1", [.text(id)]).first
        }
    }

    /// The stops whose `parent_station` is `station` (its platforms, entrances and nodes), by `stop_id`; also
    /// when the feed does not list the station itself.
    /// - Parameters:
    ///   - station: the station's `stop_id`.
    ///   - feed: the feed's name.
    /// - Returns: the stops; empty for an unknown feed or a stop without any.
    /// - Throws: ``PostgresError``.
    public func stops(inStation station: String, feed: String = "default") throws -> [Stop] {
        try read { reading in
            guard let number = try reading.feed(named: feed) else { return [] }
            return try reading.records(Stop.self, feed: number, where: "parent_station = $1", [.text(station)], order: "stop_id")
        }
    }

    /// The stops within `meters` of a point, nearest first (ties by `stop_id`), across the antimeridian too,
    /// found through the index of the stops' latitudes.
    /// - Parameters:
    ///   - latitude: the point's latitude, in degrees.
    ///   - longitude: the point's longitude, in degrees.
    ///   - meters: the largest distance.
    ///   - feed: the feed's name.
    ///   - limit: the most stops returned (the nearest).
    /// - Returns: the stops with their distance; empty for an unknown feed or an invalid point.
    /// - Throws: ``PostgresError``.
    public func stops(
        near latitude: Double, _ longitude: Double, within meters: Double, feed: String = "default", limit: Int? = nil
    ) throws -> [NearbyStop] {
        guard let box = NearbyStops(latitude: latitude, longitude: longitude, meters: meters) else { return [] }
        let candidates = try read { reading -> [Stop] in
            guard let number = try reading.feed(named: feed) else { return [] }
            let ranges = box.longitudes.enumerated().map { index, _ in
                "stop_lon BETWEEN $\(3 + 2 * index) AND $\(4 + 2 * index)"
            }
            let bounds = [box.latitudes.lowerBound, box.latitudes.upperBound] + box.longitudes.flatMap { [$0.lowerBound, $0.upperBound] }
            return try reading.records(
                Stop.self, feed: number,
                where: "stop_lat BETWEEN $1 AND $2 AND (\(ranges.joined(separator: " OR ")))",
                bounds.map { .text(String($0)) })
        }
        return box.ranked(candidates, limit: limit)
    }

    /// The stops whose name has every word of `text` as a word's beginning, without case and diacritics,
    /// in `FeedStore.stops(named:feed:limit:)`'s order, found through the table of the
    /// names' words (`stop_name_words`).
    /// - Parameters:
    ///   - text: the words to look for; letters and digits count, everything else separates words.
    ///   - feed: the feed's name.
    ///   - limit: the most stops returned (the best matches); default 20.
    /// - Returns: the stops; empty when `text` has no word, or for an unknown feed.
    /// - Throws: `StoreError.tooManyWords(count:limit:)` for more than
    ///   `FeedStoreLimits.maxNameWords` words; ``PostgresError``.
    public func stops(named text: String, feed: String = "default", limit: Int = 20) throws -> [Stop] {
        let words = try StopNames.searchWords(text).map { StopNames.folded($0) }
        guard !words.isEmpty, limit > 0 else { return [] }
        return try read { reading -> [Stop] in
            guard let number = try reading.feed(named: feed) else { return [] }
            try PostgresNameSearch.requireTable(reading)
            let (sql, arguments) = PostgresNameSearch.search(words, feed: number, limit: limit)
            let ranked = try reading.query(sql, arguments, "search the stops' names").compactMap { $0.first ?? nil }
            guard !ranked.isEmpty else { return [] }
            let stops = try reading.records(Stop.self, feed: number, where: "stop_id = ANY($1::text[])", [.text(PostgresConnection.arrayLiteral(ranked))])
            let order = Dictionary(ranked.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            return stops.sorted { (order[$0.stopID.description] ?? 0) < (order[$1.stopID.description] ?? 0) }
        }
    }

    /// How many stops ``stops(named:feed:limit:)`` finds without a limit (0 for a text without words or an
    /// unknown feed).
    /// - Parameters:
    ///   - text: the words to look for.
    ///   - feed: the feed's name.
    /// - Throws: `StoreError.tooManyWords(count:limit:)`; ``PostgresError``.
    public func countStops(named text: String, feed: String = "default") throws -> Int {
        let words = try StopNames.searchWords(text).map { StopNames.folded($0) }
        guard !words.isEmpty else { return 0 }
        return try read { reading -> Int in
            guard let number = try reading.feed(named: feed) else { return 0 }
            try PostgresNameSearch.requireTable(reading)
            let (sql, arguments) = PostgresNameSearch.search(words, feed: number, limit: nil)
            let rows = try reading.query("SELECT count(*) FROM (\(sql)) found", arguments, "count the stops' names")
            return rows.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
        }
    }

    /// The trip `id` with its stop times in `stop_sequence` order; `nil` when the feed has no such trip.
    /// - Parameters:
    ///   - id: the trip's `trip_id`.
    ///   - feed: the feed's name.
    /// - Returns: the trip and its stop times, or `nil`.
    /// - Throws: ``PostgresError``.
    public func trip(_ id: String, feed: String = "default") throws -> TripTimetable? {
        try read { reading in
            guard let number = try reading.feed(named: feed),
                let trip = try reading.records(Trip.self, feed: number, where: "trip_id = $1", [.text(id)]).first
            else { return nil }
            let stopTimes = try reading.records(StopTime.self, feed: number, where: "trip_id = $1", [.text(id)], order: "stop_sequence")
            return TripTimetable(trip: trip, stopTimes: stopTimes)
        }
    }

    /// The services that run on `date` (from `calendar` and `calendar_dates`), sorted.
    /// - Parameters:
    ///   - date: the service date.
    ///   - feed: the feed's name.
    /// - Returns: the `service_id`s; empty for an unknown feed or a date without service.
    /// - Throws: ``PostgresError``.
    public func services(on date: GTFSDate, feed: String = "default") throws -> [GTFSID] {
        try read { reading in
            guard let number = try reading.feed(named: feed) else { return [] }
            return try reading.query(
                "SELECT service_id FROM service_days WHERE feed = $1 AND date = to_date($2, 'YYYYMMDD') ORDER BY service_id",
                [.integer(Int64(number)), .text(date.description)], "read the services of \(date)"
            ).compactMap { $0.first.flatMap { $0 }.map { GTFSID($0) } }
        }
    }

    /// The first and the last date on which some service of the feed runs; `nil` for an unknown feed or one
    /// whose services never run.
    /// - Throws: ``PostgresError``.
    public func serviceDates(feed: String = "default") throws -> ClosedRange<GTFSDate>? {
        try read { reading in
            guard let number = try reading.feed(named: feed) else { return nil }
            let row = try reading.query(
                "SELECT to_char(min(date), 'YYYYMMDD'), to_char(max(date), 'YYYYMMDD') FROM feed_days WHERE feed = $1",
                [.integer(Int64(number))], "read the service dates").first
            guard let first = row?[0].flatMap({ GTFSDate($0) }), let last = row?[1].flatMap({ GTFSDate($0) }) else { return nil }
            return first ... last
        }
    }

    /// The feed's time zone (its agency's), in which its times count; `nil` for an unknown feed or zone.
    /// - Parameter feed: the feed's name.
    /// - Returns: the zone, or `nil`.
    /// - Throws: ``PostgresError``.
    public func timeZone(feed: String = "default") throws -> TimeZone? {
        try read { reading in
            guard let number = try reading.feed(named: feed) else { return nil }
            let rows = try reading.query(FeedClock.zoneSQL(.postgres), [.integer(Int64(number))], "read the time zone")
            return rows.first?.first.flatMap { $0 }.flatMap { TimeZone(identifier: $0) }
        }
    }
}
