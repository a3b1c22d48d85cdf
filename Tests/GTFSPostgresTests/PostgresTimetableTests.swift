import Foundation
import GRDB
import GTFS
import GTFSImport
@testable import GTFSPostgres
import TestSupport
import Testing

@Suite("PostgreSQL store: the timetable", .serialized)
struct PostgresTimetableTests {
    /// Service on weekdays and weekends around the spring clock change (30 March 2025 in Berlin), a date
    /// added and one removed, a trip past midnight, a frequency-based trip with a short name, a trip
    /// whose headsign is only its first stop's.
    static func feed(zone: String) -> [String: String] {
        [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA1,Agency,https://a.example,\(zone)\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\nB,Beta,52.6,13.5\nC,Gamma,52.7,13.6\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A1,1,3\n",
            "trips.txt": "route_id,service_id,trip_id,trip_headsign,trip_short_name\nR1,S1,T1,Gamma,\nR1,S2,T2,,\nR1,S1,F1,Beta,177\n",
            "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign
                T1,23:50:00,23:51:00,A,1,
                T1,24:20:00,24:21:00,B,2,
                T1,25:05:00,25:05:00,C,3,
                T2,01:30:00,01:30:00,C,1,Beta only
                T2,02:30:00,02:30:00,B,5,
                T2,03:30:00,03:30:00,A,9,
                F1,06:00:00,06:00:00,A,1,
                F1,06:10:00,06:10:00,B,2,

                """,
            "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                S1,1,1,1,1,1,1,1,20250327,20250402
                S2,0,0,0,0,0,1,1,20250301,20250331

                """,
            "calendar_dates.txt": "service_id,date,exception_type\nS1,20250329,2\nS2,20250401,1\n",
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\nF1,06:00:00,07:00:00,1200,1\n",
        ]
    }

    /// The same query result from both stores: rows of text, sorted.
    static func rows(sqlite: GTFSStore, _ sql: String) throws -> [String] {
        try sqlite.pool.read { db in
            try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map { $0.isNull ? "∅" : "\($0.storage.value ?? "")" }.joined(separator: "|") }
        }.sorted()
    }

    static func rows(postgres: PostgresStore, _ sql: String) throws -> [String] {
        try postgres.connection.query(sql, [], "read").map { $0.map { $0 ?? "∅" }.joined(separator: "|") }.sorted()
    }

    @Test("service_days, feed_days, frequency_runs and the views hold what the SQLite store's hold", arguments: ["Europe/Berlin", "Mars/Olympus"])
    func sameAsSQLite(zone: String) throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let path = try PostgresFailureTests.feed(Self.feed(zone: zone), in: folder, named: "f")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        let summary = try store.importFeed(from: try FeedSource(path: path), named: "default")
        let sqlite = try GTFSStore(path: folder.file("s.sqlite"))
        defer { try? sqlite.close() }
        let expected = try sqlite.importFeedSynchronously(from: try FeedSource(path: path))
        #expect(summary.warnings.map(\.description) == expected.warnings.map(\.description))
        if zone.hasPrefix("Mars") { #expect(summary.warnings.count == 1) }

        let pairs: [(sqlite: String, postgres: String)] = [
            ("SELECT date, service_id FROM service_days", "SELECT to_char(date, 'YYYYMMDD'), service_id FROM gtfs.service_days"),
            ("SELECT date, day_start FROM feed_days", "SELECT to_char(date, 'YYYYMMDD'), day_start FROM gtfs.feed_days"),
            ("SELECT trip_id, run_start, shift, exact_times FROM frequency_runs", "SELECT trip_id, run_start, shift, exact_times FROM gtfs.frequency_runs"),
            (
                """
                SELECT date, trip_id, stop_sequence, stop_id, arrival, departure, arrival_local, departure_local, route_id, headsign,
                    stop_name, is_first_stop, is_last_stop, run_shift, exact_times FROM arrivals_departures
                """,
                """
                SELECT to_char(date, 'YYYYMMDD'), trip_id, stop_sequence, stop_id, arrival, departure, arrival_local, departure_local, route_id,
                    headsign, stop_name, is_first_stop::int, is_last_stop::int, run_shift, exact_times FROM gtfs.arrivals_departures
                """
            ),
            (
                """
                SELECT date, trip_id, from_stop_id, from_stop_sequence, departure, departure_local, to_stop_id, to_stop_sequence, arrival,
                    arrival_local, headsign, run_shift FROM connections
                """,
                """
                SELECT to_char(date, 'YYYYMMDD'), trip_id, from_stop_id, from_stop_sequence, departure, departure_local, to_stop_id,
                    to_stop_sequence, arrival, arrival_local, headsign, run_shift FROM gtfs.connections
                """
            ),
            (
                "SELECT trip_id, stop_sequence, arrival_time, departure_time FROM stop_times_readable",
                "SELECT trip_id, stop_sequence, arrival_time, departure_time FROM gtfs.stop_times_readable"
            ),
        ]
        for (lite, postgres) in pairs {
            let want = try Self.rows(sqlite: sqlite, lite)
            #expect(!want.isEmpty, "\(lite)")
            #expect(try Self.rows(postgres: store, postgres) == want, "\(postgres)")
        }
    }

    @Test("A re-import rebuilds the parts whose files changed; remove deletes the feed's timetable")
    func rebuilt() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        var files = Self.feed(zone: "Europe/Berlin")
        let path = try PostgresFailureTests.feed(files, in: folder, named: "f")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        _ = try store.importFeed(from: try FeedSource(path: path), named: "f")
        files["calendar_dates.txt"] = "service_id,date,exception_type\nS1,20250329,2\nS2,20250401,1\nS2,20250402,1\n"
        try files["calendar_dates.txt"]?.write(toFile: path + "/calendar_dates.txt", atomically: true, encoding: .utf8)
        _ = try store.importFeed(from: try FeedSource(path: path), named: "f")
        let days = try Self.rows(postgres: store, "SELECT to_char(date, 'MMDD') FROM gtfs.service_days WHERE service_id = 'S2' AND date > '2025-03-31'")
        #expect(days == ["0401", "0402"])
        #expect(try store.removeFeed(named: "f", lockWait: nil) != nil)
        for table in ["service_days", "feed_days", "feed_time_zones", "frequency_runs"] {
            #expect(try Self.rows(postgres: store, "SELECT count(*) FROM gtfs.\(table)") == ["0"], "\(table)")
        }
    }
}
