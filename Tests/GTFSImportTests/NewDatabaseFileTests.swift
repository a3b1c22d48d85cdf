import Dispatch
import Foundation
import GRDB
import GTFS
@testable import GTFSImport
import Synchronization
import TestSupport
import Testing

import Platform

/// A first import into a path that holds nothing builds the store under a temporary name and links it
/// into place whole: nothing appears at the path unless the import completes.
@Suite("ImportOperation: a first import builds a new file aside")
struct NewDatabaseFileTests {
    /// A folder with a small feed and the path of a store that does not exist yet.
    struct Setup {
        let folder: TemporaryFolder
        let feed: String
        let path: String

        init(trips: Int = 400) throws {
            folder = try TemporaryFolder()
            feed = try FeedFiles.directory(FeedFiles.feed(stops: 300, trips: trips, stopsPerTrip: 25), in: folder)
            path = folder.file("new.sqlite")
        }

        /// The names in the folder besides the feed's.
        func storeFiles() throws -> [String] { try Self.storeFiles(in: folder.path) }

        /// The names in `folder` besides the feed's.
        static func storeFiles(in folder: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != "feed" }.sorted()
        }

        func importFeed(options: ImportOptions = ImportOptions(), observe: (@Sendable (ImportOperation, ImportProgress.Phase, String) -> Void)? = nil)
            throws -> Result<ImportSummary, ImportError>
        {
            let operation = ImportOperation(source: try FeedSource(path: feed), databasePath: path, options: options)
            if let observe { operation.observePhases { [operation] phase, file in observe(operation, phase, file) } }
            operation.start()
            return try #require(operation.result)
        }
    }

    @Test("The new store gets its path only complete: WAL mode, every row, an intact file, nothing else left")
    func completes() throws {
        let setup = try Setup()
        let seenWhileLoading = Mutex<[String]?>(nil)
        let folder = setup.folder.path
        let result = try setup.importFeed { _, _, file in
            if file == "stop_times.txt" { seenWhileLoading.withLock { $0 = try? Setup.storeFiles(in: folder) } }
        }
        let summary = try result.get()
        #expect(summary.table(.stopTimes)?.rowsStored == 400 * 25)
        // While it loaded, the path held nothing; the store was being built under its temporary name, beside
        // its lock file, and the import held the database's lock file.
        let during = try #require(seenWhileLoading.withLock { $0 })
        #expect(during.count == 3 && during[0].hasPrefix("new.sqlite.importing-") && during[1] == during[0] + "-lock"
            && during[2] == "new.sqlite.lock", "\(during)")
        #expect(try setup.storeFiles() == ["new.sqlite"])

        let queue = try DatabaseQueue(path: setup.path)
        let facts: [String?] = try queue.read { db in
            [
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; "),
                try Int.fetchOne(db, sql: "PRAGMA page_size").map(String.init),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM stop_times").map(String.init),
                try String.fetchOne(db, sql: "SELECT outcome FROM imports"),
            ]
        }
        #expect(facts == ["wal", "ok", "\(GTFSStore.pageSize)", "\(400 * 25)", "completed"])
        try queue.close()
        // It opens as a store, and the next import of the same feed changes nothing.
        let store = try GTFSStore(path: setup.path)
        #expect(try store.importFeedSynchronously(from: try FeedSource(path: setup.feed)).changedNothing)
        try store.close()
    }

    @Test("A cancel or a failure at any point leaves no file at the path and no temporary file",
          arguments: ["stops.txt", "stop_times.txt", "buildingIndexes", "checkingReferences", "committing", "strict"])
    func failureLeavesNothing(point: String) throws {
        let setup = try Setup()
        var options = ImportOptions()
        if point == "strict" {
            options.parsing.strict = true
            let file = setup.feed + "/stop_times.txt"
            let text = try String(contentsOfFile: file, encoding: .utf8)
            try Data((text + "T1,07:00:00,07:00:00,S1,x\n").utf8).write(to: URL(fileURLWithPath: file))
        }
        let result = try setup.importFeed(options: options) { operation, phase, file in
            if phase.rawValue == point || file == point { operation.cancel() }
        }
        guard case .failure(let error) = result else {
            Issue.record("the import completed")
            return
        }
        if point == "strict" {
            guard case .invalidFeed(let problem) = error else { throw error }
            #expect(problem.file == "stop_times.txt" && problem.column == "stop_sequence")
        } else {
            #expect(error.isCancellation)
        }
        #expect(try setup.storeFiles() == [])
    }

    @Test("A file another process creates at the path meanwhile is left alone, and the import says so")
    func pathTakenMeanwhile() throws {
        let setup = try Setup()
        let target = setup.path
        let result = try setup.importFeed { _, phase, _ in
            guard phase == .committing else { return }
            do {
                let other = try GTFSStore(path: target)
                try other.close()
            } catch {
                Issue.record("could not create the other store: \(error)")
            }
        }
        guard case .failure(.database(let path, let message, _)) = result else {
            Issue.record("expected a database error, got \(result)")
            return
        }
        #expect(path == setup.path)
        #expect(message.contains("another process created"), "\(message)")
        // The other store is intact and empty; the new one is gone.
        let store = try GTFSStore(path: setup.path)
        #expect(try store.rowCounts().values.reduce(0, +) == 0)
        try store.close()
        #expect(try setup.storeFiles().allSatisfy { !$0.contains(".importing-") })
    }

    @Test("The next import deletes what a killed import left, but not the file of an import still running")
    func leftovers() throws {
        let setup = try Setup(trips: 10)
        // A killed import's file with its journal and its lock file (nobody holds it); the lock file alone
        // of an import killed before it created its file; a file of an earlier version, which locked the file
        // itself; and a running import's file with its lock file (locked).
        let killed = setup.path + NewDatabaseFile.marker + "0badf00d"
        let killedEarly = setup.path + NewDatabaseFile.marker + "5ca1ab1e"
        let earlier = setup.path + NewDatabaseFile.marker + "e4e1e4e1"
        let running = setup.path + NewDatabaseFile.marker + "1234abcd"
        let lock = NewDatabaseFile.lockSuffix
        for file in [killed, killed + "-journal", killed + lock, killedEarly + lock, earlier, running, running + lock] {
            #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        }
        let descriptor = open(running + lock, O_RDWR)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)

        _ = try setup.importFeed().get()
        #expect(try setup.storeFiles() == ["new.sqlite", "new.sqlite.importing-1234abcd", "new.sqlite.importing-1234abcd-lock"])
        // An import into the existing store cleans up too, once the lock is gone.
        flock(descriptor, LOCK_UN)
        let store = try GTFSStore(path: setup.path)
        _ = try store.importFeedSynchronously(from: try FeedSource(path: setup.feed))
        try store.close()
        #expect(try setup.storeFiles().filter { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") } == ["new.sqlite"])
    }

    @Test("Batched mode creates the store at its path at once, so a live view can watch rows arrive")
    func batchedWritesInPlace() throws {
        let setup = try Setup()
        var options = ImportOptions()
        options.mode = .batched(rowsPerCommit: 1000)
        let visible = Mutex<Int>(-1)
        let target = setup.path
        let result = try setup.importFeed(options: options) { _, phase, _ in
            guard phase == .buildingIndexes else { return }
            visible.withLock { $0 = (try? DatabaseQueue(path: target).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM stop_times") }) ?? -2 }
        }
        _ = try result.get()
        // Before the last commit, the commits of every 1,000 rows are visible at the path.
        let seen = visible.withLock { $0 }
        #expect(seen >= 1000 && seen < 400 * 25, "\(seen)")
    }
}
