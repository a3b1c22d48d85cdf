import GRDB
import GTFSStoreCore

/// Fills the stop indexes of one feed: `stops_rtree` (coordinates) and `stops_names` (names folded
/// as `StopNames.folded(_:)` says: lower case, without diacritics).
///
/// A `stops_names` row's `rowid` orders the matches of a search: the feed in the bits from 40 up, then
/// the kind of stop in two bits (0 a station, 1 a stop without a parent station, 2 any other), the name's
/// length in characters (at most 255) in eight, and a running number by `stop_id` in the lowest 30. The
/// matches of a feed in `rowid` order are stations before their platforms and shorter names, which
/// hold the words searched for with less else, before longer ones.
enum StopIndex {
    static func build(_ db: Database, feed: Int64) throws {
        // R*Tree ids need only be unique: the feed in the high bits, a running number below.
        try db.execute(
            sql: """
                INSERT INTO stops_rtree (id, min_lat, max_lat, min_lon, max_lon, feed, stop_id)
                SELECT (? << 32) + row_number() OVER (), stop_lat, stop_lat, stop_lon, stop_lon, feed, stop_id
                FROM stops WHERE feed = ? AND stop_lat IS NOT NULL AND stop_lon IS NOT NULL
                """, arguments: [feed, feed])
        // FTS5's unicode61 removes the marks Unicode decomposes, not those inside a letter (`ø`): the
        // index holds names folded by the stores' one rule (in Swift), and searches fold their words alike.
        let insert = try db.makeStatement(sql: "INSERT INTO stops_names (rowid, stop_name, feed, stop_id) VALUES (?, ?, ?, ?)")
        let stops = try Row.fetchCursor(
            db,
            sql: """
                SELECT stop_id, stop_name, CASE WHEN ifnull(location_type, 0) = 1 THEN 0 WHEN parent_station IS NULL THEN 1 ELSE 2 END
                FROM stops WHERE feed = ? AND stop_name IS NOT NULL ORDER BY stop_id
                """, arguments: [feed])
        let first = nameRowids(feed: feed).lowerBound
        var number: Int64 = 0
        while let stop = try stops.next() {
            let (id, name, kind): (String, String, Int64) = (stop[0], stop[1], stop[2])
            number += 1
            let rowid = first + (kind << 38) + (Int64(StopNames.length(name)) << 30) + number
            try insert.execute(arguments: [rowid, StopNames.folded(name), feed, id])
        }
    }

    /// The `rowid`s of `stops_names` that `feed`'s names can have.
    static func nameRowids(feed: Int64) -> ClosedRange<Int64> {
        // Feeds are numbered from 1 as they are added: far below the 2^23 that fit.
        let start = feed << 40
        return start ... start + (1 << 40 - 1)
    }
}
