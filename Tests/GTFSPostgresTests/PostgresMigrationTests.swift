import Foundation
import GTFS
@testable import GTFSPostgres
import TestSupport
import Testing

/// A schema's version: a schema an earlier version wrote is brought up to date on its first write, a
/// later version's migration runs on a schema this one wrote, and a schema of a later version is refused.
@Suite("PostgreSQL store: schema versions and migrations", .serialized)
struct PostgresMigrationTests {
    static func version(_ store: PostgresStore) throws -> String? {
        try store.connection.query("SELECT value FROM gtfs.gtfs_meta WHERE key = 'schema_version'", [], "read").first?.first ?? nil
    }

    @Test("Before versions, a later version's column, and a schema of a later version refused")
    func migrations() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let first = try PostgresFailureTests.feed(["stops.txt": PostgresFailureTests.stops], in: folder, named: "first")
        let second = try PostgresFailureTests.feed(
            ["stops.txt": PostgresFailureTests.stops.replacingOccurrences(of: "Beta", with: "Beta Nord")], in: folder, named: "second")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        store.usesPostGIS = false
        _ = try store.importFeed(from: try FeedSource(path: first), named: "f")
        let latest = PostgresSchemaVersion.latest(PostgresSchemaVersion.migrations)
        #expect(try Self.version(store) == "\(latest)")

        // A schema as versions before gtfs_meta wrote it (version 1: no words of names, no latitude index).
        _ = try store.importFeed(from: try FeedSource(path: first), named: "g")
        try store.connection.execute(
            "DROP TABLE gtfs.gtfs_meta; DROP TABLE gtfs.stop_name_words; DROP INDEX gtfs.stops_latitude; DROP TABLE gtfs.changes; DROP TABLE gtfs.feed_checks",
            "make version 1")
        let early = #expect(throws: PostgresError.self) { try store.stops(named: "alpha", feed: "g") }
        #expect(early?.message.contains("was written by an earlier version and has no index of names yet") == true)
        // Its first write migrates it: the words of every feed's names (version 2), not only the imported
        // one's, and the kept changes (version 3).
        _ = try store.importFeed(from: try FeedSource(path: second), named: "f")
        #expect(try Self.version(store) == "\(latest)")
        #expect(try store.stops(named: "alpha", feed: "g").map(\.stopID) == ["A"])
        #expect(try store.stops(named: "nord", feed: "f").map(\.stopID) == ["B"])
        let added = try store.connection.query(
            """
            SELECT (SELECT count(*) FROM pg_indexes WHERE indexname = 'stops_latitude'), to_regclass('gtfs.changes') IS NOT NULL,
                to_regclass('gtfs.feed_checks') IS NOT NULL
            """, [], "read")
        #expect(added == [["1", "t", "t"]])

        // A later version adds a column: its migration runs on this schema's first write, which imports.
        let later = try PostgresStore(connectionString: server.connectionString)
        defer { later.close() }
        later.usesPostGIS = false
        later.migrations = PostgresSchemaVersion.migrations + [
            PostgresMigration(version: latest + 1) { schema in ["ALTER TABLE \(schema).stops ADD COLUMN stop_note text"] }
        ]
        let summary = try later.importFeed(from: try FeedSource(path: first), named: "f")
        #expect(summary.table(.stops)?.changes.updated == 1)
        #expect(try Self.version(later) == "\(latest + 1)")
        let note = try later.connection.query(
            "SELECT count(*) FROM information_schema.columns WHERE table_schema = 'gtfs' AND table_name = 'stops' AND column_name = 'stop_note'",
            [], "read")
        #expect(note == [["1"]])

        // This version refuses to write the later version's schema, and changes nothing.
        #expect {
            _ = try store.importFeed(from: try FeedSource(path: second), named: "f")
        } throws: { error in
            "\(error)".contains("was written by a later version of gtfs-import (schema version \(latest + 1); this one knows up to \(latest))")
        }
        #expect(throws: PostgresError.self) { try store.removeFeed(named: "f", lockWait: nil) }
        #expect(try store.rowCounts(feed: "f") == [.stops: 2])
        let name = "SELECT stop_name FROM gtfs.stops WHERE stop_id = 'B' AND feed = (SELECT feed FROM gtfs.feeds WHERE name = 'f')"
        #expect(try store.connection.query(name, [], "read") == [["Beta"]])
    }

    @Test("An import that changes nothing, or the removal of a feed the schema lacks, still migrates it")
    func migratedWithoutChange() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let feed = try PostgresFailureTests.feed(["stops.txt": PostgresFailureTests.stops], in: folder, named: "feed")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        store.usesPostGIS = false
        _ = try store.importFeed(from: try FeedSource(path: feed), named: "f")
        let latest = PostgresSchemaVersion.latest(PostgresSchemaVersion.migrations)
        func later(_ version: Int) throws -> PostgresStore {
            let later = try PostgresStore(connectionString: server.connectionString)
            later.usesPostGIS = false
            later.migrations = PostgresSchemaVersion.migrations + (latest + 1 ... version).map { version in
                PostgresMigration(version: version) { schema in ["ALTER TABLE \(schema).stops ADD COLUMN note_\(version) text"] }
            }
            return later
        }
        let second = try later(latest + 1)
        defer { second.close() }
        #expect(try second.importFeed(from: try FeedSource(path: feed), named: "f").changedNothing)
        #expect(try Self.version(second) == "\(latest + 1)")
        let third = try later(latest + 2)
        defer { third.close() }
        #expect(try third.removeFeed(named: "nothing", lockWait: nil) == nil)
        #expect(try Self.version(third) == "\(latest + 2)")
        #expect(try third.rowCounts(feed: "f") == [.stops: 2])
    }
}
