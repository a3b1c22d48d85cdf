import Dispatch
import Foundation
import GTFS
import LineReader
import Synchronization
import TestSupport
import Testing

@Suite("FeedParser pipeline")
struct FeedParserTests {
    static let subset = Repository.berlin.appendingPathComponent("vbb-2025-subset").path

    static let expectedRows: [GTFSFile: Int] = [
        .agency: 4, .stops: 634, .routes: 82, .trips: 11_427, .calendar: 285, .calendarDates: 9_578,
        .transfers: 1_030, .pathways: 176, .levels: 202, .frequencies: 0,
    ]

    static func check(_ summary: FeedSummary, rows: [GTFSFile: Int]) {
        #expect(Dictionary(uniqueKeysWithValues: summary.tables.compactMap { t in t.file.map { ($0, t.rowsParsed) } }) == Self.expectedRows)
        for table in summary.tables {
            #expect(table.rowsParsed + table.rowsRejected == table.rowsRead, "\(table.fileName)")
            #expect(table.rowsRejected == 0, "\(table.fileName): \(table.errors.prefix(3))")
        }
        #expect(rows == Self.expectedRows.filter { $0.value > 0 })
    }

    @Test("The Berlin 2025 subset parses completely from a directory, in load order")
    func directory() throws {
        var rows: [GTFSFile: Int] = [:]
        var order: [GTFSFile] = []
        var names: [String] = []
        let summary = try FeedParser(source: FeedSource(path: Self.subset)).parse { batch in
            rows[batch.file, default: 0] += batch.count
            if order.last != batch.file { order.append(batch.file) }
            if let stops = batch.records(as: Stop.self) { names += stops.compactMap(\.stopName) }
        }
        Self.check(summary, rows: rows)
        #expect(order == GTFSFile.loadOrder.filter { rows[$0] != nil })
        #expect(names.contains("S Nordbahnhof (Berlin)"))
        #expect(summary.bytesRead == Int64(try Self.subsetSize()))
    }

    @Test("Each batch says which of its table's fields the file's header names, whatever their order")
    func columnsInHeader() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("stop_sequence,stop_id,trip_id,unknown,arrival_time,departure_time\n1,S,T,x,08:00:00,08:00:00\n", name: "stop_times.txt")
        _ = try folder.write("level_id,level_index\nL,0\n", name: "levels.txt")
        var named: [GTFSFile: [String]] = [:]
        try FeedParser(source: FeedSource(path: folder.path)).parse { batch in
            #expect(batch.columnsInHeader.count == batch.file.table.fields.count)
            named[batch.file] = zip(batch.file.table.fields, batch.columnsInHeader).filter(\.1).map(\.0.name)
        }
        #expect(named[.stopTimes] == ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"])
        #expect(named[.levels] == ["level_id", "level_index"])
    }

    static func subsetSize() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: subset).reduce(0) { total, name in
            let size = try FileManager.default.attributesOfItem(atPath: subset + "/" + name)[.size] as? Int ?? 0
            return total + size
        }
    }

    @Test("The same feed zipped gives the same records; progress reaches the compressed total")
    func zipped() throws {
        var zip = TestZip()
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.subset).sorted() {
            zip.add("vbb/" + name, try String(contentsOfFile: Self.subset + "/" + name, encoding: .utf8))
        }
        zip.add("vbb/extra_notes.txt", "hello")
        let folder = try TemporaryFolder()
        let path = try folder.write(zip.archive(), name: "vbb.zip")
        var rows: [GTFSFile: Int] = [:]
        var fractions: [Double] = []
        let summary = try FeedParser(source: FeedSource(path: path)).parse(
            progress: { fractions.append($0.fractionCompleted ?? -1) },
            consume: { rows[$0.file, default: 0] += $0.count })
        Self.check(summary, rows: rows)
        #expect(summary.skippedFiles == ["extra_notes.txt"])
        #expect(fractions == fractions.sorted())
        #expect(fractions.last == 1)
    }

    @Test("On queues: a slow consumer holds parsing back to a bounded number of batches")
    func boundedHandOff() throws {
        let maxInFlight = Atomic<Int>(0)
        let batches = Atomic<Int>(0)
        let result = Mutex<Result<FeedSummary, any Error>?>(nil)
        let box = Mutex<WorkHandle?>(nil)
        let parsing = FeedParser(source: try FeedSource(path: Self.subset), options: ParseOptions(batchSize: 256)).start(
            deliveringOn: DispatchQueue(label: "slow consumer"), maxBatchesInFlight: 2,
            consume: { _ in
                // Give the parser time to run ahead as far as it is allowed to.
                usleep(3000)
                let inFlight = box.withLock { $0?.itemsInFlight } ?? 0
                _ = maxInFlight.max(inFlight, ordering: .relaxed)
                batches.add(1, ordering: .relaxed)
            },
            completion: { outcome in result.withLock { $0 = outcome } })
        box.withLock { $0 = parsing }
        parsing.wait()
        let summary = try #require(try result.withLock { try $0?.get() })
        #expect(summary.tables.reduce(0) { $0 + $1.rowsParsed } == Self.expectedRows.values.reduce(0, +))
        #expect(batches.load(ordering: .relaxed) > 50)
        // Never past the bound (on a loaded machine the parser may not have run ahead at every batch).
        #expect((1 ... 2).contains(maxInFlight.load(ordering: .relaxed)))
        #expect(parsing.itemsInFlight == 0)
    }

    @Test("cancel() stops the parse and completes once with CancellationError")
    func cancel() throws {
        let result = Mutex<[Result<FeedSummary, any Error>]>([])
        let batches = Atomic<Int>(0)
        let box = Mutex<WorkHandle?>(nil)
        let handleStored = DispatchSemaphore(value: 0)
        let parsing = FeedParser(source: try FeedSource(path: Self.subset), options: ParseOptions(batchSize: 100)).start(
            deliveringOn: .global(),
            consume: { _ in
                if batches.add(1, ordering: .relaxed).newValue == 1 { handleStored.wait() }
                if batches.load(ordering: .relaxed) == 3 { box.withLock { $0?.cancel() } }
            },
            completion: { outcome in result.withLock { $0.append(outcome) } })
        box.withLock { $0 = parsing }
        handleStored.signal()
        parsing.wait()
        let outcomes = result.withLock { $0 }
        #expect(outcomes.count == 1)
        guard case .failure(let error)? = outcomes.first else {
            Issue.record("a cancelled parse must not succeed")
            return
        }
        #expect(error is CancellationError)
        // No batch is delivered after the one that cancelled.
        #expect(batches.load(ordering: .relaxed) == 3)
    }

    @Test("async parse honours task cancellation")
    func asyncCancellation() async throws {
        let parser = FeedParser(source: try FeedSource(path: Self.subset), options: ParseOptions(batchSize: 50))
        let seen = Atomic<Int>(0)
        let cancelled = Atomic<Bool>(false)
        let task = Task {
            try await parser.parse { _ in
                // The fifth batch waits for the cancel, so the parse cannot end before it however busy the machine.
                if seen.add(1, ordering: .relaxed).newValue == 5 {
                    while !cancelled.load(ordering: .acquiring) { usleep(1000) }
                }
            }
        }
        while seen.load(ordering: .relaxed) < 5 { try await Task.sleep(nanoseconds: 1_000_000) }
        task.cancel()
        cancelled.store(true, ordering: .releasing)
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(seen.load(ordering: .relaxed) < 500)
    }

    @Test("Strict mode stops at the first bad row with its error")
    func strict() throws {
        let folder = try TemporaryFolder()
        try folder.write("stop_id,stop_name,stop_lat,stop_lon\n1,A,52.5,13.4\n2,B,\"52,53\",13.4\n", name: "stops.txt")
        #expect(throws: GTFSError.self) {
            try FeedParser(source: FeedSource(path: folder.path), options: ParseOptions(strict: true)).parse { _ in }
        }
        let lenient = try FeedParser(source: FeedSource(path: folder.path)).parse { _ in }
        #expect(lenient.tables.first?.errors.map(\.description) == ["stops.txt:3: stop_lat: \"52,53\" is not a decimal number"])
    }
}
