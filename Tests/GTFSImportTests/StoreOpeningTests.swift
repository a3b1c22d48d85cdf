import Foundation
import GRDB
import GTFS
@testable import GTFSImport
import TestSupport
import Testing

@Suite("Opening a store")
struct StoreOpeningTests {
    @Test("Reopening keeps the rows and applies no migration again")
    func reopen() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("feed.sqlite")
        do {
            let store = try GTFSStore(path: path)
            let stops = try Fixtures.stops(ids: ["A", "B", "C"])
            _ = try store.pool.write { db in try TableInserter<Stop>().insert(stops, into: db) }
            try store.close()
        }
        let store = try GTFSStore(path: path)
        #expect(try store.rowCounts()[.stops] == 3)
        let migrations = try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") }
        #expect(migrations == GTFSSchema.migrator.migrations.count)
    }

    @Test("A store opens read-only for a viewer, and refuses writes")
    func readOnly() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("feed.sqlite")
        do {
            let store = try GTFSStore(path: path)
            let stops = try Fixtures.stops(ids: ["A"])
            _ = try store.pool.write { db in try TableInserter<Stop>().insert(stops, into: db) }
            try store.close()
        }
        var configuration = GTFSStore.defaultConfiguration()
        configuration.readonly = true
        let viewer = try GTFSStore(path: path, configuration: configuration)
        #expect(try viewer.rowCounts()[.stops] == 1)
        let more = try Fixtures.stops(ids: ["B"])
        #expect(throws: DatabaseError.self) {
            try viewer.pool.write { db in try TableInserter<Stop>().insert(more, into: db) }
        }
    }

    @Test("An empty file becomes a store")
    func emptyFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try GTFSStore(path: path)
        #expect(try store.rowCounts()[.stops] == 0)
    }

    @Test("A database written by a newer schema is refused with .newerSchema and left as it was")
    func newerSchema() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("feed.sqlite")
        try GTFSStore(path: path).close()
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')") }
            try queue.close()
        }
        #expect {
            try GTFSStore(path: path)
        } throws: { error in
            guard case .newerSchema(let found, let supported) = error as? StoreError else { return false }
            return found == ["v99"] && supported == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9"]
        }
        let queue = try DatabaseQueue(path: path)
        let identifiers = try queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(Set(identifiers) == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v99"])
        let message = StoreError.newerSchema(found: ["v99"], supported: ["v1", "v2"]).description
        #expect(message.contains("newer") && message.contains("v99"))
    }

    @Test("A file that is not SQLite is refused with .notAGTFSDatabase and not modified")
    func notSQLite() throws {
        let folder = try TemporaryFolder()
        var generator = SeededGenerator(seed: 42)
        for (name, count) in [("random.bin", 8192), ("short.bin", 5)] {
            let path = folder.file(name)
            let bytes = (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect {
                try GTFSStore(path: path)
            } throws: { error in
                guard case .notAGTFSDatabase(let failedPath, let reason) = error as? StoreError else { return false }
                return failedPath == path && reason.contains("not an SQLite database")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }
    }

    @Test("An SQLite database with other tables is refused with .notAGTFSDatabase and keeps its journal mode")
    func unrelatedSQLite() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("players.sqlite")
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player (name) VALUES ('Arthur')")
            }
            try queue.close()
        }
        #expect {
            try GTFSStore(path: path)
        } throws: { error in
            guard case .notAGTFSDatabase(_, let reason) = error as? StoreError else { return false }
            return reason.contains("player")
        }
        let queue = try DatabaseQueue(path: path)
        let (mode, names) = try queue.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try String.fetchAll(db, sql: "SELECT name FROM sqlite_master"))
        }
        #expect(mode == "delete")
        #expect(names == ["player"])
    }

    @Test("An SQLite database of another application (application_id) is refused, so is a directory")
    func otherApplication() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("other.sqlite")
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in try db.execute(sql: "PRAGMA application_id = 1234") }
            try queue.close()
        }
        #expect {
            try GTFSStore(path: path)
        } throws: { error in
            guard case .notAGTFSDatabase(_, let reason) = error as? StoreError else { return false }
            return reason.contains("application_id")
        }
        #expect {
            try GTFSStore(path: folder.path)
        } throws: { error in
            guard case .notAGTFSDatabase = error as? StoreError else { return false }
            return true
        }
    }

    @Test("A reader on another connection sees the last commit while a write transaction is open (WAL)")
    func snapshotIsolation() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("feed.sqlite")
        let store = try GTFSStore(path: path)
        let first = try Fixtures.stops(ids: ["A", "B"])
        let second = try Fixtures.stops(ids: ["C", "D", "E"])
        _ = try store.pool.write { db in try TableInserter<Stop>().insert(first, into: db) }
        var configuration = Configuration()
        configuration.readonly = true
        let shell = try DatabaseQueue(path: path, configuration: configuration)
        let seenDuringWrite = try store.pool.write { db in
            try TableInserter<Stop>().insert(second, into: db)
            return try shell.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM stops") }
        }
        #expect(seenDuringWrite == 2)
        #expect(try shell.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM stops") } == 5)
    }
}
