import Foundation
import GRDB
import GTFS
@testable import GTFSImport
import Synchronization
import TestSupport
import Testing

@Suite("A full import of a database's only feed: built aside and switched in, or in place")
struct ReplacedDatabaseTests {
    static func run(_ directory: String, into path: String, full: Bool = true, strict: Bool = false) -> Result<ImportSummary, ImportError>? {
        var options = ImportOptions()
        options.update = full ? .full : .automatic
        options.parsing.strict = strict
        guard let source = try? FeedSource(path: directory) else { return nil }
        let operation = ImportOperation(source: source, databasePath: path, options: options)
        operation.start()
        return operation.result
    }

    static func inode(_ path: String) throws -> UInt64 {
        try #require((try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber)?.uint64Value)
    }

    static func imports(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try GRDB.Row.fetchAll(db, sql: "SELECT import_id, kind, outcome, rows_inserted, rows_deleted FROM imports ORDER BY import_id").map(\.description)
        }
    }

    /// Every row of every GTFS table without its feed's number, sorted.
    static func rows(_ store: GTFSStore) throws -> [String: [String]] {
        try store.pool.read { db in
            var result: [String: [String]] = [:]
            for file in GTFSFile.allCases {
                let table = StoreTable(file)
                result[table.name] = try GRDB.Row.fetchAll(db, sql: "SELECT \(table.columns.joined(separator: ", ")) FROM \(table.name)")
                    .map(\.description).sorted()
            }
            return result
        }
    }

    @Test("The only feed: a new file with the new rows, the history carried over, nothing left beside it")
    func switchedIn() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("feed.sqlite")
        let first = try FeedFiles.directory(FeedFiles.feed(stops: 20), in: folder, name: "first")
        let second = try FeedFiles.directory(FeedFiles.feed(stops: 30, namePrefix: "Halt"), in: folder, name: "second")
        // The feed is number 2: feed 1 was removed.
        var options = ImportOptions()
        options.feed = "gone"
        let gone = ImportOperation(source: try FeedSource(path: first), databasePath: path, options: options)
        gone.start()
        _ = try #require(gone.result).get()
        _ = try #require(Self.run(first, into: path, full: false)).get()
        do {
            let store = try GTFSStore(path: path)
            #expect(try store.removeFeed(named: "gone") != nil)
            try store.close()
        }
        _ = try #require(Self.run(second, into: path, full: false)).get()
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let before = try Self.inode(path)

        let summary = try #require(Self.run(first, into: path)).get()
        #expect(try Self.inode(path) != before, "the file was switched")
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        #expect(summary.kind == .full)
        #expect(summary.table(.stops)?.changes.deleted == 30 && summary.table(.stops)?.rowsStored == 20)

        // The same rows as a fresh import of the feed, and the history goes on.
        _ = try #require(Self.run(first, into: folder.file("fresh.sqlite"), full: false)).get()
        let store = try GTFSStore(path: path)
        let fresh = try GTFSStore(path: folder.file("fresh.sqlite"))
        #expect(try Self.rows(store) == Self.rows(fresh))
        #expect(try store.stops(named: "stop 1").count > 0 && store.stops(named: "halt").isEmpty)
        let history = try Self.imports(path)
        #expect(history.count == 4)
        #expect(history.last?.contains("import_id:4 kind:\"full\" outcome:\"completed\"") == true, "\(history)")
        let deleted = summary.tables.reduce(0) { $0 + $1.changes.deleted }
        #expect(deleted > 0 && history.last?.contains("rows_deleted:\(deleted)") == true, "\(history)")
        let feeds = try store.feeds()
        #expect(feeds.map(\.name) == ["default"] && feeds.first?.importCount == 3 && feeds.first?.id == 2)
        #expect(try store.pool.read { db in try Int64.fetchOne(db, sql: "SELECT import_id FROM feeds") } == 4)
        try store.close()
        try fresh.close()
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("feed.sqlite") }
        #expect(Set(leftovers).isSubset(of: ["feed.sqlite", "feed.sqlite-wal", "feed.sqlite-shm", "feed.sqlite.lock"]), "\(leftovers)")
    }

    @Test("An open connection, another feed or a table of the user's own: the feed is replaced in place")
    func inPlace() throws {
        let folder = try TemporaryFolder()
        let feed = try FeedFiles.directory(FeedFiles.feed(), in: folder)

        // A reader has the file open: it sees the new version after the commit.
        let path = folder.file("open.sqlite")
        _ = try #require(Self.run(feed, into: path, full: false)).get()
        let reader = try DatabaseQueue(path: path)
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM imports") } == 1)
        let inode = try Self.inode(path)
        _ = try #require(Self.run(feed, into: path)).get()
        #expect(try Self.inode(path) == inode)
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM imports") } == 2)
        try reader.close()

        // Another feed.
        let two = folder.file("two.sqlite")
        _ = try #require(Self.run(feed, into: two, full: false)).get()
        var options = ImportOptions()
        options.feed = "other"
        let other = ImportOperation(source: try FeedSource(path: feed), databasePath: two, options: options)
        other.start()
        _ = try #require(other.result).get()
        let twoInode = try Self.inode(two)
        _ = try #require(Self.run(feed, into: two)).get()
        #expect(try Self.inode(two) == twoInode)
        #expect(try GTFSStore(path: two).feeds().map(\.name) == ["default", "other"])

        // A table the schema does not have.
        let own = folder.file("own.sqlite")
        _ = try #require(Self.run(feed, into: own, full: false)).get()
        try DatabaseQueue(path: own).write { db in try db.execute(sql: "CREATE TABLE my_notes (note TEXT); INSERT INTO my_notes VALUES ('keep me')") }
        let ownInode = try Self.inode(own)
        _ = try #require(Self.run(feed, into: own)).get()
        #expect(try Self.inode(own) == ownInode)
        #expect(try DatabaseQueue(path: own).read { db in try String.fetchOne(db, sql: "SELECT note FROM my_notes") } == "keep me")
    }

    @Test("A connection opened while the new file is built: the switch is given up, and the feed replaced in place")
    func openedDuringTheBuild() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("feed.sqlite")
        let first = try FeedFiles.directory(FeedFiles.feed(stops: 20), in: folder, name: "first")
        let second = try FeedFiles.directory(FeedFiles.feed(stops: 30, namePrefix: "Halt"), in: folder, name: "second")
        _ = try #require(Self.run(first, into: path, full: false)).get()
        let inode = try Self.inode(path)
        var options = ImportOptions()
        options.update = .full
        let operation = ImportOperation(source: try FeedSource(path: second), databasePath: path, options: options)
        let reader = Mutex<DatabaseQueue?>(nil)
        operation.observePhases { phase, _ in
            guard phase == .buildingIndexes else { return }
            reader.withLock { reader in
                guard reader == nil, let queue = try? DatabaseQueue(path: path) else { return }
                _ = try? queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM stops") }
                reader = queue
            }
        }
        operation.start()
        let summary = try #require(operation.result).get()
        let queue = try #require(reader.withLock { $0 })
        #expect(try Self.inode(path) == inode, "replaced in place")
        #expect(summary.table(.stops)?.rowsStored == 30)
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM stops WHERE stop_name LIKE 'Halt%'") } == 30)
        #expect(try Self.imports(path).count == 2)
        try queue.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains(".importing-") })
    }

    @Test("A failed replacement leaves the old file as it was, records the failure, and leaves no file beside it")
    func failure() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("feed.sqlite")
        var files = FeedFiles.feed()
        _ = try #require(Self.run(try FeedFiles.directory(files, in: folder, name: "good"), into: path, full: false)).get()
        let inode = try Self.inode(path)
        let before = try DatabaseQueue(path: path).read { db in try FeedFiles.snapshot(db) }
        files["stops.txt"] = (files["stops.txt"] ?? "") + "BAD,Bad stop,north,13.4\n"
        let result = try #require(Self.run(try FeedFiles.directory(files, in: folder, name: "bad"), into: path, strict: true))
        guard case .failure(let error) = result else {
            Issue.record("the strict import succeeded")
            return
        }
        #expect(error.description.contains("stop_lat"))
        #expect(try Self.inode(path) == inode)
        let after = try DatabaseQueue(path: path).read { db in try FeedFiles.snapshot(db) }
        #expect(after == before)
        #expect(try Self.imports(path).last?.contains("outcome:\"failed\"") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains(".importing-") })
    }
}
