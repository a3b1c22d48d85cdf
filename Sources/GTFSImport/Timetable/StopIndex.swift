import GRDB

/// Fills the stop indexes of one feed: `stops_rtree` (coordinates) and `stops_names` (names, matched
/// without diacritics).
enum StopIndex {
    static func build(_ db: Database, feed: Int64) throws {
        // R*Tree ids need only be unique: the feed in the high bits, a running number below.
        try db.execute(
            sql: """
                INSERT INTO stops_rtree (id, min_lat, max_lat, min_lon, max_lon, feed, stop_id)
                SELECT (? << 32) + row_number() OVER (), stop_lat, stop_lat, stop_lon, stop_lon, feed, stop_id
                FROM stops WHERE feed = ? AND stop_lat IS NOT NULL AND stop_lon IS NOT NULL
                """, arguments: [feed, feed])
        try db.execute(
            sql: """
                INSERT INTO stops_names (stop_name, feed, stop_id)
                SELECT stop_name, feed, stop_id FROM stops WHERE feed = ? AND stop_name IS NOT NULL
                """, arguments: [feed])
    }
}
