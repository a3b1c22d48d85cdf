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
        guard (-90 ... 90).contains(latitude), (-180 ... 180).contains(longitude), meters >= 0, meters.isFinite else { return [] }
        let latitudeSpan = meters / GeoDistance.metersPerDegree
        let cosine = cos(latitude * .pi / 180)
        // Near a pole a few meters span every longitude.
        let longitudeSpan = cosine > 1e-6 ? min(180, latitudeSpan / cosine) : 180
        let stops: [Stop] = try pool.read { db in
            guard let id = try Self.feedID(db, name: feed) else { return [] }
            var ids: [String] = []
            for (west, east) in Self.longitudeRanges(longitude - longitudeSpan, longitude + longitudeSpan) {
                ids += try String.fetchAll(
                    db,
                    sql: """
                        SELECT stop_id FROM stops_rtree
                        WHERE max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ? AND feed = ?
                        """,
                    arguments: [latitude - latitudeSpan, latitude + latitudeSpan, west, east, id])
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
        var nearby = stops.compactMap { stop -> NearbyStop? in
            guard let stopLatitude = stop.latitude, let stopLongitude = stop.longitude else { return nil }
            let distance = GeoDistance.meters(latitude, longitude, stopLatitude, stopLongitude)
            return distance <= meters ? NearbyStop(stop: stop, distance: distance) : nil
        }
        nearby.sort { ($0.distance, $0.stop.stopID.description) < ($1.distance, $1.stop.stopID.description) }
        if let limit, nearby.count > limit { nearby.removeLast(nearby.count - max(0, limit)) }
        return nearby
    }

    /// The longitudes from `west` to `east` as ranges within -180…180: one, or two when the span crosses
    /// the antimeridian (a stop at 179.999° is 100 m from one at -179.999°).
    static func longitudeRanges(_ west: Double, _ east: Double) -> [(Double, Double)] {
        if east - west >= 360 { return [(-180, 180)] }
        if west < -180 { return [(-180, east), (west + 360, 180)] }
        if east > 180 { return [(west, 180), (-180, east - 360)] }
        return [(west, east)]
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
    /// - Throws: ``/GTFSStoreCore/StoreError/tooManyWords(count:limit:)`` for more than ``maxNameWords`` words;
    ///   `DatabaseError`.
    public func stops(named text: String, feed: String = "default", limit: Int = 20) throws -> [Stop] {
        let words = Self.nameWords(text)
        if words.count > Self.maxNameWords { throw StoreError.tooManyWords(count: words.count, limit: Self.maxNameWords) }
        guard let match = Self.namePattern(words), limit > 0 else { return [] }
        return try pool.read { db in
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

    /// The feed's time zone (its agency's), in which its times count; `nil` for an unknown feed or zone.
    /// - Parameter feed: the feed's name.
    /// - Returns: the zone, or `nil`.
    /// - Throws: `DatabaseError`.
    public func timeZone(feed: String = "default") throws -> TimeZone? {
        try pool.read { db in
            guard let id = try Self.feedID(db, name: feed), let name = try ServiceDays.zoneName(db, feed: id) else { return nil }
            return TimeZone(identifier: name)
        }
    }

    /// The most words ``stops(named:feed:limit:)`` looks for: 32 (a stop's name rarely has 10).
    public static let maxNameWords = 32

    /// The words of `text` as the name index's tokenizer splits them: letters and digits; the rest separates.
    static func nameWords(_ text: String) -> [Substring] {
        text.split { !($0.isLetter || $0.isNumber) }
    }

    /// An FTS5 query for `words`: each word a prefix, all required; `nil` without a word.
    static func namePattern(_ words: [Substring]) -> String? {
        guard !words.isEmpty else { return nil }
        return words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }.joined(separator: " ")
    }
}
