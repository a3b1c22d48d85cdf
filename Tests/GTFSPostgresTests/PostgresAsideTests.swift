import Foundation
import GTFS
@testable import GTFSPostgres
import GTFSStoreCore
import GTFSSynth
import TestSupport
import Testing

/// A full re-import of a schema's only feed is built aside and switched in (`AsideBuild`): the same
/// rows as in place, nothing of the schema lost, readers never failing, and nothing left by a failure.
@Suite("PostgreSQL store: a full re-import built aside", .serialized)
struct PostgresAsideTests {
    /// Every row of the feed's tables and timetable in `schema`, as text, table by table.
    static func contents(_ store: PostgresStore, schema: String) throws -> [String: [String]] {
        let tables = GTFSFile.allCases.map(\.rawValue) + ["service_days", "feed_days", "feed_time_zones", "frequency_runs", "frequency_departures", "stop_name_words"]
        var contents: [String: [String]] = [:]
        for table in tables {
            contents[table] = try store.connection.query(
                "SELECT t::text FROM \(schema).\(table) t WHERE feed = (SELECT feed FROM \(schema).feeds WHERE name = 'f') ORDER BY 1", [], "read"
            ).map { $0.first.flatMap { $0 } ?? "" }
        }
        return contents
    }

    static func oid(_ store: PostgresStore, _ relation: String) throws -> String? {
        try store.connection.query("SELECT to_regclass($1)::oid::text", [relation], "oid").first?.first.flatMap { $0 }
    }

    static func full(feed: String = "f") -> ImportOptions {
        var options = ImportOptions()
        options.update = .full
        options.feed = feed
        return options
    }

    /// A feed with frequencies, a DST change and stop names, and a second version of it.
    static func versions(in folder: TemporaryFolder) throws -> (String, String) {
        var files = PostgresTimetableTests.feed(zone: "Europe/Berlin")
        let first = try PostgresFailureTests.feed(files, in: folder, named: "v1")
        files["stops.txt"] = files["stops.txt"].map { $0.replacingOccurrences(of: "52.5", with: "52.4") }
        files["calendar_dates.txt"] = "service_id,date,exception_type\nS1,20250329,2\n"
        return (first, try PostgresFailureTests.feed(files, in: folder, named: "v2"))
    }

    /// A server of its own whose schema `gtfs` holds the first of ``versions(in:)`` as feed `f`, handed to
    /// `body` with the store and the second version's path.
    static func withFirstVersion(_ body: (TestServer, PostgresStore, _ second: String) throws -> Void) throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let (v1, v2) = try versions(in: folder)
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        _ = try store.importFeedSynchronously(from: try FeedSource(path: v1), options: full())
        try body(server, store, v2)
    }

    @Test("Built aside, the only feed gets the rows an import in place gives; views, functions and privileges stay; no schema is left")
    func sameAsInPlace() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let (v1, v2) = try Self.versions(in: folder)
        let alone = try PostgresStore(connectionString: server.connectionString, schema: "alone")
        defer { alone.close() }
        let shared = try PostgresStore(connectionString: server.connectionString, schema: "shared")
        defer { shared.close() }
        for store in [alone, shared] { _ = try store.importFeedSynchronously(from: try FeedSource(path: v1), options: Self.full()) }
        _ = try shared.importFeedSynchronously(from: try FeedSource(path: v1), options: Self.full(feed: "other"))
        try alone.connection.execute(
            "CREATE ROLE reader; GRANT USAGE ON SCHEMA alone TO reader; GRANT SELECT ON ALL TABLES IN SCHEMA alone TO reader", "grant")
        let before = (try Self.oid(alone, "alone.stop_times"), try Self.oid(shared, "shared.stop_times"))

        let built = try alone.importFeedSynchronously(from: try FeedSource(path: v2), options: Self.full())
        let inPlace = try shared.importFeedSynchronously(from: try FeedSource(path: v2), options: Self.full())

        #expect(try Self.oid(alone, "alone.stop_times") != before.0, "the feed alone in its schema is built aside")
        #expect(try Self.oid(shared, "shared.stop_times") == before.1, "beside another feed it is imported in place")
        #expect(PostgresStoryTests.story(.success(built)) == PostgresStoryTests.story(.success(inPlace)))
        let contents = try Self.contents(alone, schema: "alone")
        #expect(contents == (try Self.contents(shared, schema: "shared")))
        #expect(contents["frequency_departures"]?.isEmpty == false && contents["stop_name_words"]?.isEmpty == false)
        let objects = "SELECT relname || ' ' || relkind::text FROM pg_class WHERE relnamespace = $1::regnamespace AND relkind IN ('v', 'r', 'i') ORDER BY 1"
        #expect(try alone.connection.query(objects, ["alone"], "list") == (try shared.connection.query(objects, ["shared"], "list")))
        let functions = "SELECT proname FROM pg_proc WHERE pronamespace = $1::regnamespace ORDER BY 1"
        #expect(try alone.connection.query(functions, ["alone"], "list") == (try shared.connection.query(functions, ["shared"], "list")))
        let granted = try alone.connection.query(
            "SELECT has_table_privilege('reader', 'alone.stop_times', 'SELECT'), has_table_privilege('reader', 'alone.arrivals_departures', 'SELECT')",
            [], "privileges")
        #expect(granted == [["t", "t"]])
        #expect(try alone.connection.query("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'gtfs_aside%'", [], "schemas") == [["0"]])
        #expect(try alone.feeds().map(\.name) == ["f"])
        let events = "SELECT count(*) FROM %@.arrivals_departures WHERE feed = (SELECT feed FROM %@.feeds WHERE name = 'f')"
        let board = try alone.connection.query(events.replacingOccurrences(of: "%@", with: "alone"), [], "read")
        let sharedBoard = try shared.connection.query(events.replacingOccurrences(of: "%@", with: "shared"), [], "read")
        #expect(board != [["0"]] && board == sharedBoard)
    }

    @Test("An automatic import that would write more than a quarter of the feed's rows is built aside; a small change is written row by row")
    func muchChanged() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let v1 = folder.file("v1.zip")
        let v2 = folder.file("v2.zip")
        let counts = try SyntheticFeed(scale: 0.015, seed: 1).write(toPath: v1)
        _ = try SyntheticFeed(scale: 0.015, seed: 2).write(toPath: v2)
        #expect(counts.totalRows > 3 * ImportPlan.rebuildFloor / 2)
        var files = PostgresTimetableTests.feed(zone: "Europe/Berlin")
        let small = try PostgresFailureTests.feed(files, in: folder, named: "small")
        files["stop_times.txt"] = files["stop_times.txt"].map { $0.replacingOccurrences(of: ":00:00,", with: ":00:30,") }
        let retimed = try PostgresFailureTests.feed(files, in: folder, named: "retimed")
        let alone = try PostgresStore(connectionString: server.connectionString, schema: "alone")
        defer { alone.close() }
        let shared = try PostgresStore(connectionString: server.connectionString, schema: "shared")
        defer { shared.close() }
        var options = ImportOptions()
        options.feed = "f"
        for store in [alone, shared] { _ = try store.importFeedSynchronously(from: try FeedSource(path: v1), options: options) }
        _ = try shared.importFeedSynchronously(from: try FeedSource(path: small), options: Self.full(feed: "other"))

        var before = try Self.oid(alone, "alone.stop_times")
        let much = try alone.importFeedSynchronously(from: try FeedSource(path: v2), options: options)
        #expect(much.kind == .full, "rebuilt aside")
        #expect(try Self.oid(alone, "alone.stop_times") != before)
        let inPlace = try shared.importFeedSynchronously(from: try FeedSource(path: v2), options: options)
        #expect(inPlace.kind == .incremental, "beside another feed, row by row")
        #expect(try Self.contents(alone, schema: "alone") == (try Self.contents(shared, schema: "shared")))
        #expect(try alone.importFeedSynchronously(from: try FeedSource(path: v2), options: options).changedNothing)

        // A small feed changed whole is under the floor: row by row, every change told.
        _ = try alone.importFeedSynchronously(from: try FeedSource(path: small), options: Self.full())
        before = try Self.oid(alone, "alone.stop_times")
        let retimedSummary = try alone.importFeedSynchronously(from: try FeedSource(path: retimed), options: options)
        #expect(retimedSummary.kind == .incremental && retimedSummary.table(.stopTimes)?.changes.updated ?? 0 > 0)
        #expect(try Self.oid(alone, "alone.stop_times") == before)
    }

    @Test("Settings of the user's that a new table lacks: the import runs in place and they stay", arguments: [
        "COMMENT ON TABLE gtfs.stops IS 'ours'", "CREATE ROLE app; GRANT SELECT (stop_id) ON gtfs.stops TO app",
        "ALTER TABLE gtfs.stops SET (autovacuum_enabled = false)", "CREATE PUBLICATION stops_out FOR TABLE gtfs.stops",
    ])
    func userSettings(_ setting: String) throws {
        try Self.withFirstVersion { _, store, v2 in
            try store.connection.execute(setting, "set")
            let before = try Self.oid(store, "gtfs.stops")
            _ = try store.importFeedSynchronously(from: try FeedSource(path: v2), options: Self.full())
            #expect(try Self.oid(store, "gtfs.stops") == before)
            #expect(try store.connection.query("SELECT min(stop_lat)::text FROM gtfs.stops", [], "read") == [["52.4"]])
        }
    }

    @Test("Tables owned by another role than the importing one keep that owner when built aside")
    func owner() throws {
        try Self.withFirstVersion { _, store, v2 in
            try store.connection.execute(
                "CREATE ROLE keeper NOLOGIN; ALTER TABLE gtfs.stops OWNER TO keeper; ALTER TABLE gtfs.stop_name_words OWNER TO keeper", "own")
            let before = try Self.oid(store, "gtfs.stops")
            _ = try store.importFeedSynchronously(from: try FeedSource(path: v2), options: Self.full())
            #expect(try Self.oid(store, "gtfs.stops") != before)
            let owners = try store.connection.query(
                "SELECT pg_get_userbyid(relowner)::text FROM pg_class WHERE oid IN ('gtfs.stop_name_words'::regclass, 'gtfs.stops'::regclass, 'gtfs.trips'::regclass) ORDER BY relname",
                [], "owners")
            #expect(owners == [["keeper"], ["keeper"], ["postgres"]])
        }
    }

    @Test("A view of the user's over the tables: the import runs in place and the view stays")
    func userView() throws {
        try Self.withFirstVersion { _, store, v2 in
            try store.connection.execute("CREATE VIEW gtfs.my_stops AS SELECT stop_id, stop_lat FROM gtfs.stops", "view")
            let before = try Self.oid(store, "gtfs.stops")
            _ = try store.importFeedSynchronously(from: try FeedSource(path: v2), options: Self.full())
            #expect(try Self.oid(store, "gtfs.stops") == before)
            #expect(try store.connection.query("SELECT min(stop_lat)::text FROM gtfs.my_stops", [], "read") == [["52.4"]])
            #expect(try store.connection.query("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'gtfs_aside%'", [], "schemas") == [["0"]])
        }
    }

    @Test("A reader in a long transaction: the switch waits for it, and other readers are held at most a moment meanwhile")
    func readersDuringSwitch() throws {
        try Self.withFirstVersion { server, store, v2 in
            let long = try PostgresStore(connectionString: server.connectionString)
            defer { long.close() }
            try long.connection.execute("BEGIN; SELECT count(*) FROM gtfs.stops", "begin")
            let other = try PostgresStore(connectionString: server.connectionString)
            defer { other.close() }

            let importer = try PostgresStore(connectionString: server.connectionString)
            defer { importer.close() }
            let done = DispatchSemaphore(value: 0)
            let source = try FeedSource(path: v2)
            Thread.detachNewThread {
                _ = try? importer.importFeedSynchronously(from: source, options: Self.full())
                done.signal()
            }
            // The import reaches its switch and waits for the long reader; the others go on, old rows meanwhile.
            var slowest = Duration.zero
            let clock = ContinuousClock()
            for _ in 0 ..< 40 {
                let start = clock.now
                #expect(try other.connection.query("SELECT min(stop_lat)::text FROM gtfs.stops", [], "read") == [["52.5"]])
                slowest = max(slowest, clock.now - start)
                Thread.sleep(forTimeInterval: 0.05)
            }
            #expect(done.wait(timeout: .now()) == .timedOut, "the switch waits for the long transaction")
            #expect(slowest < .seconds(1), "\(slowest)")
            try long.connection.execute("COMMIT", "commit")
            #expect(done.wait(timeout: .now() + 60) == .success)
            #expect(try other.connection.query("SELECT min(stop_lat)::text FROM gtfs.stops", [], "read") == [["52.4"]])
        }
    }

    @Test("Readers of the views and tables go on during an import, in place or built aside; they see the old feed until the commit")
    func readersDuringImports() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let v1 = folder.file("v1.zip")
        let v2 = folder.file("v2.zip")
        _ = try SyntheticFeed(scale: 0.01, seed: 1).write(toPath: v1)
        _ = try SyntheticFeed(scale: 0.01, seed: 2).write(toPath: v2)
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        _ = try store.importFeedSynchronously(from: try FeedSource(path: v1), options: Self.full())
        // Beside a second feed, an import runs in place; alone, --full is built aside.
        let small = try PostgresFailureTests.feed(PostgresTimetableTests.feed(zone: "Europe/Berlin"), in: folder, named: "small")
        _ = try store.importFeedSynchronously(from: try FeedSource(path: small), options: Self.full(feed: "other"))
        let reader = try PostgresStore(connectionString: server.connectionString)
        defer { reader.close() }
        // A reader held longer than this fails: what a user's statement_timeout would make of it.
        try reader.connection.execute("SET statement_timeout = 1000", "set the timeout")
        let query = "SELECT count(*)::text FROM gtfs.arrivals_departures WHERE date = '2025-06-11' AND stop_id = (SELECT min(stop_id) FROM gtfs.stops)"
        let before = try reader.connection.query(query, [], "read")
        var incremental = ImportOptions()
        incremental.feed = "f"
        for options in [incremental, Self.full()] {
            if options.update == .full { #expect(try store.removeFeed(named: "other", lockWait: nil) != nil) }
            let done = DispatchSemaphore(value: 0)
            let importer = try PostgresStore(connectionString: server.connectionString)
            defer { importer.close() }
            let source = try FeedSource(path: options.update == .full ? v1 : v2)
            Thread.detachNewThread {
                _ = try? importer.importFeedSynchronously(from: source, options: options)
                done.signal()
            }
            var answers = 0
            while done.wait(timeout: .now() + 0.05) == .timedOut {
                let rows = try reader.connection.query(query, [], "read")
                #expect(!rows.isEmpty)
                answers += 1
            }
            #expect(answers > 3, "the import took \(answers) reads' time")
        }
        #expect(try reader.connection.query(query, [], "read") == before)
    }

    @Test("gtfs-import --full killed, or its server stopped, at a random moment: the feed as it was, no schema left", arguments: [false, true])
    func killedAnywhere(stopsServer: Bool) throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let v1 = folder.file("v1.zip")
        let v2 = folder.file("v2.zip")
        _ = try SyntheticFeed(scale: 0.02, seed: 1).write(toPath: v1)
        _ = try SyntheticFeed(scale: 0.02, seed: 2).write(toPath: v2)
        #expect(try ToolRunner.run("gtfs-import", ["--quiet", "--db", server.uri, "--feed", "f", v1]).status == 0)
        let expected = try Self.snapshot(server)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try ToolRunner.run("gtfs-import", ["--quiet", "--full", "--db", server.uri, "--feed", "f", v1]).status == 0)
        let duration = clock.now - start
        var generator = SeededGenerator(seed: stopsServer ? 11 : 12)
        for _ in 0 ..< 3 {
            let running = try ToolRunner.start("gtfs-import", ["--quiet", "--full", "--db", server.uri, "--feed", "f", v2])
            Thread.sleep(forTimeInterval: Double.random(in: 0.05 ... 0.9, using: &generator) * Double(duration / .milliseconds(1)) / 1000)
            if stopsServer { try server.kill() } else { running.send(SIGKILL) }
            let result = running.wait()
            #expect(result.status != 0, "the import ended before it was stopped")
            if stopsServer { try server.restart() }
            #expect(try Self.snapshot(server) == expected)
        }
    }

    /// The feed's rows per table, its content hash and the schemas, once no import runs.
    static func snapshot(_ server: TestServer) throws -> [String] {
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        let deadline = Date().addingTimeInterval(60)
        while try store.connection.query("SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND state = 'active' AND backend_type = 'client backend'", [], "activity") != [["0"]],
            Date() < deadline
        {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let counts = try store.rowCounts(feed: "f").sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        let hash = try store.connection.query("SELECT content_hash FROM gtfs.feeds", [], "hash").map { $0.first.flatMap { $0 } ?? "" }
        let schemas = try store.connection.query("SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg_%' ORDER BY 1", [], "schemas")
        return counts + hash + schemas.map { $0.first.flatMap { $0 } ?? "" }
    }
}
