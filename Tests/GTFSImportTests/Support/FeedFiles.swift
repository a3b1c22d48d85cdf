import Foundation
import GRDB
import GTFS
import GTFSImport
import TestSupport

/// Feeds written to disk for import tests.
enum FeedFiles {
    /// Writes `files` (name → text) into a new folder inside `folder` and returns its path.
    static func directory(_ files: [String: String], in folder: TemporaryFolder, name: String = "feed") throws -> String {
        let path = folder.file(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (file, text) in files {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path).appendingPathComponent(file))
        }
        return path
    }

    /// A small consistent feed: one agency, `stops` stops, two routes, `trips` trips with `stopsPerTrip`
    /// stop_times each, one service.
    static func feed(stops: Int = 20, trips: Int = 10, stopsPerTrip: Int = 5, namePrefix: String = "Stop") -> [String: String] {
        var files: [String: String] = [:]
        files["agency.txt"] = "agency_id,agency_name,agency_url,agency_timezone\nA,VBB,https://vbb.de,Europe/Berlin\n"
        files["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\n"
            + (0 ..< stops).map { "S\($0),\"\(namePrefix) \($0), Berlin\",52.\(500000 + $0),13.\(400000 + $0)\n" }.joined()
        files["routes.txt"] = "route_id,agency_id,route_short_name,route_type\nR1,A,M4,900\nR2,A,S1,109\n"
        files["calendar.txt"] =
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20250101,20251231\n"
        files["trips.txt"] = "route_id,service_id,trip_id\n" + (0 ..< trips).map { "R\($0 % 2 + 1),WD,T\($0)\n" }.joined()
        var stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        stopTimes.reserveCapacity(trips * stopsPerTrip * 40)
        for trip in 0 ..< trips {
            for sequence in 0 ..< stopsPerTrip {
                let time = GTFSTime(seconds: Int32(6 * 3600 + trip * 60 + sequence * 120)).description
                stopTimes += "T\(trip),\(time),\(time),S\((trip + sequence) % stops),\(sequence + 1)\n"
            }
        }
        files["stop_times.txt"] = stopTimes
        return files
    }

    /// Every row of every GTFS table, sorted, to compare a database before and after a failed import.
    static func snapshot(_ store: GTFSStore) throws -> [String: [String]] {
        try store.pool.read { db in try snapshot(db) }
    }

    /// Every row of every GTFS table, sorted, read on `db`.
    static func snapshot(_ db: Database) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for table in GTFSSchema.tableNames {
            result[table] = try GRDB.Row.fetchAll(db, sql: "SELECT * FROM \(table)").map(\.description).sorted()
        }
        return result
    }
}
