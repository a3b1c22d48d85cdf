public import Foundation
import GRDB
public import GTFS

extension GTFSStore {
    /// The stop `id`; `nil` when the feed has none.
    ///
    /// - Parameters:
    ///   - id: the stop's `stop_id`.
    ///   - feed: the feed's name.
    /// - Returns: the stop, or `nil`.
    /// - Throws: `DatabaseError`.
    public func stop(_ id: String, feed: String = "default") throws -> Stop? {
        try records(Stop.self, feed: feed, where: "stop_id = ?", arguments: [id]).first
    }

    /// The stops whose `parent_station` is `station` (its platforms, entrances and nodes), by `stop_id`; also
    /// when the feed does not list the station itself.
    /// - Parameters:
    ///   - station: the station's `stop_id`.
    ///   - feed: the feed's name.
    /// - Returns: the stops; empty for an unknown feed or a stop without any.
    /// - Throws: `DatabaseError`.
    public func stops(inStation station: String, feed: String = "default") throws -> [Stop] {
        try records(Stop.self, feed: feed, where: "parent_station = ?", arguments: [station], order: "stop_id")
    }

    /// The stops within `meters` of a point, nearest first, found through the store's R*Tree of stop
    /// coordinates (no scan of every stop).
    ///
    /// ```swift
    /// for nearby in try store.stops(near: 52.5219, 13.4132, within: 300) {
    ///     print(Int(nearby.distance), "m", nearby.stop.stopName ?? "")
    /// }
    /// ```
    /// - Parameters:
    ///   - latitude: the point's latitude, in degrees.
    ///   - longitude: the point's longitude, in degrees.
    ///   - meters: the largest distance.
    ///   - feed: the feed's name.
    ///   - limit: the most stops returned (the nearest).
    /// - Returns: the stops with their distance; empty for an unknown feed or an invalid point.
    /// - Throws: `DatabaseError`.
    public func stops(
        near latitude: Double, _ longitude: Double, within meters: Double, feed: String = "default", limit: Int? = nil
    ) throws -> [NearbyStop] {
        guard let box = NearbyStops(latitude: latitude, longitude: longitude, meters: meters) else { return [] }
        let stops: [Stop] = try read { db in
            guard let id = try Self.feedID(db, name: feed) else { return [] }
            var ids: [String] = []
            for longitudes in box.longitudes {
                ids += try String.fetchAll(
                    db,
                    sql: """
                        SELECT stop_id FROM stops_rtree
                        WHERE max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ? AND feed = ?
                        """,
                    arguments: [box.latitudes.lowerBound, box.latitudes.upperBound, longitudes.lowerBound, longitudes.upperBound, id])
            }
            ids = Array(Set(ids))
            guard !ids.isEmpty else { return [] }
            // In groups, below SQLite's limit on parameters.
            var found: [Stop] = []
            for start in stride(from: 0, to: ids.count, by: 500) {
                let group = Array(ids[start ..< min(ids.count, start + 500)])
                found += try StoredRecords.fetch(
                    Stop.self, db, feed: id, where: "stop_id IN (\(group.map { _ in "?" }.joined(separator: ", ")))",
                    arguments: StatementArguments(group))
            }
            return found
        }
        return box.ranked(stops, limit: limit)
    }

    /// The stops whose name has every word of `text` (as a word's beginning), matched without case and
    /// diacritics through the store's name index: `alexanderpl` finds `S+U Alexanderplatz Bhf (Berlin)`,
    /// `lubeck` finds `Lübeck Hbf`. Stations come first, then stops without a parent station, then the
    /// rest; within each, shorter names (which hold the words with less else) before longer ones.
    ///
    /// ```swift
    /// let stations = try store.stops(named: "Alexanderplatz")
    /// ```
    /// - Parameters:
    ///   - text: the words to look for; letters and digits count, everything else separates words.
    ///   - feed: the feed's name.
    ///   - limit: the most stops returned (the best matches); default 20.
    /// - Returns: the stops; empty when `text` has no word, or for an unknown feed.
    /// - Throws: `StoreError.tooManyWords(count:limit:)` for more than `FeedStoreLimits.maxNameWords` words;
    ///   `DatabaseError`.
    public func stops(named text: String, feed: String = "default", limit: Int = 20) throws -> [Stop] {
        guard let match = Self.namePattern(try StopNames.searchWords(text)), limit > 0 else { return [] }
        return try read { db in
            guard let id = try Self.feedID(db, name: feed) else { return [] }
            // The index's rowids hold the order (see StopIndex): the first matches are the best, and the
            // search reads no more than it returns, however many names share a word.
            let rowids = StopIndex.nameRowids(feed: id)
            let ranked = try String.fetchAll(
                db,
                sql: """
                    SELECT stop_id FROM stops_names
                    WHERE stops_names MATCH ? AND rowid BETWEEN ? AND ?
                    ORDER BY rowid LIMIT ?
                    """, arguments: [match, rowids.lowerBound, rowids.upperBound, limit])
            guard !ranked.isEmpty else { return [] }
            let stops = try StoredRecords.fetch(
                Stop.self, db, feed: id, where: "stop_id IN (\(ranked.map { _ in "?" }.joined(separator: ", ")))",
                arguments: StatementArguments(ranked))
            let order = Dictionary(ranked.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            return stops.sorted { (order[$0.stopID.description] ?? 0) < (order[$1.stopID.description] ?? 0) }
        }
    }

    /// How many stops `stops(named:feed:limit:)` finds without a limit (0 for a text without words or an
    /// unknown feed).
    /// - Parameters:
    ///   - text: the words to look for.
    ///   - feed: the feed's name.
    /// - Throws: `StoreError.tooManyWords(count:limit:)`; `DatabaseError`.
    public func countStops(named text: String, feed: String = "default") throws -> Int {
        guard let match = Self.namePattern(try StopNames.searchWords(text)) else { return 0 }
        return try read { db in
            guard let id = try Self.feedID(db, name: feed) else { return 0 }
            let rowids = StopIndex.nameRowids(feed: id)
            return try Int.fetchOne(
                db, sql: "SELECT count(*) FROM stops_names WHERE stops_names MATCH ? AND rowid BETWEEN ? AND ?",
                arguments: [match, rowids.lowerBound, rowids.upperBound]) ?? 0
        }
    }

    /// The feed's time zone (its agency's), in which its times count; `nil` for an unknown feed or zone.
    /// - Parameter feed: the feed's name.
    /// - Returns: the zone, or `nil`.
    /// - Throws: `DatabaseError`.
    public func timeZone(feed: String = "default") throws -> TimeZone? {
        try read { db in
            guard let id = try Self.feedID(db, name: feed), let name = try ServiceDays.zoneName(db, feed: id) else { return nil }
            return TimeZone(identifier: name)
        }
    }

    /// An FTS5 query for `words`: each word a prefix, all required; `nil` without a word.
    static func namePattern(_ words: [Substring]) -> String? {
        guard !words.isEmpty else { return nil }
        // The index holds names folded (StopIndex); so are the words.
        return words.map { "\"" + StopNames.folded($0).replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }.joined(separator: " ")
    }
}
