import Foundation
import GTFS
import GTFSImport
import TestSupport
import Testing

/// A row whose key repeats an earlier row's is rejected with an error naming the key's columns, the row's
/// values and the line the key first appeared on, whether that row came in the same batch, an earlier one,
/// or (incremental imports) a staged group.
@Suite("Duplicate keys: the error names the key, its values and the line it repeats")
struct DuplicateKeyTests {
    static let header = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"

    /// `count` stop times of trip `trip`, sequences from 1.
    static func trip(_ trip: String, _ count: Int) -> String {
        (1 ... count).map { "\(trip),08:00:00,08:00:00,S1,\($0)\n" }.joined()
    }

    static func options(batchSize: Int = ImportOptions().parsing.batchSize) -> ImportOptions {
        var options = ImportOptions()
        options.parsing.batchSize = batchSize
        options.checksReferences = false
        return options
    }

    /// Imports `text` as `name` into a new store.
    static func importFile(
        _ text: String, name: String = "stop_times.txt", options: ImportOptions = options(), in folder: TemporaryFolder
    ) throws -> TableImport {
        let store = try GTFSStore(path: folder.file("\(UUID().uuidString).sqlite"))
        let path = try folder.write(text, name: name)
        let summary = try store.importFeedSynchronously(from: try FeedSource(path: path), options: options)
        return try #require(summary.tables.first)
    }

    @Test("In the same batch: the line of the earlier row, the key's columns in column, its values in text")
    func sameBatch() throws {
        let folder = try TemporaryFolder()
        let table = try Self.importFile(Self.header + Self.trip("608433", 3) + "608433,09:00:00,09:00:00,S2,0\n" + "608433,09:00:00,09:00:00,S2,2\n", in: folder)
        #expect(table.rowsStored == 4 && table.rowsRejected == 1)
        let error = try #require(table.errors.first)
        #expect(error.description == #"stop_times.txt:6: (trip_id, stop_sequence) = ("608433", 2) repeats line 3; rejected"#)
        #expect(error.kind == .duplicateKey && error.line == 6)
        #expect(error.column == "trip_id, stop_sequence")
        #expect(error.text == #"("608433", 2)"#)
    }

    @Test("Across batches: the file is read again to find the line; a key repeated several times names its first line")
    func acrossBatches() throws {
        let folder = try TemporaryFolder()
        // Batches of 2 rows: every repeat is at least a batch after the row it repeats.
        let text = Self.header + Self.trip("T1", 5) + Self.trip("T2", 5)
            + "T1,09:00:00,09:00:00,S2,2\n"  // line 12
            + "T2,09:00:00,09:00:00,S2,5\n"  // 13
            + "T3,09:00:00,09:00:00,S2,1\n"  // 14
            + "T1,10:00:00,10:00:00,S3,2\n"  // 15
        let table = try Self.importFile(text, options: Self.options(batchSize: 2), in: folder)
        #expect(table.rowsStored == 11 && table.rowsRejected == 3)
        #expect(table.errors.map(\.description) == [
            #"stop_times.txt:12: (trip_id, stop_sequence) = ("T1", 2) repeats line 3; rejected"#,
            #"stop_times.txt:13: (trip_id, stop_sequence) = ("T2", 5) repeats line 11; rejected"#,
            #"stop_times.txt:15: (trip_id, stop_sequence) = ("T1", 2) repeats line 3; rejected"#,
        ])
    }

    @Test("A gzip file and a zip entry are read again too", arguments: ["gzip", "zip"])
    func compressed(_ kind: String) throws {
        let folder = try TemporaryFolder()
        let text = Self.header + Self.trip("T1", 5) + "T1,09:00:00,09:00:00,S2,3\n"
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let path: String
        if kind == "gzip" {
            path = try folder.write(Deflate.gzip(Array(text.utf8)), name: "stop_times.txt.gz")
        } else {
            // In a top-level folder, as many zips are: the entry is found again by the name the import gave it.
            var zip = TestZip()
            zip.add("gtfs/stop_times.txt", text)
            path = try folder.write(zip.archive(), name: "feed.zip")
        }
        let summary = try store.importFeedSynchronously(from: try FeedSource(path: path), options: Self.options(batchSize: 2))
        let table = try #require(summary.table(.stopTimes))
        #expect(table.errors.map(\.description) == [
            "\(table.fileName):7: (trip_id, stop_sequence) = (\"T1\", 3) repeats line 4; rejected"
        ])
    }

    @Test("Strict: the first repeat stops the import with the line it repeats, in the same batch or an earlier one")
    func strict() throws {
        for batchSize in [1024, 2] {
            let folder = try TemporaryFolder()
            let store = try GTFSStore(path: folder.file("feed.sqlite"))
            let path = try folder.write(Self.header + Self.trip("T1", 6) + "T1,09:00:00,09:00:00,S2,4\n" + "T1,09:00:00,09:00:00,S2,1\n", name: "stop_times.txt")
            var options = Self.options(batchSize: batchSize)
            options.parsing.strict = true
            #expect {
                try store.importFeedSynchronously(from: try FeedSource(path: path), options: options)
            } throws: { error in
                guard case .invalidFeed(let problem)? = error as? ImportError else { return false }
                return problem.kind == .duplicateKey && problem.column == "trip_id, stop_sequence"
                    && problem.description == #"stop_times.txt:8: (trip_id, stop_sequence) = ("T1", 4) repeats line 5; rejected"#
            }
            #expect(try store.rowCounts()[.stopTimes, default: 0] == 0)
        }
    }

    @Test("A count limit exceeded mid-file names the line of its first refusal's key")
    func countLimit() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let path = try folder.write(Self.header + Self.trip("T1", 4) + Self.trip("T1", 4), name: "stop_times.txt")
        var options = Self.options(batchSize: 2)
        options.maxRejected = .rows(1)
        #expect {
            try store.importFeedSynchronously(from: try FeedSource(path: path), options: options)
        } throws: { error in
            guard case .tooManyRejected(_, _, _, _, let first)? = error as? ImportError else { return false }
            return first?.description == #"stop_times.txt:6: (trip_id, stop_sequence) = ("T1", 1) repeats line 2; rejected"#
        }
    }

    @Test("An incremental import refuses a repeated key in a changed group with the same message")
    func incremental() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        var files = FeedFiles.feed(stops: 10, trips: 6, stopsPerTrip: 5)
        let options = Self.options(batchSize: 4)
        let first = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(files, in: folder, name: "v1")), options: options)
        #expect(first.kind == .full)
        // T3 (lines 17 to 21) is retimed, and one of its keys comes again at the end (line 32).
        let stopTimes = try #require(files["stop_times.txt"])
        files["stop_times.txt"] = stopTimes.split(separator: "\n").map { line in
            line.hasPrefix("T3,") ? line.replacingOccurrences(of: ":00,", with: ":30,") : String(line)
        }.joined(separator: "\n") + "\nT3,07:00:00,07:00:00,S1,2\n"
        let second = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(files, in: folder, name: "v2")), options: options)
        #expect(second.kind == .incremental)
        let times = try #require(second.table(.stopTimes))
        #expect(times.rowsRejected == 1)
        #expect(times.errors.map(\.description) == [#"stop_times.txt:32: (trip_id, stop_sequence) = ("T3", 2) repeats line 18; rejected"#])
        #expect(times.changes.updated == 5)
    }

    @Test("A row repeated 3,000 times in small batches: every kept error names the key's first line")
    func manyRepeats() throws {
        let folder = try TemporaryFolder()
        var options = Self.options(batchSize: 16)
        options.maxRejected = .share(1)
        options.parsing.maxStoredErrors = 200
        let text = Self.header + Self.trip("T0", 3) + String(repeating: "T1,08:00:00,08:00:00,S1,1\n", count: 3000) + Self.trip("T2", 3)
        let table = try Self.importFile(text, options: options, in: folder)
        #expect(table.rowsStored == 7 && table.rowsRejected == 2999)
        #expect(table.errors.count == 200)
        #expect(table.errors.map(\.line) == Array(6 ..< 206))
        let wrong = table.errors.filter {
            $0.description != "stop_times.txt:\($0.line ?? 0): (trip_id, stop_sequence) = (\"T1\", 1) repeats line 5; rejected"
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, the first: \(wrong.first?.description ?? "")")
    }

    @Test("Values with a comma, a quote, a control character or too many bytes are quoted, escaped and cut")
    func awkwardValues() throws {
        let folder = try TemporaryFolder()
        let long = String(repeating: "x", count: 300)
        let text = "stop_id,stop_name,stop_lat,stop_lon\n"
            + "\"S,\"\"1\"\"\",A,52.5,13.4\n" + "\"S\u{1B}[31m\tX\",B,52.5,13.4\n" + "\(long),C,52.5,13.4\n"
            + "\"S,\"\"1\"\"\",A2,52.5,13.4\n" + "\"S\u{1B}[31m\tX\",B2,52.5,13.4\n" + "\(long),C2,52.5,13.4\n"
        let table = try Self.importFile(text, name: "stops.txt", in: folder)
        let cut = String(repeating: "x", count: GTFSError.quotedLength) + "…"
        #expect(table.errors.map(\.description) == [
            #"stops.txt:5: (stop_id) = ("S,""1""") repeats line 2; rejected"#,
            #"stops.txt:6: (stop_id) = ("S\u{1B}[31m\tX") repeats line 3; rejected"#,
            "stops.txt:7: (stop_id) = (\"\(cut)\") repeats line 4; rejected",
        ])
    }

    @Test("Attributions, which have no key, repeat their attribution_id; frequencies show a time as the feed writes it")
    func otherKeys() throws {
        let folder = try TemporaryFolder()
        let attributions = try Self.importFile(
            "attribution_id,organization_name,is_producer\nA1,X,1\n,Y,1\n,Z,1\nA1,W,1\n", name: "attributions.txt", in: folder)
        #expect(attributions.errors.map(\.description) == [#"attributions.txt:5: (attribution_id) = ("A1") repeats line 2; rejected"#])
        let frequencies = try Self.importFile(
            "trip_id,start_time,end_time,headway_secs\nT1,25:03:00,26:00:00,600\nT1,25:03:00,27:00:00,300\n", name: "frequencies.txt",
            in: folder)
        #expect(frequencies.errors.map(\.description) == [#"frequencies.txt:3: (trip_id, start_time) = ("T1", 25:03:00) repeats line 2; rejected"#])
    }
}
