import GRDB
import GTFS
import GTFSStoreCore

/// Fills `frequency_runs` for one feed, every run of every trip of `frequencies.txt`, and
/// `frequency_departures`, every stop time of each run.
package enum FrequencyRuns {
    /// The most runs one row of `frequencies.txt` gives (``TimetablePart/maxRunsPerFrequency``).
    static let maxRunsPerRow = TimetablePart.maxRunsPerFrequency

    /// Expands each frequency row into its runs: `start_time`, then every `headway_secs`, before
    /// `end_time`, each moving the trip's stop times by its start minus the trip's first departure.
    /// - Returns: warnings for rows that give no runs (a headway below one second) or too many.
    static func build(_ db: Database, feed: Int64) throws -> [GTFSWarning] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT f.trip_id, f.start_time, f.end_time, f.headway_secs, ifnull(f.exact_times, 0),
                    (SELECT ifnull(st.departure_time, st.arrival_time) FROM stop_times st
                     WHERE st.trip_id = f.trip_id AND st.feed = f.feed ORDER BY st.stop_sequence LIMIT 1)
                FROM frequencies f WHERE f.feed = ? ORDER BY f.trip_id, f.start_time
                """, arguments: [feed])
        let insert = try db.makeStatement(
            sql: "INSERT OR IGNORE INTO frequency_runs (feed, trip_id, run_start, shift, exact_times) VALUES (?, ?, ?, ?, ?)")
        var warnings: [GTFSWarning] = []
        for row in rows {
            guard let trip = row[0] as String?, let start = row[1] as Int?, let end = row[2] as Int?, let headway = row[3] as Int?,
                let first = row[5] as Int?
            else { continue }
            guard headway >= 1 else {
                warnings.append(
                    GTFSError(.invalidValue, file: GTFSFile.frequencies.fileName, column: "headway_secs", text: String(headway),
                        message: "of trip \(trip) gives no runs"))
                continue
            }
            let exactTimes: Int = row[4] ?? 0
            var runStart = start
            var runs = 0
            while runStart < end {
                guard runs < maxRunsPerRow else {
                    warnings.append(
                        GTFSError(.invalidValue, file: GTFSFile.frequencies.fileName, column: "headway_secs", text: String(headway),
                            message: "of trip \(trip) gives more than \(maxRunsPerRow) runs; the first \(maxRunsPerRow) are kept"))
                    break
                }
                try insert.execute(arguments: [feed, trip, runStart, runStart - first, exactTimes])
                runStart += headway
                runs += 1
            }
        }
        try db.execute(sql: TimetableViews.fillFrequencyDepartures(SchemaV7.dialect, feed: "?"), arguments: [feed])
        return warnings
    }
}
