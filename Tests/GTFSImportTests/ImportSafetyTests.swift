import Dispatch
import Foundation
import Platform
import GRDB
import GTFS
@testable import GTFSImport
import Synchronization
import TestSupport
import Testing

/// What protects the data of a store from bad feeds and from other writers: the rejection limit, the lock
/// that serialises imports, the checks on the database path.
@Suite("Import safety: rejection limit, one writer at a time, database paths")
struct ImportSafetyTests {
    /// A store holding the small feed `default`, and its snapshot.
    struct Setup {
        let folder: TemporaryFolder
        let path: String
        let store: GTFSStore
        let before: [String: [String]]

        init() throws {
            folder = try TemporaryFolder()
            path = folder.file("feed.sqlite")
            store = try GTFSStore(path: path)
            _ = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(FeedFiles.feed(), in: folder, name: "old")))
            before = try FeedFiles.snapshot(store)
        }

        /// Writes a single `stops.txt` with `good` valid rows and `bad` rows whose latitude is not a number.
        func stops(good: Int, bad: Int, name: String = "stops.txt") throws -> String {
            let rows = (0 ..< good).map { "N\($0),New \($0),52.5,13.4\n" } + (0 ..< bad).map { "B\($0),Bad \($0),north,13.4\n" }
            return try folder.write("stop_id,stop_name,stop_lat,stop_lon\n" + rows.joined(), name: name)
        }
    }

    // MARK: - Rejection limit

    @Test("A file whose rows are all rejected fails the import and changes nothing (the default limit, 50%)")
    func allRowsRejected() throws {
        let setup = try Setup()
        let path = try setup.stops(good: 0, bad: 40)
        #expect {
            try setup.store.importFeedSynchronously(from: try FeedSource(path: path))
        } throws: { error in
            guard case .tooManyRejected(let file, let rejected, let read, _, let first) = error as? ImportError else { return false }
            return file == "stops.txt" && rejected == 40 && read == 40 && first?.line == 2
                && (error as? ImportError)?.description
                    == "stops.txt: 40 of 40 rows rejected, more than the limit of 50% (the first: stops.txt:2: stop_lat: \"north\" is not a decimal number)"
        }
        #expect(try FeedFiles.snapshot(setup.store) == setup.before)
    }

    @Test("The limit as a share and as a count; at the limit the import goes on", arguments: [
        (ImportOptions.RejectionLimit.share(0.5), 20, 20, true), (.share(0.5), 19, 21, false), (.share(0), 40, 1, false),
        (.share(1), 0, 40, true), (.rows(3), 10, 3, true), (.rows(3), 10, 4, false), (.rows(0), 10, 0, true),
    ])
    func limits(_ limit: ImportOptions.RejectionLimit, good: Int, bad: Int, imports: Bool) throws {
        let setup = try Setup()
        var options = ImportOptions()
        options.maxRejected = limit
        let result = Result { try setup.store.importFeedSynchronously(from: try FeedSource(path: try setup.stops(good: good, bad: bad)), options: options) }
        switch result {
        case .success(let summary):
            #expect(imports, "\(limit) should have refused \(bad) of \(good + bad)")
            #expect(summary.rowsStored == good && summary.rowsRejected == bad)
        case .failure(let error):
            #expect(!imports, "\(error)")
            #expect(try FeedFiles.snapshot(setup.store) == setup.before)
        }
    }

    @Test("An incremental import whose only new rows are rejected fails at the limit, not as \"nothing changed\"")
    func limitBeforeNoChange() throws {
        let setup = try Setup()
        let stored = try #require(FeedFiles.feed()["stops.txt"])
        let path = try setup.folder.write(stored + "B1,Bad,north,13.4\n", name: "stops.txt")
        var options = ImportOptions()
        options.maxRejected = .rows(0)
        #expect {
            try setup.store.importFeedSynchronously(from: try FeedSource(path: path), options: options)
        } throws: { error in
            guard case .tooManyRejected(let file, let rejected, _, _, _)? = error as? ImportError else { return false }
            return file == "stops.txt" && rejected == 1
        }
        #expect(try FeedFiles.snapshot(setup.store) == setup.before)
        // Within the limit, the same file is the stored one: nothing changed.
        options.maxRejected = .rows(1)
        let summary = try setup.store.importFeedSynchronously(from: try FeedSource(path: path), options: options)
        #expect(summary.changedNothing && summary.rowsRejected == 1)
    }

    @Test("Duplicate keys count towards the limit, and are rejected with their lines however many repeat")
    func repeatedRows() throws {
        let setup = try Setup()
        let rows = String(repeating: "T1,08:00:00,08:00:00,S1,1\n", count: 3000)
        let path = try setup.folder.write("trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + rows, name: "stop_times.txt")
        #expect(throws: ImportError.self) { try setup.store.importFeedSynchronously(from: try FeedSource(path: path)) }
        #expect(try FeedFiles.snapshot(setup.store) == setup.before)

        // A count limit stops a full import at the first batch past it, not after the whole file (a diff
        // refuses a group's rows when the group ends).
        var counted = ImportOptions()
        counted.maxRejected = .rows(10)
        counted.update = .full
        #expect {
            try setup.store.importFeedSynchronously(from: try FeedSource(path: path), options: counted)
        } throws: { error in
            guard case .tooManyRejected(_, let rejected, let read, _, let first)? = error as? ImportError else { return false }
            return rejected > 10 && read < 3000 && first?.line == 3
        }
        #expect(try FeedFiles.snapshot(setup.store) == setup.before)

        var options = ImportOptions()
        options.maxRejected = .share(1)
        let summary = try setup.store.importFeedSynchronously(from: try FeedSource(path: path), options: options)
        let table = try #require(summary.table(.stopTimes))
        #expect(table.rowsStored == 1 && table.rowsRejected == 2999)
        #expect(table.errors.count == options.parsing.maxStoredErrors)
        #expect(table.errors.prefix(3).map(\.description) == (3 ... 5).map {
            "stop_times.txt:\($0): (trip_id, stop_sequence) = (\"T1\", 1) repeats line 2; rejected"
        })
    }

    @Test("Option values out of range fail before the database is touched", arguments: [
        "parsing.chunkSize", "parsing.batchSize", "maxBatchesInFlight", "maxRejected", "parsing.maxIDLength", "lockWait", "feed",
        "parsing.tables", "parsing.hashesContent",
    ])
    func badOptions(_ name: String) throws {
        let folder = try TemporaryFolder()
        var options = ImportOptions()
        switch name {
        case "parsing.chunkSize": options.parsing.chunkSize = Int.max
        case "parsing.batchSize": options.parsing.batchSize = 1 << 40
        case "maxBatchesInFlight": options.maxBatchesInFlight = 0
        case "maxRejected": options.maxRejected = .share(2)
        case "parsing.maxIDLength": options.parsing.maxIDLength = -1
        // Set by the import itself: another value would be ignored, so it is refused.
        case "parsing.tables": options.parsing.tables = [.stops]
        case "parsing.hashesContent": options.parsing.hashesContent = false
        case "lockWait": options.lockWait = .seconds(-1)
        default: options.feed = ""
        }
        let path = folder.file("new.sqlite")
        let operation = ImportOperation(
            source: try FeedSource(path: try FeedFiles.directory(FeedFiles.feed(), in: folder)), databasePath: path, options: options)
        operation.start()
        guard case .failure(.invalidOption(let option, _))? = operation.result else {
            Issue.record("expected invalidOption, got \(String(describing: operation.result))")
            return
        }
        #expect(option == name)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["feed"])
    }

    // MARK: - One writer at a time

    @Test("A second import waits for the first, or fails at once with lockWait zero; removal waits too")
    func secondImportWaits() throws {
        let setup = try Setup()
        let bigger = try FeedFiles.directory(FeedFiles.feed(stops: 200, trips: 300, stopsPerTrip: 20), in: setup.folder, name: "big")
        let other = try FeedFiles.directory(FeedFiles.feed(stops: 30, namePrefix: "Other"), in: setup.folder, name: "other")
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        var options = ImportOptions()
        options.update = .full
        let first = ImportOperation(source: try FeedSource(path: bigger), store: setup.store, options: options)
        // Hold the first import inside its transaction until the checks below are done.
        first.observePhases { phase, _ in
            if phase == .buildingIndexes {
                inside.signal()
                release.wait()
            }
        }
        let firstDone = DispatchSemaphore(value: 0)
        Thread { first.start(); firstDone.signal() }.start()
        inside.wait()

        var failFast = ImportOptions()
        failFast.feed = "other"
        failFast.lockWait = .zero
        #expect {
            try setup.store.importFeedSynchronously(from: try FeedSource(path: other), options: failFast)
        } throws: { error in
            guard case .busy(let path)? = error as? ImportError else { return false }
            return path == setup.path && "\(error)" == "\(setup.path): another import or removal is writing it"
        }
        #expect(throws: ImportError.self) { try setup.store.removeFeed(named: "default", lockWait: .milliseconds(50)) }

        // A patient second import reports that it waits, then runs after the first.
        let waited = Mutex(false)
        var patient = ImportOptions()
        patient.feed = "other"
        let second = ImportOperation(source: try FeedSource(path: other), store: setup.store, options: patient) { progress in
            if progress.phase == .waiting { waited.withLock { $0 = true } }
        }
        let secondDone = DispatchSemaphore(value: 0)
        Thread { second.start(); secondDone.signal() }.start()
        #expect(secondDone.wait(timeout: .now() + .milliseconds(300)) == .timedOut, "the second import must wait")
        release.signal()
        firstDone.wait()
        secondDone.wait()
        #expect(try first.result?.get().rowsStored ?? 0 > 0)
        #expect(try second.result?.get().kind == .full)
        #expect(waited.withLock { $0 })
        #expect(try setup.store.feeds().map(\.name) == ["default", "other"])
        #expect(!FileManager.default.fileExists(atPath: setup.path + ".lock"))
    }

    @Test("Two imports started together end as if run one after the other, in either order",
          arguments: [(false, false), (false, true), (true, false), (true, true)])
    func concurrentImports(sameFeed: Bool, otherFirst: Bool) throws {
        let folder = try TemporaryFolder()
        let a = try FeedFiles.directory(FeedFiles.feed(stops: 50, trips: 60), in: folder, name: "a")
        let b = try FeedFiles.directory(FeedFiles.feed(stops: 40, trips: 30, namePrefix: "B"), in: folder, name: "b")
        let jobs = [(a, "x"), (b, sameFeed ? "x" : "y")]
        let sources = [try FeedSource(path: a), try FeedSource(path: b)]
        let path = folder.file("together.sqlite")
        // Both into the same new path: one builds the file, the other waits and imports into it.
        let results = Mutex<[Int: Result<ImportSummary, ImportError>]>([:])
        let group = DispatchGroup()
        for (index, (_, name)) in jobs.enumerated() {
            group.enter()
            Thread {
                if index == (otherFirst ? 0 : 1) { Thread.sleep(forTimeInterval: 0.01) }
                var options = ImportOptions()
                options.feed = name
                let operation = ImportOperation(source: sources[index], databasePath: path, options: options)
                operation.start()
                results.withLock { $0[index] = operation.result }
                group.leave()
            }.start()
        }
        group.wait()
        let outcome = results.withLock { $0 }
        #expect(outcome.values.allSatisfy { (try? $0.get()) != nil }, "\(outcome)")
        let together = try GTFSStore(path: path)
        let order = (try? outcome[0]?.get().importID ?? 0) ?? 0 < (try? outcome[1]?.get().importID ?? 0) ?? 0 ? [0, 1] : [1, 0]
        // The same two imports run one after the other, in the order they took the lock.
        let sequential = try GTFSStore(path: folder.file("sequential.sqlite"))
        for index in order {
            var options = ImportOptions()
            options.feed = jobs[index].1
            _ = try sequential.importFeedSynchronously(from: try FeedSource(path: jobs[index].0), options: options)
        }
        #expect(try FeedFiles.snapshot(together) == FeedFiles.snapshot(sequential))
    }

    // MARK: - The database file

    @Test("After an import the .sqlite file alone holds every row: a copy without the WAL is complete")
    func standsAlone() throws {
        let setup = try Setup()
        let wal = try FileManager.default.attributesOfItem(atPath: setup.path + "-wal")[.size] as? NSNumber
        #expect(wal?.intValue == 0)
        let copy = setup.folder.file("copy.sqlite")
        try FileManager.default.copyItem(atPath: setup.path, toPath: copy)
        let copied = try DatabaseQueue(path: copy)
        #expect(try copied.read { db in try FeedFiles.snapshot(db) } == setup.before)
        try copied.close()
        // Closing never checkpoints (so it never locks readers out): the emptied WAL stays where it is.
        try setup.store.close()
        #expect(FileManager.default.fileExists(atPath: setup.path + "-wal"))
    }

    @Test("A device, a directory or a foreign file with the GTFS application_id is refused and left as it was")
    func refusedPaths() throws {
        let folder = try TemporaryFolder()
        let feed = try FeedSource(path: try FeedFiles.directory(FeedFiles.feed(), in: folder))
        for path in ["/dev/null", folder.path] {
            let operation = ImportOperation(source: feed, databasePath: path)
            operation.start()
            guard case .failure(.store(.notAGTFSDatabase(_, let reason)))? = operation.result else {
                Issue.record("\(path): \(String(describing: operation.result))")
                continue
            }
            #expect(reason == (path == "/dev/null" ? "it is not a regular file" : "it is a directory"))
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal"))

        let foreign = folder.file("foreign.sqlite")
        let queue = try DatabaseQueue(path: foreign)
        try queue.write { db in
            try db.execute(sql: "PRAGMA application_id = \(GTFSSchema.applicationID)")
            try db.execute(sql: "CREATE TABLE stops (id INTEGER)")
        }
        try queue.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: foreign))
        let operation = ImportOperation(source: feed, databasePath: foreign)
        operation.start()
        guard case .failure(.store(.notAGTFSDatabase(_, let reason)))? = operation.result else {
            Issue.record("\(String(describing: operation.result))")
            return
        }
        #expect(reason == "it carries the GTFS application_id but not a GTFS schema (it holds stops)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["feed", "foreign.sqlite"])
    }

    @Test("A dangling symbolic link: a failed import creates nothing; a good one creates the store at the link's target")
    func danglingLink() throws {
        let folder = try TemporaryFolder()
        let link = folder.file("link.sqlite")
        try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "data/target.sqlite")
        let bad = try folder.write("stop_name\nAlexanderplatz\n", name: "stops.txt")
        let failed = ImportOperation(source: try FeedSource(path: bad), databasePath: link)
        failed.start()
        #expect(throws: ImportError.self) { try failed.result?.get() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("data")).isEmpty)

        let good = ImportOperation(source: try FeedSource(path: try FeedFiles.directory(FeedFiles.feed(), in: folder)), databasePath: link)
        good.start()
        #expect(try good.result?.get().rowsStored ?? 0 > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("data")) == ["target.sqlite"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "data/target.sqlite")
        #expect(try GTFSStore(path: link).rowCounts()[.stops] == 20)
    }

    @Test("A full import estimates the space it needs and fails early when the file system lacks it")
    func spaceEstimate() throws {
        #expect(DiskSpace.estimatedNeed(forContent: 1_000_000) == 1_500_000)
        #expect(DiskSpace.estimatedNeed(forContent: .max) == .max)
        let available = try #require(System.availableBytes(at: NSTemporaryDirectory()))
        #expect(available > 0)
        let error = ImportError.notEnoughSpace(path: "/data/gtfs.sqlite", folder: "/data", needed: 1_234_000_000, available: 300_000_000)
        #expect(error.description == "/data/gtfs.sqlite: needs about 1.2 GB in /data, 300 MB free")
    }
}
