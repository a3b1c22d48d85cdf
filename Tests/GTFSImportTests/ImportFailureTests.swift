import Dispatch
import Foundation
import GRDB
import GTFS
@testable import GTFSImport
import Synchronization
import TestSupport
import Testing

/// Every way an import can fail leaves the earlier content unchanged (atomic mode).
@Suite("ImportOperation: failures and cancels leave the database unchanged")
struct ImportFailureTests {
    /// A store holding a first feed, with its snapshot, and a second, larger feed ready to import.
    struct Setup {
        let folder: TemporaryFolder
        let store: GTFSStore
        let before: [String: [String]]
        let next: String

        init(configuration: Configuration = GTFSStore.defaultConfiguration(), trips: Int = 400, stopsPerTrip: Int = 25) throws {
            folder = try TemporaryFolder()
            let path = folder.file("feed.sqlite")
            let first = try GTFSStore(path: path)
            _ = try first.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(FeedFiles.feed(), in: folder, name: "old")))
            before = try FeedFiles.snapshot(first)
            try first.close()
            store = try GTFSStore(path: path, configuration: configuration)
            next = try FeedFiles.directory(
                FeedFiles.feed(stops: 300, trips: trips, stopsPerTrip: stopsPerTrip, namePrefix: "Neu"), in: folder, name: "new")
        }

        func expectUnchanged(sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try FeedFiles.snapshot(store) == before, sourceLocation: sourceLocation)
        }
    }

    @Test("Cancel before the start, while loading each file, while building indexes and while checking references",
          arguments: ["start", "stops.txt", "trips.txt", "stop_times.txt", "buildingIndexes", "checkingReferences"])
    func cancelAtEveryPoint(point: String) throws {
        let setup = try Setup()
        let operation = ImportOperation(source: try FeedSource(path: setup.next), store: setup.store)
        let cancelledAt = Mutex<ContinuousClock.Instant?>(nil)
        operation.observePhases { phase, fileName in
            if phase.rawValue == point || fileName == point {
                cancelledAt.withLock { $0 = .now }
                operation.cancel()
            }
        }
        if point == "start" {
            cancelledAt.withLock { $0 = .now }
            operation.cancel()
        }
        operation.start()
        let finishedAt = ContinuousClock.now
        let result = try #require(operation.result)
        guard case .failure(let error) = result, error.isCancellation else {
            Issue.record("expected a cancel, got \(result)")
            return
        }
        #expect(error.stoppedAt == nil)
        #expect(error.description == "cancelled; the database is unchanged")
        let latency = finishedAt - (cancelledAt.withLock { $0 } ?? finishedAt)
        // The target (100 ms) is measured in Benchmarks/; this only catches a cancel that is not honoured.
        #expect(latency < .seconds(2), "cancel took \(latency)")
        try setup.expectUnchanged()
    }

    @Test("A cancel from another thread in the middle of a long index build interrupts SQLite")
    func cancelDuringIndexBuild() throws {
        let setup = try Setup(trips: 2000, stopsPerTrip: 40)
        let operation = ImportOperation(source: try FeedSource(path: setup.next), store: setup.store)
        operation.observePhases { phase, _ in
            if phase == .buildingIndexes {
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) { operation.cancel() }
            }
        }
        operation.start()
        let result = try #require(operation.result)
        // On a machine so slow that the index build and the commit finish within 2 ms, the import
        // completes; anything else is a cancel with the old content.
        if case .failure(let error) = result {
            #expect(error.isCancellation)
            try setup.expectUnchanged()
        } else {
            #expect(try setup.store.rowCounts()[.stopTimes] == 80_000)
        }
    }

    @Test("A full disk (a tiny max_page_count) fails with SQLite's message and changes nothing")
    func fullDisk() throws {
        var configuration = GTFSStore.defaultConfiguration()
        // A few pages more than the store holds: it opens, and the import runs out of room.
        configuration.prepareDatabase { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages + 8)")
        }
        let setup = try Setup(configuration: configuration)
        #expect {
            try setup.store.importFeedSynchronously(from: try FeedSource(path: setup.next))
        } throws: { error in
            guard let error = error as? ImportError, case .database(let path, _, _) = error else { return false }
            return path == setup.store.path && error.resultCode == .SQLITE_FULL
        }
        try setup.expectUnchanged()
    }

    @Test("A database opened read-only fails with SQLite's message and changes nothing")
    func readOnly() throws {
        var configuration = GTFSStore.defaultConfiguration()
        configuration.readonly = true
        let setup = try Setup(configuration: configuration)
        #expect {
            try setup.store.importFeedSynchronously(from: try FeedSource(path: setup.next))
        } throws: { error in
            guard let error = error as? ImportError, case .database(_, let message, _) = error else { return false }
            return error.resultCode?.primaryResultCode == .SQLITE_READONLY && message.contains("readonly")
        }
        try setup.expectUnchanged()
    }

    @Test("A gzip corrupted in the middle fails, naming the file, and changes nothing")
    func corruptGzip() throws {
        let setup = try Setup()
        let text = try String(contentsOfFile: setup.next + "/stop_times.txt", encoding: .utf8)
        var gzip = Deflate.gzip(Array(text.utf8))
        for index in gzip.count / 2 ..< gzip.count / 2 + 64 { gzip[index] ^= 0x5A }
        let path = setup.folder.file("stop_times.txt.gz")
        try Data(gzip).write(to: URL(fileURLWithPath: path))
        #expect {
            try setup.store.importFeedSynchronously(from: try FeedSource(path: path))
        } throws: { error in
            guard case .invalidFeed(let problem) = error as? ImportError else { return false }
            return problem.kind == .unreadable && problem.file == path && problem.message.hasPrefix("corrupt gzip data")
        }
        try setup.expectUnchanged()
    }

    @Test("Strict mode: a bad row, or a duplicate key, stops the import with its line and changes nothing",
          arguments: ["T5,07:00:00,07:00:00,S1,x\n", "T0,07:00:00,07:00:00,S1,1\n"])
    func strictBadRow(row: String) throws {
        let setup = try Setup()
        var options = ImportOptions()
        options.parsing.strict = true
        let path = setup.next + "/stop_times.txt"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try Data((text + row).utf8).write(to: URL(fileURLWithPath: path))
        let line = text.split(separator: "\n").count + 1
        #expect {
            try setup.store.importFeedSynchronously(from: try FeedSource(path: setup.next), options: options)
        } throws: { error in
            guard case .invalidFeed(let problem) = error as? ImportError else { return false }
            return problem.file == "stop_times.txt" && problem.line == line
        }
        try setup.expectUnchanged()
        // Lenient, the same feed imports with that one row rejected.
        let summary = try setup.store.importFeedSynchronously(from: try FeedSource(path: setup.next))
        #expect(summary.table(.stopTimes)?.rowsRejected == 1)
        #expect(summary.table(.stopTimes)?.errors.first?.line == line)
    }

    @Test("A reader sees the old feed while an import writes, then the whole new one")
    func readerSnapshot() throws {
        let setup = try Setup()
        let operation = ImportOperation(source: try FeedSource(path: setup.next), store: setup.store)
        let seen = Mutex<[[String: [String]]]>([])
        let path = setup.store.path
        operation.observePhases { phase, fileName in
            guard fileName == "stop_times.txt" || phase == .committing else { return }
            // Another connection, as the sqlite3 shell or an app's list view would have.
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                defer { done.signal() }
                do {
                    let viewer = try DatabaseQueue(path: path)
                    let snapshot = try viewer.read { db in try FeedFiles.snapshot(db) }
                    seen.withLock { $0.append(snapshot) }
                    try viewer.close()
                } catch {
                    Issue.record("reader failed: \(error)")
                }
            }
            done.wait()
        }
        operation.start()
        _ = try #require(try operation.result?.get())
        let snapshots = seen.withLock { $0 }
        #expect(snapshots.count == 2)
        #expect(snapshots.allSatisfy { $0 == setup.before })
        let after = try FeedFiles.snapshot(setup.store)
        #expect(after["stop_times"]?.count == 10_000)
        #expect(after["stops"]?.first?.contains("Neu") == true)
    }

    @Test("Batched mode: a live view sees committed rows; a cancel keeps them and records where it stopped")
    func batchedMode() throws {
        let setup = try Setup()
        var options = ImportOptions()
        options.mode = .batched(rowsPerCommit: 1000)
        options.parsing.batchSize = 500
        let operation = ImportOperation(source: try FeedSource(path: setup.next), store: setup.store, options: options)
        let path = setup.store.path
        let visible = Mutex<Int>(-1)
        operation.observePhases { phase, _ in
            guard phase == .buildingIndexes else { return }
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                defer { done.signal() }
                visible.withLock { $0 = (try? DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM stop_times") }) ?? -2 }
            }
            done.wait()
            operation.cancel()
        }
        operation.start()
        let error = try #require(operation.result.flatMap { result -> ImportError? in
            if case .failure(let error) = result { return error }
            return nil
        })
        let point = try #require(error.stoppedAt)
        #expect(point.fileName == "stop_times.txt")
        // The last transaction (at least one batch) was rolled back; every earlier commit stays, and the
        // live view saw exactly those rows.
        #expect(point.rowsCommitted > 0 && point.rowsCommitted <= 10_000 - 500)
        #expect(visible.withLock { $0 } == point.rowsCommitted)
        let counts = try setup.store.rowCounts()
        #expect(counts[.stopTimes] == point.rowsCommitted && counts[.stops] == 300)
        #expect(point.rowsCommittedByTable[.stopTimes] == point.rowsCommitted && point.rowsCommittedByTable[.trips] == 400)
        let recorded = try setup.store.pool.read { db in try String.fetchOne(db, sql: "SELECT value FROM gtfs_meta WHERE key = 'import_stopped_at'") }
        #expect(recorded == "stop_times.txt after \(point.rowsCommitted) rows")

        // A complete batched import stores everything and clears the stop point.
        let summary = try setup.store.importFeedSynchronously(from: try FeedSource(path: setup.next), options: options)
        #expect(summary.table(.stopTimes)?.rowsStored == 10_000)
        #expect(try setup.store.pool.read { db in try String.fetchOne(db, sql: "SELECT value FROM gtfs_meta WHERE key = 'import_stopped_at'") } == nil)
    }

    @Test("Progress: bounded reports even to a slow receiver, in order of phases, ending at 100%")
    func progressIsThrottled() throws {
        let setup = try Setup(trips: 2000, stopsPerTrip: 25)
        let received = Mutex<[ImportProgress]>([])
        let queue = DispatchQueue(label: "test.slow-receiver")
        let finished = DispatchSemaphore(value: 0)
        var options = ImportOptions()
        options.parsing.batchSize = 64  // many batches: many chances to report
        let operation = ImportOperation(source: try FeedSource(path: setup.next), store: setup.store, options: options, progressQueue: queue) {
            progress in
            received.withLock { $0.append(progress) }
            Thread.sleep(forTimeInterval: 0.02)  // a busy main queue
            if progress.phase == .finished { finished.signal() }
        }
        operation.start()
        #expect(finished.wait(timeout: .now() + 30) == .success)
        let reports = received.withLock { $0 }
        #expect(operation.progressReportCount == reports.count)
        // At most one per 1% of the input while loading, plus one per later phase and the last.
        #expect(reports.count <= 100 + 5, "\(reports.count) reports")
        #expect(reports.last?.phase == .finished)
        #expect(reports.last?.fractionCompleted == 1)
        #expect(reports.last?.rowsByTable[.stopTimes] == 50_000)
        for report in reports where report.phase == .loading {
            #expect(report.table == GTFSFile(fileName: report.fileName), "\(report.fileName)")
        }
        let fractions = reports.compactMap(\.fractionCompleted)
        #expect(fractions == fractions.sorted())
    }

    @Test("async: cancelling the task cancels the import, and the database stays as it was")
    func asyncCancel() async throws {
        let setup = try Setup(trips: 2000, stopsPerTrip: 25)
        // stop_times through a named pipe that stays open until after the cancel: the import cannot end first.
        let fifo = setup.folder.file("stop_times.txt")
        #expect(mkfifo(fifo, 0o600) == 0)
        let text = try String(contentsOfFile: setup.next + "/stop_times.txt", encoding: .utf8)
        let release = DispatchSemaphore(value: 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            // Less than a pipe holds (64 KiB), so this write never waits for a reader that is gone.
            handle.write(Data(text.utf8.prefix(50_000)))
            release.wait()
            try? handle.close()  // the reader may be gone already: nothing to report
        }
        writer.start()
        let started = AsyncStream<Void>.makeStream()
        let store = setup.store
        let task = Task {
            try await store.importFeed(from: .file(path: fifo, table: nil)) { progress in
                if progress.phase == .loading && progress.rowsStored > 0 { started.continuation.yield() }
            }
        }
        for await _ in started.stream { break }
        task.cancel()
        await #expect {
            try await task.value
        } throws: { error in
            (error as? ImportError)?.isCancellation == true
        }
        release.signal()
        try setup.expectUnchanged()
        // Without a cancel, the same call completes.
        let summary = try await setup.store.importFeed(from: try FeedSource(path: setup.next))
        #expect(summary.table(.stopTimes)?.rowsStored == 50_000)
    }
}

@Suite("ImportOptions.beforeCommit: runs after the last change, and its error rolls the import back")
struct BeforeCommitTests {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "the change log is full" }
    }

    @Test("Into a store that holds a feed, and into a path that holds nothing")
    func refused() throws {
        let setup = try ImportFailureTests.Setup()
        let changes = Mutex(0)
        let seenAtCommit = Mutex<Int?>(nil)
        var options = ImportOptions()
        options.changeHandler = { _ in changes.withLock { $0 += 1 } }
        options.beforeCommit = {
            seenAtCommit.withLock { $0 = changes.withLock { $0 } }
            throw Refused()
        }
        let inPlace = ImportOperation(source: try FeedSource(path: setup.next), store: setup.store, options: options)
        inPlace.start()
        guard case .failure(.commitRefused(let reason))? = inPlace.result else {
            Issue.record("expected a refused commit, got \(String(describing: inPlace.result))")
            return
        }
        #expect(reason == "the change log is full")
        // Called once every change had been told.
        #expect(seenAtCommit.withLock { $0 } == changes.withLock { $0 })
        #expect(changes.withLock { $0 } > 0)
        try setup.expectUnchanged()

        let newPath = setup.folder.file("new.sqlite")
        let operation = ImportOperation(source: try FeedSource(path: setup.next), databasePath: newPath, options: options)
        operation.start()
        guard case .failure(.commitRefused(let reason))? = operation.result else {
            Issue.record("expected a refused commit, got \(String(describing: operation.result))")
            return
        }
        #expect(reason == "the change log is full")
        #expect(!FileManager.default.fileExists(atPath: newPath))

        // Not asked for an import in batches.
        options.mode = .batched(rowsPerCommit: 10)
        options.changeHandler = nil
        #expect(throws: ImportError.self) { try options.validate() }
    }
}
