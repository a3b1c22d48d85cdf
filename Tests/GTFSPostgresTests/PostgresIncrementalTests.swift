import Foundation
import GTFS
import GTFSImport
@testable import GTFSPostgres
import TestSupport
import Testing

@Suite("PostgreSQL store: incremental re-imports", .serialized)
struct PostgresIncrementalTests {
    static let version1: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA1,Agency,https://a.example,Europe/Berlin\n",
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\nB,Beta,52.6,13.5\nC,Gamma,52.7,13.6\nD,Delta,52.8,13.7\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A1,1,3\nR2,A1,2,3\n",
        "trips.txt": "route_id,service_id,trip_id\nR1,S1,T1\nR1,S1,T2\nR2,S1,T3\nR2,S1,T4\n",
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,A,1
            T1,08:05:00,08:05:00,B,2
            T1,08:10:00,08:10:00,C,3
            T2,09:00:00,09:00:00,A,1
            T2,09:05:00,09:05:00,B,2
            T3,10:00:00,10:00:00,C,1
            T3,10:05:00,10:05:00,D,2
            T4,11:00:00,11:00:00,D,1
            T4,11:05:00,11:05:00,A,2

            """,
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS1,1,1,1,1,1,0,0,20250101,20251231\n",
        "transfers.txt": "from_stop_id,to_stop_id,transfer_type\nA,B,2\nB,C,0\n",
        "feed_info.txt": "feed_publisher_name,feed_publisher_url,feed_lang,feed_version\nP,https://p.example,de,1\n",
    ]

    /// Every kind of change: rows inserted, updated and deleted, a file unchanged, a file gone and one new,
    /// a key repeated, a table without a key changed, a key with empty parts.
    static var version2: [String: String] {
        var files = version1
        files["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\nB,Beta Nord,52.6,13.5\nC,Gamma,52.7,13.6\nE,Epsilon,52.9,13.8\n"
        files["trips.txt"] = "route_id,service_id,trip_id\nR1,S1,T1\nR1,S1,T2\nR2,S1,T3\nR2,S2,T5\n"
        files["stop_times.txt"] = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,A,1
            T1,08:06:00,08:06:00,B,2
            T1,08:10:00,08:10:00,C,3
            T2,09:00:00,09:00:00,A,1
            T2,09:05:00,09:05:00,B,2
            T3,10:05:00,10:05:00,D,2
            T3,10:00:00,10:00:00,C,1
            T5,12:00:00,12:00:00,E,1
            T5,12:05:00,12:05:00,A,2
            T5,12:09:00,12:09:00,B,2

            """
        files["calendar.txt"] = nil
        files["calendar_dates.txt"] = "service_id,date,exception_type\nS2,20250601,1\nS2,20250602,1\n"
        files["transfers.txt"] = "from_stop_id,to_stop_id,transfer_type\nA,B,1\nB,C,0\nC,E,2\n"
        files["feed_info.txt"] = "feed_publisher_name,feed_publisher_url,feed_lang,feed_version\nP,https://p.example,de,2\n"
        return files
    }

    /// What a summary says of each file, to compare two stores' summaries.
    static func outline(_ summary: ImportSummary) -> [String] {
        summary.tables.map { table in
            "\(table.fileName) \(table.isUnchangedFile ? "same " : "")read \(table.rowsRead) stored \(table.rowsStored) "
                + "rejected \(table.rowsRejected) \(table.changes)"
        }
    }

    /// The SQLite store's import of `old`, then of `new`, into a new file in `folder`.
    /// - Returns: the store, and the summary of the second import.
    static func sqliteUpdate(from old: String, to new: String, in folder: TemporaryFolder) throws -> (GTFSStore, ImportSummary) {
        let sqlite = try GTFSStore(path: folder.file("s.sqlite"))
        _ = try sqlite.importFeedSynchronously(from: try FeedSource(path: old))
        return (sqlite, try sqlite.importFeedSynchronously(from: try FeedSource(path: new)))
    }

    @Test("A new version: the same counts as the SQLite store's diff, and the same rows as a fresh import")
    func sameAsFreshImport() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let old = try PostgresFailureTests.feed(Self.version1, in: folder, named: "v1")
        let new = try PostgresFailureTests.feed(Self.version2, in: folder, named: "v2")

        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        _ = try store.importFeed(from: try FeedSource(path: old), named: "f")
        let incremental = try store.importFeed(from: try FeedSource(path: new), named: "f")
        _ = try store.importFeed(from: try FeedSource(path: new), named: "fresh")

        let (sqlite, expected) = try Self.sqliteUpdate(from: old, to: new, in: folder)
        defer { try? sqlite.close() }

        #expect(incremental.kind == .incremental && expected.kind == .incremental)
        #expect(Self.outline(incremental) == Self.outline(expected))
        #expect(incremental.changes == expected.changes)
        #expect(incremental.changes == TableChanges(inserted: 8, updated: 3, deleted: 6, unchanged: 15), "\(incremental.changes)")
        #expect(incremental.table(.stopTimes)?.errors.map(\.description) == [
            #"stop_times.txt: (trip_id, stop_sequence) = ("T5", "2") repeats an earlier row; rejected"#
        ])

        // Row for row, the feed updated in place equals the feed imported afresh.
        let feeds = try store.feeds()
        for file in GTFSFile.allCases {
            let columns = PostgresTable(file).description.fields.map { "\($0.name)::text" }.joined(separator: ", ")
            let rows = { (name: String) throws -> [[String?]] in
                try store.connection.query(
                    "SELECT \(columns) FROM gtfs.\(file.rawValue) t JOIN gtfs.feeds f USING (feed) WHERE f.name = $1 ORDER BY \(columns)",
                    [name], "read \(file.rawValue)")
            }
            #expect(try rows("f") == rows("fresh"), "\(file.rawValue)")
        }
        #expect(feeds.first { $0.name == "f" }?.contentHash == feeds.first { $0.name == "fresh" }?.contentHash)
        #expect(feeds.first { $0.name == "f" }?.contentHash == (try sqlite.feeds().first?.contentHash))
    }

    @Test("--full replaces the feed: every row deleted and inserted, the same rows as before")
    func full() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let old = try PostgresFailureTests.feed(Self.version1, in: folder, named: "v1")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        _ = try store.importFeed(from: try FeedSource(path: old), named: "f")
        var options = ImportOptions()
        options.feed = "f"
        options.update = .full
        let summary = try store.importFeedSynchronously(from: try FeedSource(path: old), options: options)
        #expect(summary.kind == .full)
        #expect(summary.changes == TableChanges(inserted: 24, deleted: 24))
        #expect(try store.rowCounts(feed: "f")[.stopTimes] == 9)
    }

    @Test("A schema that holds other tables is refused, and nothing is created in it")
    func foreignSchema() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let path = try PostgresFailureTests.feed(["stops.txt": PostgresFailureTests.stops], in: folder, named: "f")
        let store = try PostgresStore(connectionString: server.connectionString, schema: "public")
        defer { store.close() }
        try store.connection.execute("CREATE TABLE public.customers (id integer)", "create")
        let error = #expect(throws: ImportError.self) { try store.importFeed(from: try FeedSource(path: path), named: "f") }
        #expect(error?.description.contains("schema public: holds 1 table of something else (no feeds table); give another --schema") == true)
        let tables = try store.connection.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'", [], "read")
        #expect(tables == [["customers"]])
    }

    @Test("An import waits for another of the same schema; with lockWait zero it fails at once")
    func busy() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let path = try PostgresFailureTests.feed(["stops.txt": PostgresFailureTests.stops], in: folder, named: "f")
        let holder = try PostgresStore(connectionString: server.connectionString)
        defer { holder.close() }
        try holder.connection.execute("BEGIN", "begin")
        _ = try holder.connection.query("SELECT pg_advisory_xact_lock(hashtext('gtfs-import:gtfs'))", [], "lock")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        var options = ImportOptions()
        options.lockWait = .zero
        let error = #expect(throws: ImportError.self) { try store.importFeedSynchronously(from: try FeedSource(path: path), options: options) }
        if case .busy = error {} else { Issue.record("expected busy, got \(String(describing: error))") }
        try holder.connection.execute("ROLLBACK", "roll back")
        #expect(try store.importFeedSynchronously(from: try FeedSource(path: path), options: options).table(.stops)?.rowsStored == 2)
        // A wait longer than lock_timeout can say (24.8 days) is no limit, not a crash.
        options.lockWait = .seconds(Int64.max)
        #expect(try store.importFeedSynchronously(from: try FeedSource(path: path), options: options).changedNothing)
    }
}

@Suite("PostgreSQL store: group digests", .serialized)
struct PostgresGroupTests {
    /// 40 trips of 3 stops; `edit` changes the text of the rows.
    static func stopTimes(trips: some Sequence<Int>, edit: (Int, Int, String) -> String? = { _, _, row in row }) -> String {
        var text = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for trip in trips {
            for stop in 1 ... 3 {
                let row = "T\(trip),08:0\(stop):00,08:0\(stop):30,S\(stop),\(stop)"
                if let row = edit(trip, stop, row) { text += row + "\n" }
            }
        }
        return text
    }

    @Test("Only the groups that differ are merged: counts as in SQLite, rows as a fresh import, digests kept")
    func changedGroupsOnly() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let old = try PostgresFailureTests.feed(["stop_times.txt": Self.stopTimes(trips: 1 ... 40)], in: folder, named: "v1")
        // Trip 5 changes a time, trip 6 loses a stop and repeats one, trip 7 is gone, trip 41 is new.
        let newText = Self.stopTimes(trips: Array(1 ... 6) + Array(8 ... 41)) { trip, stop, row in
            if trip == 5 && stop == 2 { return "T5,08:02:00,08:02:45,S2,2" }
            if trip == 6 && stop == 3 { return "T6,08:09:00,08:09:00,S9,2" }
            return row
        }
        let new = try PostgresFailureTests.feed(["stop_times.txt": newText], in: folder, named: "v2")

        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        _ = try store.importFeed(from: try FeedSource(path: old), named: "f")
        #expect(try store.connection.query("SELECT count(*), count(digest_a) FROM gtfs.feed_groups", [], "read") == [["40", "40"]])
        // A stored row changed behind the store's back stays as it is: its group's digest is unchanged, so
        // the import does not look at its rows.
        try store.connection.execute("UPDATE gtfs.stop_times SET stop_id = 'X' WHERE trip_id = 'T9' AND stop_sequence = 1", "drift")
        let incremental = try store.importFeed(from: try FeedSource(path: new), named: "f")
        _ = try store.importFeed(from: try FeedSource(path: new), named: "fresh")

        let (sqlite, expected) = try PostgresIncrementalTests.sqliteUpdate(from: old, to: new, in: folder)
        defer { try? sqlite.close() }
        #expect(PostgresIncrementalTests.outline(incremental) == PostgresIncrementalTests.outline(expected))
        #expect(incremental.changes == TableChanges(inserted: 3, updated: 1, deleted: 4, unchanged: 115), "\(incremental.changes)")

        let rows = { (feed: String) throws -> [[String?]] in
            try store.connection.query(
                """
                SELECT trip_id, stop_sequence::text, stop_id, arrival_time::text FROM gtfs.stop_times JOIN gtfs.feeds USING (feed)
                WHERE name = $1 AND NOT (trip_id = 'T9' AND stop_sequence = 1) ORDER BY 1, 2
                """, [feed], "read")
        }
        #expect(try rows("f") == rows("fresh"))
        #expect(try store.connection.query("SELECT stop_id FROM gtfs.stop_times WHERE trip_id = 'T9' AND stop_sequence = 1 AND feed = 1", [], "read") == [["X"]])
        // Trip 6 lost a row to its repeated key: its digest is unknown, so the next import compares its rows.
        let digests = try store.connection.query(
            "SELECT group_key FROM gtfs.feed_groups WHERE feed = 1 AND digest_a IS NULL", [], "read")
        #expect(digests == [["T6"]])
        #expect(try store.connection.query("SELECT count(*) FROM gtfs.feed_groups WHERE feed = 1", [], "read") == [["40"]])
    }
}
