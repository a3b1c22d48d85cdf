import Foundation
import GRDB
import GTFS
import GTFSImport
@testable import GTFSPostgres
import TestSupport
import Synchronization
import Testing

@Suite("PostgreSQL store", .serialized)
struct PostgresImportTests {
    @Test("The Berlin sample: every table holds the same rows as in the SQLite store")
    func berlinSample() throws {
        let server = try TestServer()
        defer { server.stop() }
        let subset = Repository.berlin.appendingPathComponent("vbb-2025-subset").path
        let store = try PostgresStore(connectionString: server.connectionString, schema: "gtfs")
        defer { store.close() }
        let summary = try store.importFeed(from: try FeedSource(path: subset), named: "vbb")
        #expect(summary.table(.stops)?.rowsStored == 634)

        let folder = try TemporaryFolder()
        let sqlite = try GTFSStore(path: folder.file("s.sqlite"))
        _ = try sqlite.importFeedSynchronously(from: try FeedSource(path: subset))
        let expected = try sqlite.rowCounts().filter { $0.value > 0 }
        try sqlite.close()
        #expect(try store.rowCounts(feed: "vbb") == expected)

        // Table by table, every row: the same values, each written in one form (dates YYYYMMDD, reals as
        // Swift prints the Double, NULL as ∅), compared as sorted lists.
        let reopened = try GTFSStore(path: folder.file("s.sqlite"))
        defer { try? reopened.close() }
        for file in expected.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            let table = PostgresTable(file)
            let columns = table.description.fields.map(\.name)
            let pgRows = try store.connection.query(
                "SELECT \(columns.map { "\($0)::text" }.joined(separator: ", ")) FROM gtfs.\(file.rawValue)", [], "read \(file.rawValue)")
            let pg = pgRows.map { row in
                zip(row, table.types).map { value, type in Self.canonical(postgres: value, type) }.joined(separator: "|")
            }.sorted()
            let lite = try reopened.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT \(columns.joined(separator: ", ")) FROM \(file.rawValue)").map { row in
                    (0 ..< columns.count).map { Self.canonical(sqlite: row[$0] as DatabaseValue, table.types[$0]) }.joined(separator: "|")
                }
            }.sorted()
            #expect(pg == lite, "\(file.rawValue) differs")
        }
    }

    static func canonical(postgres value: String?, _ type: PostgresColumnType) -> String {
        guard let value else { return "∅" }
        switch type {
        case .date: return value.replacingOccurrences(of: "-", with: "")
        case .doublePrecision: return Double(value).map { "\($0)" } ?? value
        default: return value
        }
    }

    static func canonical(sqlite value: DatabaseValue, _ type: PostgresColumnType) -> String {
        switch value.storage {
        case .null: return "∅"
        case .int64(let number): return type == .doublePrecision ? "\(Double(number))" : "\(number)"
        case .double(let number): return "\(number)"
        case .string(let text): return text
        case .blob(let data): return "blob \(data.count)"
        }
    }
}

@Suite("PostgreSQL store: bad input and failures", .serialized)
struct PostgresFailureTests {
    /// A feed folder with `files` (name to text).
    static func feed(_ files: [String: String], in folder: TemporaryFolder, named name: String) throws -> String {
        let path = folder.file(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (file, text) in files { try text.write(toFile: path + "/" + file, atomically: true, encoding: .utf8) }
        return path
    }

    static let stops = "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\nB,Beta,52.6,13.5\n"

    @Test("Rows that repeat a key are rejected by name, the others stored, and the key is in place")
    func repeatedKeys() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let path = try Self.feed(["stops.txt": Self.stops + "A,Again,52.7,13.6\n"], in: folder, named: "f")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        let summary = try store.importFeedSynchronously(from: try FeedSource(path: path))
        #expect(summary.table(.stops)?.rowsStored == 2 && summary.table(.stops)?.rowsRejected == 1)
        #expect(summary.table(.stops)?.errors.map(\.description) == [#"stops.txt: (stop_id) = ("A") repeats an earlier row; rejected"#])
        let names = try store.connection.query("SELECT stop_name FROM gtfs.stops ORDER BY stop_id", [], "read")
        #expect(names == [["Alpha"], ["Beta"]])
        #expect(throws: PostgresError.self) {
            try store.connection.execute("INSERT INTO gtfs.stops (feed, stop_id) VALUES (1, 'A')", "insert")
        }
    }

    @Test("A failed import leaves the feed as it was")
    func failureRollsBack() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let good = try Self.feed(["stops.txt": Self.stops], in: folder, named: "good")
        let broken = try Self.feed(["stops.txt": "stop_id,stop_id\nA,A\n"], in: folder, named: "broken")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        _ = try store.importFeed(from: try FeedSource(path: good), named: "f")
        #expect(throws: (any Error).self) { try store.importFeed(from: try FeedSource(path: broken), named: "f") }
        #expect(try store.rowCounts(feed: "f") == [.stops: 2])
    }

    @Test("Wrong credentials: one line naming the server, never the password")
    func wrongCredentials() throws {
        let server = try TestServer()
        defer { server.stop() }
        let error = #expect(throws: PostgresError.self) {
            try PostgresStore(connectionString: "postgresql://nobody:s3cret@/postgres?host=\(server.folder)&port=\(server.port)")
        }
        let text = error?.description ?? ""
        #expect(text.hasPrefix("postgresql://nobody@\(server.folder):\(server.port)/postgres: cannot connect: "), "\(text)")
        #expect(!text.contains("s3cret") && !text.contains("\n"), "\(text)")
    }

    @Test("A schema name that would need quoting is refused before connecting")
    func schemaName() {
        #expect(throws: PostgresError.self) { try PostgresStore(connectionString: "postgresql:///x", schema: "gtfs; DROP TABLE x") }
    }

    @Test("A schema name of 64 bytes is refused for PostgreSQL's 63-byte limit, not for its characters")
    func schemaNameLength() throws {
        let tooLong = String(repeating: "a", count: 64)
        let error = #expect(throws: PostgresError.self) { try PostgresStore(connectionString: "postgresql:///x", schema: tooLong) }
        #expect(error?.message == "a schema name has at most 63 bytes (PostgreSQL's limit), this one 64", "\(String(describing: error))")
        #expect(PostgresStore.identifierProblem(String(repeating: "a", count: 63)) == nil)
        let tool = try ToolRunner.run("gtfs-import", ["list", "--db", "postgresql:///x", "--schema", tooLong])
        #expect(tool.status == 1 && tool.stderr.contains("at most 63 bytes"), "\(tool.stderr)")
    }
}

@Suite("PostgreSQL store: the client killed mid-import", .serialized)
struct PostgresKillTests {
    @Test("SIGKILL of gtfs-import during its COPY: the server rolls back, the feed stays as it was")
    func killedClient() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let running = try Self.copyingImport(into: server, rows: 200_000, in: folder)
        running.send(SIGKILL)
        _ = running.wait()
        // The server notices the closed connection and rolls its transaction back.
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        try Self.waitUntilNoCopy(store)
        #expect(try store.rowCounts(feed: "f") == [.stops: 2])
    }

    /// Imports the feed `f` (two stops) with gtfs-import, then starts a second gtfs-import that sends
    /// `rows` stop times from standard input into it and keeps its input open.
    /// - Returns: the second import, once the server shows its COPY running.
    static func copyingImport(into server: TestServer, rows: Int, in folder: TemporaryFolder) throws -> ToolRunner.Running {
        let good = try PostgresFailureTests.feed(["stops.txt": PostgresFailureTests.stops], in: folder, named: "good")
        #expect(try ToolRunner.run("gtfs-import", ["--db", server.uri, "--feed", "f", good]).status == 0)
        let running = try ToolRunner.start("gtfs-import", ["--db", server.uri, "--feed", "f", "--table", "stop_times", "-"])
        var text = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for sequence in 1 ... rows { text += "T,08:00:00,08:00:30,A,\(sequence)\n" }
        try running.write(Data(text.utf8))
        let watcher = try PostgresStore(connectionString: server.connectionString)
        defer { watcher.close() }
        let deadline = Date().addingTimeInterval(60)
        var copying = false
        while !copying && Date() < deadline {
            copying = try copies(watcher) > 0
            if !copying { Thread.sleep(forTimeInterval: 0.02) }
        }
        #expect(copying)
        return running
    }

    /// Waits (at most a minute) until no COPY into stop_times runs on the server.
    static func waitUntilNoCopy(_ watcher: PostgresStore) throws {
        let deadline = Date().addingTimeInterval(60)
        while try copies(watcher) > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// The COPYs into stop_times running on the server.
    private static func copies(_ watcher: PostgresStore) throws -> Int {
        let active = try watcher.connection.query(
            "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'COPY %stop_times%' AND pid <> pg_backend_pid()", [], "activity")
        return active.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
    }
}

@Suite("PostgreSQL store: feeds and the import log", .serialized)
struct PostgresFeedTests {
    @Test("feed_tables holds each file's SHA-256 and counts; imports logs completed and failed imports")
    func log() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let good = try PostgresFailureTests.feed(["stops.txt": PostgresFailureTests.stops], in: folder, named: "good")
        let broken = try PostgresFailureTests.feed(["stops.txt": "stop_id,stop_id\nA,A\n"], in: folder, named: "broken")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        _ = try store.importFeed(from: try FeedSource(path: good), named: "f")
        _ = try? store.importFeed(from: try FeedSource(path: broken), named: "f")

        let hasher = ContentHasher()
        hasher.update(Array(PostgresFailureTests.stops.utf8))
        let tables = try store.connection.query("SELECT table_name, content_hash, rows_read, rows_stored FROM gtfs.feed_tables", [], "read")
        #expect(tables == [["stops", hasher.finish(), "2", "2"]])
        let imports = try store.connection.query(
            "SELECT feed_name, outcome, rows_inserted, rows_deleted, message IS NULL FROM gtfs.imports ORDER BY import_id", [], "read")
        #expect(imports == [["f", "completed", "2", "0", "t"], ["f", "failed", "0", "0", "f"]])
        let feeds = try store.feeds()
        #expect(feeds.map(\.name) == ["f"] && feeds[0].importedAt != nil && feeds[0].source == good)
    }

    @Test("remove deletes a feed and all its rows; the other feed stays")
    func remove() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let path = try PostgresFailureTests.feed(["stops.txt": PostgresFailureTests.stops], in: folder, named: "f")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        _ = try store.importFeed(from: try FeedSource(path: path), named: "a")
        _ = try store.importFeed(from: try FeedSource(path: path), named: "b")
        #expect(try store.removeFeed(named: "a", lockWait: nil) == 2)
        #expect(try store.removeFeed(named: "a", lockWait: nil) == nil)
        #expect(try store.feeds().map(\.name) == ["b"])
        #expect(try store.rowCounts(feed: "a") == [:])
        #expect(try store.rowCounts(feed: "b") == [.stops: 2])
    }
}

@Suite("PostgreSQL store: cancel", .serialized)
struct PostgresCancelTests {
    @Test("Cancel during the COPY: ImportError.cancelled, the feed as it was, the import logged as cancelled")
    func cancelDuringCopy() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let good = try PostgresFailureTests.feed(["stops.txt": PostgresFailureTests.stops], in: folder, named: "good")
        var rows = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for sequence in 1 ... 1_000_000 { rows += "T\(sequence % 997),08:00:00,08:00:30,A,\(sequence)\n" }
        let big = folder.file("stop_times.txt")
        try rows.write(toFile: big, atomically: true, encoding: .utf8)

        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        _ = try store.importFeed(from: try FeedSource(path: good), named: "f")
        let watcher = try PostgresStore(connectionString: server.connectionString)
        defer { watcher.close() }

        let outcome = Mutex<(any Error)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let source = try FeedSource(path: big)
        // The store goes to that thread alone until it signals; the test uses only its canceller meanwhile.
        let handedOver = HandedOver(store)
        let thread = Thread {
            do { _ = try handedOver.value.importFeed(from: source, named: "f") } catch { outcome.withLock { $0 = error } }
            finished.signal()
        }
        thread.start()
        var copying = false
        let deadline = Date().addingTimeInterval(60)
        while !copying && Date() < deadline {
            let active = try watcher.connection.query(
                "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'COPY %stop_times%' AND state = 'active'", [], "activity")
            copying = active.first?.first.flatMap { $0 } == "1"
        }
        #expect(copying)
        store.canceller.cancel()
        #expect(finished.wait(timeout: .now() + 30) == .success)
        #expect((outcome.withLock { $0 } as? ImportError)?.isCancellation == true)
        #expect(try watcher.rowCounts(feed: "f") == [.stops: 2])
        // The rollback and the log row come while the caller goes on; the store's next call waits for them.
        _ = try store.feeds()
        let outcomes = try watcher.connection.query("SELECT outcome FROM gtfs.imports ORDER BY import_id", [], "read")
        #expect(outcomes == [["completed"], ["cancelled"]])
        // The abandoned transaction is rolled back before the store's next import, which stores the feed.
        _ = try store.importFeed(from: source, named: "f")
        #expect(try watcher.rowCounts(feed: "f") == [.stops: 2, .stopTimes: 1_000_000])
    }

    @Test("A cancel while the server reads no COPY data ends the wait for the socket; the next statement gets a new session")
    func cancelWhileSocketFull() throws {
        let server = try TestServer()
        defer { server.stop() }
        let setup = try PostgresConnection(server.connectionString)
        defer { setup.close() }
        try setup.execute("CREATE TABLE t (k integer PRIMARY KEY)", "create")
        // Another transaction holds key 1 uncommitted: the COPY waits for it at its first row and reads no more.
        let holder = try PostgresConnection(server.connectionString)
        defer { holder.close() }
        try holder.execute("BEGIN; INSERT INTO t VALUES (1)", "hold")
        let connection = try PostgresConnection(server.connectionString)
        defer { connection.close() }
        try connection.execute("BEGIN", "begin")
        let stream = try connection.beginCopy("COPY t (k) FROM STDIN", "COPY t")
        let canceller = connection.canceller
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { canceller.cancel() }
        var outcome: PostgresError?
        let rows = Array("1\n".utf8) + Array(repeating: Array("2\n".utf8), count: 1 << 16).joined()
        do {
            // Far more than the socket and the server's buffers hold: only the cancel ends this.
            for _ in 0 ..< 4096 { try stream.send(rows) }
        } catch { outcome = error }
        #expect(outcome?.sqlState == "57014")
        canceller.reset()
        try holder.execute("COMMIT", "commit")
        // A new session: the old one's transaction and COPY are gone.
        #expect(try connection.query("SELECT count(*) FROM t", [], "count") == [["1"]])
    }

    @Test("A statement whose server process is slow to stop after a cancel is given up; the next statement gets a new session")
    func cancelUnanswered() throws {
        let server = try TestServer()
        defer { server.stop() }
        let connection = try PostgresConnection(server.connectionString)
        defer { connection.close() }
        try connection.execute("BEGIN; CREATE TABLE t (k integer)", "begin")
        // Catches every cancel and goes on until 1.2 s after its start, as a slow statement's cleanup would.
        // Between its blocks a cancel would escape, but the loop spends its time in them.
        let slow = """
            DO $$ DECLARE started timestamptz := clock_timestamp(); BEGIN
                LOOP
                    BEGIN
                        PERFORM pg_sleep(0.02);
                        IF clock_timestamp() - started > interval '1.2 s' THEN RETURN; END IF;
                    EXCEPTION WHEN query_canceled THEN NULL;
                    END;
                END LOOP;
            END $$
            """
        let canceller = connection.canceller
        let cancelAt = Mutex<ContinuousClock.Instant?>(nil)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            cancelAt.withLock { $0 = .now }
            canceller.cancel()
        }
        var outcome: PostgresError?
        do { try connection.execute(slow, "slow") } catch { outcome = error }
        let waited = cancelAt.withLock { $0.map { ContinuousClock.now - $0 } }
        #expect(outcome?.sqlState == "57014")
        // The server answers 0.9 s after the cancel; the client stops waiting about 60 ms after it.
        #expect(try #require(waited) < .milliseconds(400))
        canceller.reset()
        // A new session, without the old one's table.
        #expect(try connection.query("SELECT count(*) FROM pg_tables WHERE tablename = 't'", [], "look") == [["0"]])
    }

    @Test("A cancel asked for between imports cancels the next one, and only that one")
    func cancelBeforeImport() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let good = try PostgresFailureTests.feed(["stops.txt": PostgresFailureTests.stops], in: folder, named: "good")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        store.canceller.cancel()
        let error = #expect(throws: ImportError.self) { try store.importFeed(from: try FeedSource(path: good), named: "f") }
        #expect(error?.isCancellation == true)
        #expect(try store.feeds().isEmpty)
        #expect(try store.importFeed(from: try FeedSource(path: good), named: "f").rowsStored == 2)
    }

    @Test("A cancel asked for while a refused source is read ends that import, not the next one")
    func cancelWhileRefused() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let good = try PostgresFailureTests.feed(["stops.txt": PostgresFailureTests.stops], in: folder, named: "good")
        let nothing = try PostgresFailureTests.feed(["notes.txt": "hello\n"], in: folder, named: "nothing")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        let canceller = store.canceller
        store.sourceListed.withLock { $0 = { canceller.cancel() } }
        #expect(throws: ImportError.self) { try store.importFeed(from: try FeedSource(path: nothing), named: "f") }
        store.sourceListed.withLock { $0 = nil }
        #expect(try store.importFeed(from: try FeedSource(path: good), named: "f").rowsStored == 2)
    }
}

extension PostgresStore {
    /// Imports `source` as the feed `feed`, with the other options' defaults.
    func importFeed(from source: FeedSource, named feed: String) throws -> ImportSummary {
        var options = ImportOptions()
        options.feed = feed
        return try importFeedSynchronously(from: source, options: options)
    }
}

/// A value given to one other thread, which alone uses it until it signals that it is done.
final class HandedOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

@Suite("PostgreSQL store: gtfs-import signals", .serialized)
struct PostgresSignalTests {
    @Test("SIGINT during the COPY from standard input: exit 130, one line, the feed as it was")
    func interrupt() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let running = try PostgresKillTests.copyingImport(into: server, rows: 100_000, in: folder)
        running.send(SIGINT)
        let result = running.wait()
        #expect(result.status == 130, "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix("cancelled by SIGINT; postgresql://postgres@\(server.folder):\(server.port)/postgres schema gtfs is unchanged\n"),
            "\(result.stderr)")
        let watcher = try PostgresStore(connectionString: server.connectionString)
        defer { watcher.close() }
        try PostgresKillTests.waitUntilNoCopy(watcher)
        #expect(try watcher.rowCounts(feed: "f") == [.stops: 2])
    }
}

@Suite("PostgreSQL store: gtfs-import signals while the server does not answer", .serialized)
struct PostgresFrozenServerTests {
    @Test("SIGINT and SIGTERM while every server process is stopped: exit within 2 s, the feed as it was",
          arguments: [SIGINT, SIGTERM])
    func frozenServer(_ signal: Int32) throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let running = try PostgresKillTests.copyingImport(into: server, rows: 100_000, in: folder)
        try server.signalAll(SIGSTOP)
        let sent = ContinuousClock.now
        running.send(signal)
        let result = running.wait(timeout: .seconds(20))
        let took = ContinuousClock.now - sent
        try server.signalAll(SIGCONT)
        let ended = try #require(result, "gtfs-import still ran 20 s after the signal")
        #expect(took < .seconds(2), "\(took)")
        #expect(ended.status == 128 + signal, "\(ended.stderr)")
        #expect(ended.stderr.hasSuffix("cancelled by \(signal == SIGINT ? "SIGINT" : "SIGTERM"); postgresql://postgres@\(server.folder):\(server.port)/postgres schema gtfs is unchanged\n"), "\(ended.stderr)")
        let watcher = try PostgresStore(connectionString: server.connectionString)
        defer { watcher.close() }
        try PostgresKillTests.waitUntilNoCopy(watcher)
        #expect(try watcher.rowCounts(feed: "f") == [.stops: 2])
    }
}

@Suite("PostgreSQL store: files unchanged since the last import", .serialized)
struct PostgresUnchangedTests {
    @Test("The same feed again writes nothing; a changed file alone is replaced")
    func unchangedFiles() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let routes = "route_id,route_short_name,route_type\nR,1,3\n"
        let path = try PostgresFailureTests.feed(["stops.txt": PostgresFailureTests.stops, "routes.txt": routes], in: folder, named: "f")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        _ = try store.importFeed(from: try FeedSource(path: path), named: "f")

        let again = try store.importFeed(from: try FeedSource(path: path), named: "f")
        #expect(again.changedNothing && Set(again.tables.filter(\.isUnchangedFile).map(\.file)) == [.stops, .routes])
        #expect(try store.connection.query("SELECT count(*) FROM gtfs.imports", [], "read") == [["1"]])

        try (PostgresFailureTests.stops + "C,Gamma,52.8,13.7\n").write(toFile: path + "/stops.txt", atomically: true, encoding: .utf8)
        let changed = try store.importFeed(from: try FeedSource(path: path), named: "f")
        #expect(changed.tables.filter(\.isUnchangedFile).map(\.file) == [.routes])
        #expect(changed.table(.stops)?.changes == TableChanges(inserted: 1, unchanged: 2))
        #expect(try store.rowCounts(feed: "f") == [.stops: 3, .routes: 1])
        let kinds = try store.connection.query("SELECT kind, rows_inserted, rows_deleted FROM gtfs.imports ORDER BY import_id", [], "read")
        #expect(kinds == [["full", "3", "0"], ["incremental", "1", "0"]])
    }
}

@Suite("PostgreSQL store: references", .serialized)
struct PostgresReferenceTests {
    @Test("References that point to no row are reported as in the SQLite store")
    func sameFindingsAsSQLite() throws {
        let server = try TestServer()
        defer { server.stop() }
        let subset = Repository.berlin.appendingPathComponent("vbb-2025-subset").path
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        let summary = try store.importFeed(from: try FeedSource(path: subset), named: "vbb")

        let folder = try TemporaryFolder()
        let sqlite = try GTFSStore(path: folder.file("s.sqlite"))
        let expected = try sqlite.importFeedSynchronously(from: try FeedSource(path: subset)).integrity
        try sqlite.close()
        #expect(!expected.findings.isEmpty)
        #expect(summary.integrity.findings == expected.findings)
        #expect(summary.integrity.checksRun == expected.checksRun)
    }

    @Test(
        "Missing trips, stops and shapes as in the SQLite store: stop_times alone or with some trips and shapes, a trip's rows apart, a repeated key",
        arguments: [false, true], [false, true])
    func missingTripsAndStops(repeatedKey: Bool, someTrips: Bool) throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        var rows = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for trip in ["T9", "T1", "T10", "T2"] {
            for stop in 1 ... 3 { rows += "\(trip),08:0\(stop):00,08:0\(stop):00,S\(stop * 7 % 5),\(stop)\n" }
        }
        rows += "T1,09:00:00,09:00:00,S6,4\n"  // T1's rows apart
        if repeatedKey { rows += "T2,09:00:00,09:00:00,S8,3\n" }
        var files = ["stop_times.txt": rows]
        if someTrips {
            files["trips.txt"] = "route_id,service_id,trip_id,shape_id\nR,S,T1,SH1\nR,S,T10,SH9\n"
            files["shapes.txt"] = "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nSH1,52.5,13.4,1\nSH1,52.6,13.5,2\nSH2,52.6,13.5,1\n"
        }
        let path = try PostgresFailureTests.feed(files, in: folder, named: "feed")
        let source = FeedSource.files(paths: files.keys.sorted().map { path + "/" + $0 })
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        let summary = try store.importFeed(from: source, named: "f")
        // One row per trip in feed_groups: T1's two parts joined without a digest, as T2's when a row repeats its key.
        let groups = try store.connection.query(
            "SELECT group_key, rows::text, (digest_a IS NULL)::text FROM gtfs.feed_groups WHERE table_name = 'stop_times' ORDER BY group_key",
            [], "read")
        #expect(
            groups == [["T1", "4", "true"], ["T10", "3", "false"], ["T2", repeatedKey ? "4" : "3", repeatedKey ? "true" : "false"], ["T9", "3", "false"]])
        let sqlite = try GTFSStore(path: folder.file("s.sqlite"))
        let expected = try sqlite.importFeedSynchronously(from: source).integrity
        try sqlite.close()
        let trips = expected.findings.first { $0.file == .stopTimes && $0.column == "trip_id" }
        #expect(trips?.valueCount == (someTrips ? 2 : 4) && trips?.rowCount == (someTrips ? 6 : 13))
        #expect(expected.findings.contains { $0.file == .stopTimes && $0.column == "stop_id" })
        #expect(!someTrips || expected.findings.contains { $0.file == .trips && $0.column == "shape_id" && $0.examples == ["SH9"] })
        #expect(summary.integrity.findings == expected.findings)
    }
}

@Suite("PostgreSQL store: the server stops mid-import", .serialized)
struct PostgresServerStopTests {
    @Test("The server stopped during the COPY: exit 1 with one line, and after a restart the feed as it was")
    func serverStops() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let running = try PostgresKillTests.copyingImport(into: server, rows: 100_000, in: folder)
        try server.kill()
        // The end of its input makes the import finish the COPY and find the connection gone. (Writing more
        // could meet a reader that has already exited: SIGPIPE.)
        try? running.closeInput()
        let result = running.wait()
        #expect(result.status == 1, "\(result.stderr)")
        // One error line (a slow run may print the progress line of a finished file before it).
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("gtfs-import: ") }
        #expect(lines.count == 1 && lines[0].hasSuffix("; nothing was imported"), "\(result.stderr)")

        try server.restart()
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        #expect(try store.rowCounts(feed: "f") == [.stops: 2])
    }
}
