import Foundation
import Synchronization
import GTFS
import GTFSImport
@testable import GTFSPostgres
import TestSupport
import Testing

@Suite("PostgreSQL store: PostGIS", .serialized)
struct PostgresSpatialTests {
    static let files: [String: String] = [
        "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\nB,Beta,52.6,13.5\n",
        "shapes.txt": "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nS1,52.5,13.4,1\nS1,52.7,13.6,3\nS1,52.6,13.5,2\nS2,52.5,13.4,1\n",
    ]

    @Test("Stops get a geom point and shapes a line; a changed stop moves its point")
    func geometries() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let path = try PostgresFailureTests.feed(Self.files, in: folder, named: "f")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        let summary = try store.importFeed(from: try FeedSource(path: path), named: "f")
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        let points = try store.connection.query("SELECT stop_id, ST_AsText(geom) FROM gtfs.stops ORDER BY stop_id", [], "read")
        #expect(points == [["A", "POINT(13.4 52.5)"], ["B", "POINT(13.5 52.6)"]])
        // A shape's points in sequence order; a shape of one point has no line.
        let lines = try store.connection.query("SELECT shape_id, ST_AsText(geom) FROM gtfs.shape_lines", [], "read")
        #expect(lines == [["S1", "LINESTRING(13.4 52.5,13.5 52.6,13.6 52.7)"]])
        let near = try store.connection.query(
            "SELECT stop_id FROM gtfs.stops WHERE ST_DWithin(geom::geography, ST_MakePoint(13.41, 52.5)::geography, 1000)", [], "near")
        #expect(near == [["A"]])

        try (Self.files["stops.txt"] ?? "").replacingOccurrences(of: "B,Beta,52.6,13.5", with: "B,Beta,52.65,13.55")
            .write(toFile: path + "/stops.txt", atomically: true, encoding: .utf8)
        let again = try store.importFeed(from: try FeedSource(path: path), named: "f")
        #expect(again.table(.stops)?.changes == TableChanges(updated: 1, unchanged: 1))
        #expect(try store.connection.query("SELECT ST_AsText(geom) FROM gtfs.stops WHERE stop_id = 'B'", [], "read") == [["POINT(13.55 52.65)"]])
        #expect(try store.connection.query("SELECT indexname FROM pg_indexes WHERE indexname = 'stops_geom'", [], "read") == [["stops_geom"]])
    }

    @Test("Two first imports that both create PostGIS: the one that waited uses the other's, and has geometries")
    func extensionRace() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let path = try PostgresFailureTests.feed(Self.files, in: folder, named: "f")
        // Another session creates the extension and holds its commit until this import waits for it.
        let other = try PostgresStore(connectionString: server.connectionString)
        defer { other.close() }
        try other.connection.execute("BEGIN; CREATE EXTENSION postgis", "create PostGIS")
        // pg_stat_activity is read outside that transaction, whose view of it would stay as it was.
        let watcher = try PostgresStore(connectionString: server.connectionString)
        defer { watcher.close() }
        let connectionString = server.connectionString
        let source = try FeedSource(path: path)
        final class Outcome: Sendable {
            let summary = Mutex<ImportSummary?>(nil)
            let error = Mutex<String?>(nil)
        }
        let outcome = Outcome()
        let importer = Thread {
            var options = ImportOptions()
            options.feed = "f"
            do {
                let store = try PostgresStore(connectionString: connectionString, schema: "second")
                defer { store.close() }
                let summary = try store.importFeedSynchronously(from: source, options: options)
                outcome.summary.withLock { $0 = summary }
            } catch {
                outcome.error.withLock { $0 = "\(error)" }
            }
        }
        importer.start()
        let deadline = ContinuousClock.now + .seconds(60)
        var waited = false
        while !waited && ContinuousClock.now < deadline {
            let waiting = try watcher.connection.query(
                "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'CREATE EXTENSION%' AND wait_event_type = 'Lock'", [], "wait")
            waited = waiting.first?.first == "1"
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(waited, "the import never waited for the other session's extension")
        try other.connection.execute("COMMIT", "commit")
        while !importer.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(outcome.error.withLock { $0 } == nil)
        let summary = try #require(outcome.summary.withLock { $0 })
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        #expect(try other.connection.query("SELECT ST_AsText(geom) FROM second.stops WHERE stop_id = 'A'", [], "read") == [["POINT(13.4 52.5)"]])
    }

    @Test("A user who may not create PostGIS: no geometries, a note in the summary; none when turned off")
    func withoutPostGIS() throws {
        let server = try TestServer()
        defer { server.stop() }
        let admin = try PostgresStore(connectionString: server.connectionString)
        defer { admin.close() }
        try admin.connection.execute("CREATE ROLE plain LOGIN", "create a plain user")
        try admin.connection.execute("CREATE DATABASE plain OWNER plain", "create a database")
        let folder = try TemporaryFolder()
        let path = try PostgresFailureTests.feed(Self.files, in: folder, named: "f")
        let store = try PostgresStore(connectionString: "host=\(server.folder) port=\(server.port) dbname=plain user=plain")
        defer { store.close() }
        let summary = try store.importFeed(from: try FeedSource(path: path), named: "f")
        #expect(summary.warnings.map(\.description) == [PostGIS.unavailable.description])
        #expect(summary.table(.stops)?.rowsStored == 2)
        let columns = try store.connection.query(
            "SELECT count(*) FROM information_schema.columns WHERE table_name = 'stops' AND column_name = 'geom'", [], "read")
        #expect(columns == [["0"]])

        store.usesPostGIS = false
        try "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\n".write(toFile: path + "/stops.txt", atomically: true, encoding: .utf8)
        #expect(try store.importFeed(from: try FeedSource(path: path), named: "f").warnings.isEmpty)
    }
}
