import GRDB
import GTFS

/// The tables of a feed's timetable as people read it (see ``SchemaV4``): service days, the instants
/// GTFS times count from, the runs of frequency-based trips, and the stop indexes. They are derived from
/// the feed's GTFS tables and rebuilt, per feed and per part, whenever an import changes the files a part
/// comes from, inside the import's transaction: readers never see them out of step with the rows.
package enum Timetable {
    /// The parts, and the files each is derived from.
    package typealias Part = TimetablePart

    /// The tables a part fills, each with a `feed` column.
    static func tables(of part: Part) -> [String] {
        switch part {
        case .calendar: ["service_days", "feed_days", "feed_utc_offsets"]
        case .frequencies: ["frequency_runs", "frequency_departures"]
        case .stops: ["stops_rtree", "stops_names"]
        }
    }

    /// Rebuilds the parts of `feed` that come from a file in `changed`.
    /// - Returns: warnings about the feed (an unknown time zone, a service clipped to the longest span).
    /// - Throws: `DatabaseError`.
    static func update(_ db: Database, feed: Int64, changed: Set<GTFSFile>) throws -> [GTFSWarning] {
        var warnings: [GTFSWarning] = []
        for part in Part.allCases where !part.sources.isDisjoint(with: changed) {
            try remove(db, feed: feed, parts: [part])
            switch part {
            case .calendar: warnings += try ServiceDays.build(db, feed: feed)
            case .frequencies: warnings += try FrequencyRuns.build(db, feed: feed)
            case .stops: try StopIndex.build(db, feed: feed)
            }
        }
        return warnings
    }

    /// Deletes what the parts hold of `feed` (every part by default: a feed being removed).
    static func remove(_ db: Database, feed: Int64, parts: [Part] = Part.allCases) throws {
        for table in parts.flatMap(tables(of:)) {
            try db.execute(sql: "DELETE FROM \(table) WHERE feed = ?", arguments: [feed])
        }
    }

    /// Whether a migration left the tables empty for a store with feeds (`timetable_stale`).
    static func isStale(_ db: Database) throws -> Bool {
        try String.fetchOne(db, sql: "SELECT value FROM gtfs_meta WHERE key = 'timetable_stale'") != nil
    }

    /// Rebuilds every part of every feed when ``isStale(_:)``.
    static func rebuildIfStale(_ db: Database) throws {
        guard try isStale(db) else { return }
        for feed in try Int64.fetchAll(db, sql: "SELECT feed FROM feeds ORDER BY feed") {
            _ = try update(db, feed: feed, changed: Set(GTFSFile.allCases))
        }
        try db.execute(sql: "DELETE FROM gtfs_meta WHERE key = 'timetable_stale'")
    }
}
