import Dispatch
import Foundation
import GRDB
import GTFS
@testable import GTFSImport
import Synchronization
import TestSupport
import Testing

@Suite("ImportOperation: results")
struct ImportOperationTests {
    @Test("The Berlin 2025 subset imports with every row accounted for, references checked and values intact")
    func berlinSubset() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("vbb.sqlite"))
        let source = try FeedSource(path: Fixtures.berlin.appendingPathComponent("vbb-2025-subset").path)
        let summary = try store.importFeedSynchronously(from: source)

        let expected: [GTFSFile: Int] = [
            .agency: 4, .stops: 634, .routes: 82, .trips: 11427, .calendar: 285, .calendarDates: 9578,
            .transfers: 1030, .pathways: 176, .levels: 202, .frequencies: 0,
        ]
        let counts = try store.rowCounts()
        for (file, count) in expected {
            #expect(counts[file] == count, "\(file.fileName)")
            #expect(summary.table(file)?.rowsStored == count, "\(file.fileName)")
        }
        for table in summary.tables {
            #expect(table.rowsStored + table.rowsRejected == table.rowsRead, "\(table.fileName)")
        }
        #expect(summary.rowsRejected == 0)
        #expect(summary.replacedTables == GTFSFile.allCases)
        #expect(summary.duration > .zero)
        #expect(summary.integrity.checksRun == ReferenceCheck.all.count)
        // The subset has no shapes.txt and only some of the stops: the report says so, with examples.
        let shapes = try #require(summary.integrity.findings.first { $0.file == .trips && $0.column == "shape_id" })
        #expect(shapes.rowCount > 0 && shapes.examples.count == 5)
        #expect(shapes.description.hasPrefix("trips.shape_id → shapes.shape_id: "))

        try store.pool.read { db in
            let name = try String.fetchOne(db, sql: "SELECT stop_name FROM stops WHERE stop_id = 'de:11000:900007104::2'")
            #expect(name == "S Nordbahnhof (Berlin)")
            let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'stop_times_stop'")
            #expect(indexes == ["stop_times_stop"])
            let source = try String.fetchOne(db, sql: "SELECT value FROM gtfs_meta WHERE key = 'last_import_source'")
            #expect(source?.hasSuffix("vbb-2025-subset") == true)
        }
    }

    @Test("The 2013 stops.txt.gz, the original design's file, imports all 12,793 stops")
    func berlin2013Gzip() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("vbb.sqlite"))
        let source = try FeedSource(path: Fixtures.berlin.appendingPathComponent("vbb-2013/stops.txt.gz").path)
        let summary = try store.importFeedSynchronously(from: source)
        #expect(summary.table(.stops)?.rowsRead == 12_793)
        #expect(try store.rowCounts()[.stops] == (summary.table(.stops)?.rowsStored ?? -1))
        #expect(summary.table(.stops).map { $0.rowsStored + $0.rowsRejected } == 12_793)
        #expect(summary.replacedTables == [.stops])
    }

    @Test("A whole feed replaces every table; a single file replaces only its own")
    func replacement() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let first = try FeedFiles.directory(FeedFiles.feed(stops: 20, trips: 10), in: folder, name: "first")
        _ = try store.importFeedSynchronously(from: try FeedSource(path: first))
        var second = FeedFiles.feed(stops: 8, trips: 3, namePrefix: "Halt")
        second["routes.txt"] = nil
        let secondPath = try FeedFiles.directory(second, in: folder, name: "second")
        _ = try store.importFeedSynchronously(from: try FeedSource(path: secondPath))
        var counts = try store.rowCounts()
        #expect(counts[.stops] == 8 && counts[.trips] == 3 && counts[.stopTimes] == 15)
        #expect(counts[.routes] == 0, "a table the new feed lacks is emptied")

        let stopsOnly = try FeedFiles.directory(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nX,Neu,52.5,13.4\n"], in: folder, name: "third")
        let summary = try store.importFeedSynchronously(from: .file(path: stopsOnly + "/stops.txt", table: nil))
        counts = try store.rowCounts()
        #expect(summary.replacedTables == [.stops])
        #expect(counts[.stops] == 1 && counts[.trips] == 3 && counts[.stopTimes] == 15)
        // Every stop_time now points to a missing stop.
        let finding = try #require(summary.integrity.findings.first { $0.file == .stopTimes && $0.column == "stop_id" })
        #expect(finding.rowCount == 15 && finding.valueCount == 7)
        #expect(finding.examples == ["S0", "S1", "S2", "S3", "S4"])
    }

    @Test("References to booking rules and location groups are checked through partial indexes that hold only the rows using them")
    func flexibleReferences() throws {
        let folder = try TemporaryFolder()
        var files = FeedFiles.feed(stops: 10, trips: 4, stopsPerTrip: 3)
        files["booking_rules.txt"] = "booking_rule_id,booking_type\nB1,0\n"
        files["stop_times.txt"] = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_booking_rule_id,drop_off_booking_rule_id\n"
            + "T0,06:00:00,06:00:00,S1,1,B1,B2\nT0,06:10:00,06:10:00,S2,2,,B3\nT1,07:00:00,07:00:00,S3,1,,\n"
        let store = try GTFSStore(path: folder.file("flex.sqlite"))
        let summary = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(files, in: folder)))
        let dropOff = try #require(summary.integrity.findings.first { $0.file == .stopTimes && $0.column == "drop_off_booking_rule_id" })
        #expect(dropOff.rowCount == 2 && dropOff.valueCount == 2 && dropOff.examples == ["B2", "B3"])
        #expect(!summary.integrity.findings.contains { $0.column == "pickup_booking_rule_id" || $0.column == "location_group_id" })
        try store.pool.read { db in
            for (column, index) in [
                ("location_group_id", "stop_times_location_group"), ("pickup_booking_rule_id", "stop_times_pickup_booking_rule"),
                ("drop_off_booking_rule_id", "stop_times_drop_off_booking_rule"),
            ] {
                let plan = try GRDB.Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN SELECT DISTINCT \(column) FROM stop_times WHERE feed = 1 AND \(column) IS NOT NULL"
                ).map { $0["detail"] as String }.joined(separator: "; ")
                #expect(plan.contains(index), "\(plan)")
                let entries = try Int.fetchOne(db, sql: "SELECT count(*) FROM stop_times INDEXED BY \(index) WHERE \(column) IS NOT NULL")
                #expect(entries == (column == "drop_off_booking_rule_id" ? 2 : column == "pickup_booking_rule_id" ? 1 : 0))
            }
        }
    }

    @Test("A file whose name names no table, imported with its table given, is reported under that table")
    func tableGivenExplicitly() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let path = folder.file("haltestellen-2025.csv")
        try Data("stop_id,stop_name,stop_lat,stop_lon\nA,a,52.5,13.4\nB,b,52.6,13.5\n".utf8).write(to: URL(fileURLWithPath: path))
        let summary = try store.importFeedSynchronously(from: .file(path: path, table: .stops))
        let stops = try #require(summary.table(.stops))
        #expect(stops.fileName == "haltestellen-2025.csv")
        #expect(stops.rowsRead == 2 && stops.rowsStored == 2)
        #expect(summary.rowsStored == 2)
    }

    @Test("Lenient: bad rows and duplicate keys are rejected with file, line and column; the rest is stored")
    func lenientRejections() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        var files = FeedFiles.feed(stops: 5, trips: 2, stopsPerTrip: 3)
        files["stops.txt"] = """
            stop_id,stop_name,stop_lat,stop_lon
            S0,A,52.5,13.4
            S1,B,"52,53",13.4
            S2,C,52.5,13.4
            S0,Again,52.5,13.4
            S3,D,52.5,13.4
            S4,E,52.5,13.4

            """
        let path = try FeedFiles.directory(files, in: folder)
        let summary = try store.importFeedSynchronously(from: try FeedSource(path: path))
        let stops = try #require(summary.table(.stops))
        #expect(stops.rowsRead == 6 && stops.rowsStored == 4 && stops.rowsRejected == 2)
        #expect(stops.errors.map(\.description) == [
            "stops.txt:3: stop_lat: \"52,53\" is not a decimal number",
            "stops.txt:5: (stop_id) = (\"S0\") repeats line 2; rejected",
        ])
        #expect(stops.errors.last?.kind == .duplicateKey)
        #expect(try store.pool.read { db in try String.fetchOne(db, sql: "SELECT stop_name FROM stops WHERE stop_id = 'S0'") } == "A")
        // stop_times' composite key is named with both columns.
        var duplicateTimes = FeedFiles.feed(stops: 5, trips: 1, stopsPerTrip: 2)
        duplicateTimes["stop_times.txt"]? += "T0,07:00:00,07:00:00,S1,2\n"
        // A key with optional parts (a unique index over ifnull(…)) is named by its columns too.
        duplicateTimes["transfers.txt"] = "from_stop_id,to_stop_id,transfer_type\nS0,S1,0\nS0,S1,2\n"
        let second = try FeedFiles.directory(duplicateTimes, in: folder, name: "second")
        let secondSummary = try store.importFeedSynchronously(from: try FeedSource(path: second))
        #expect(secondSummary.table(.transfers)?.errors.map(\.description) == [
            "transfers.txt:3: (from_stop_id, to_stop_id, from_trip_id, to_trip_id, from_route_id, to_route_id) = (\"S0\", \"S1\", \"\", \"\", \"\", \"\") repeats line 2; rejected"
        ])
        let times = try #require(secondSummary.table(.stopTimes))
        #expect(times.errors.map(\.description) == ["stop_times.txt:4: (trip_id, stop_sequence) = (\"T0\", 2) repeats line 3; rejected"])
        #expect(times.rowsStored + times.rowsRejected == times.rowsRead)
    }

    @Test("Operations run on an OperationQueue, after their dependencies, with results and Foundation progress")
    func operationQueue() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let first = ImportOperation(source: try FeedSource(path: try FeedFiles.directory(FeedFiles.feed(stops: 30), in: folder, name: "a")), store: store)
        let second = ImportOperation(
            source: try FeedSource(path: try FeedFiles.directory(FeedFiles.feed(stops: 12), in: folder, name: "b")), store: store)
        second.addDependency(first)
        let queue = OperationQueue()
        queue.addOperations([second, first], waitUntilFinished: true)
        #expect(try first.result?.get().table(.stops)?.rowsStored == 30)
        #expect(try second.result?.get().table(.stops)?.rowsStored == 12)
        #expect(try store.rowCounts()[.stops] == 12)
        // The Foundation progress reaches its total (input bytes) once the last report has run.
        let done = DispatchSemaphore(value: 0)
        let operation = ImportOperation(
            source: try FeedSource(path: try FeedFiles.directory(FeedFiles.feed(stops: 12), in: folder, name: "c")), store: store,
            progressQueue: DispatchQueue(label: "test.progress")
        ) { progress in
            if progress.phase == .finished { done.signal() }
        }
        operation.start()
        done.wait()
        #expect(operation.progress.totalUnitCount > 0)
        #expect(operation.progress.completedUnitCount == operation.progress.totalUnitCount)
    }

    @Test("An input without any GTFS file fails and changes nothing")
    func noGTFSFiles() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        _ = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(FeedFiles.feed(), in: folder, name: "a")))
        let before = try FeedFiles.snapshot(store)
        let empty = try FeedFiles.directory(["readme.md": "hello\n"], in: folder, name: "empty")
        #expect {
            try store.importFeedSynchronously(from: try FeedSource(path: empty))
        } throws: { error in
            guard case .invalidFeed(let problem) = error as? ImportError else { return false }
            return problem.kind == .emptyFile && problem.description.contains("holds no file of the GTFS reference")
        }
        #expect(try FeedFiles.snapshot(store) == before)
    }
}
