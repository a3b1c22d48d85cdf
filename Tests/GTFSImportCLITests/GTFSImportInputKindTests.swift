import Foundation
import GRDB
import GTFS
import TestSupport
import Testing

/// `gtfs-import` given inputs that are not regular files: pipes, FIFOs, `/dev/stdin`, and names that lead
/// nowhere. A stream is opened once and read from its first byte; a table whose file cannot be opened fails
/// the import instead of emptying the table.
@Suite("gtfs-import: pipes, FIFOs and broken links as inputs")
struct GTFSImportInputKindTests {
    /// 1,000 trips with `trip_headsign` as the first column, so that losing the first bytes would rename it.
    static func tripsHeadsignFirst() -> String {
        "trip_headsign,route_id,service_id,trip_id\n" + (1 ... 1000).map { "Terminus \($0),R1,S1,T\($0)\n" }.joined()
    }

    /// How many trips the database at `path` holds, and how many of them have a headsign.
    static func headsigns(_ path: String) throws -> (trips: Int, withHeadsign: Int) {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }  // read only
        return try queue.read { db in
            let row = try #require(try GRDB.Row.fetchOne(db, sql: "SELECT count(*), count(trip_headsign) FROM trips"))
            return (row[0], row[1])
        }
    }

    /// Writes `text` into the FIFO at `path` on a thread of its own (opening it waits for the reader).
    static func feed(fifo path: String, _ text: String) -> Thread {
        _ = ToolRunner.ignoresBrokenPipes
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            try? handle.write(contentsOf: Data(text.utf8))  // the reader may have failed and gone
            try? handle.close()
        }
        writer.start()
        return writer
    }

    @Test("A FIFO given as the path: every byte read, the header's first column kept")
    func fifoPath() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.file("input")
        #expect(mkfifo(fifo, 0o600) == 0)
        let trips = Self.tripsHeadsignFirst()
        _ = Self.feed(fifo: fifo, trips)
        let db = folder.file("gtfs.sqlite")
        let running = try ToolRunner.start("gtfs-import", ["--db", db, "--quiet", "--table", "trips", fifo])
        let result = try #require(running.wait(timeout: .seconds(60)), "gtfs-import hung on a FIFO")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("unknown column"), "\(result.stderr)")
        let counts = try Self.headsigns(db)
        #expect(counts.trips == 1000 && counts.withHeadsign == 1000)
    }

    @Test("/dev/stdin as the path reads standard input from its first byte")
    func devStdin() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        let trips = Self.tripsHeadsignFirst()
        let result = try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", "--table", "trips", "/dev/stdin"], stdin: Data(trips.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let counts = try Self.headsigns(db)
        #expect(counts.trips == 1000 && counts.withHeadsign == 1000)
    }

    @Test("A zip piped through a FIFO is refused with a clear message, not read as CSV")
    func zipThroughFifo() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.file("feed.zip")
        #expect(mkfifo(fifo, 0o600) == 0)
        let zip = try Data(contentsOf: Repository.berlin.appendingPathComponent("vbb-2025-subset.zip"))
        _ = ToolRunner.ignoresBrokenPipes
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            try? handle.write(contentsOf: zip)  // the reader stops early
            try? handle.close()
        }
        writer.start()
        let running = try ToolRunner.start("gtfs-import", ["--db", folder.file("gtfs.sqlite"), "--table", "stops", fifo])
        let result = try #require(running.wait(timeout: .seconds(60)), "gtfs-import hung on a FIFO")
        #expect(result.status == 1)
        #expect(result.stderr.contains("is a zip archive, which cannot be read as a stream"), "\(result.stderr)")
    }

    @Test("A FIFO inside a feed folder is read like a file")
    func fifoInFolder() throws {
        let folder = try TemporaryFolder()
        let feed = folder.file("feed")
        try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
        for name in ["agency.txt", "routes.txt", "calendar.txt", "stops.txt"] {
            try FileManager.default.copyItem(atPath: GTFSImportToolTests.subset + "/" + name, toPath: feed + "/" + name)
        }
        let fifo = feed + "/trips.txt"
        #expect(mkfifo(fifo, 0o600) == 0)
        _ = Self.feed(fifo: fifo, Self.tripsHeadsignFirst())
        let db = folder.file("gtfs.sqlite")
        let running = try ToolRunner.start("gtfs-import", ["--db", db, "--quiet", feed])
        let result = try #require(running.wait(timeout: .seconds(60)), "gtfs-import hung on a FIFO in a folder")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.headsigns(db) == (1000, 1000))
    }

    @Test("A table file of a feed folder that is a broken link or a loop fails the import; nothing changes",
          arguments: ["missing", "loop"])
    func brokenLinkInFolder(_ kind: String) throws {
        let folder = try TemporaryFolder()
        let feed = folder.file("feed")
        try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
        try folder.write("stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\n", name: "feed/stops.txt")
        try folder.write("shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nS,52.5,13.4,1\nS,52.6,13.5,2\n", name: "feed/shapes.txt")
        let db = folder.file("gtfs.sqlite")
        let first = try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", feed])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try GTFSImportToolTests.snapshot(db)
        #expect(before.contains { $0.hasPrefix("shapes ") })

        let shapes = feed + "/shapes.txt"
        try FileManager.default.removeItem(atPath: shapes)
        if kind == "missing" {
            try FileManager.default.createSymbolicLink(atPath: shapes, withDestinationPath: "gone/shapes.txt")
        } else {
            try FileManager.default.createSymbolicLink(atPath: shapes, withDestinationPath: "shapes.txt")
        }
        // A broken link that names no table is no reason to fail.
        try FileManager.default.createSymbolicLink(atPath: feed + "/notes.txt", withDestinationPath: "nowhere")
        let second = try ToolRunner.run("gtfs-import", ["--db", db, feed])
        #expect(second.status == 1)
        let why = kind == "missing" ? "a broken symbolic link" : "a loop of symbolic links"
        #expect(second.stderr == "gtfs-import: \(shapes): cannot open: \(why); nothing was imported\n", "\(second.stderr)")
        #expect(try GTFSImportToolTests.snapshot(db) == before)
    }
}

@Suite("gtfs-import: input without line breaks ends at the line limit, not at its end")
struct GTFSImportEndlessLineTests {
    @Test("/dev/zero as a table: exit 1 at once, naming the line")
    func devZero() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        let running = try ToolRunner.start("gtfs-import", ["--db", db, "--table", "stops", "/dev/zero"])
        let result = try #require(running.wait(timeout: .seconds(30)), "still reading /dev/zero after 30 s")
        #expect(result.status == 1)
        #expect(result.stderr == "gtfs-import: /dev/zero:1: a line longer than 67 MB: not a table of text lines; nothing after it was read; nothing was imported\n")
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    @Test("A header and a row, then endless zeros on standard input: exit 1, the database unchanged")
    func endlessStandardInput() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        #expect(try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", GTFSImportToolTests.stops2013]).status == 0)
        let before = try GTFSImportToolTests.snapshot(db)
        let running = try ToolRunner.start("gtfs-import", ["--db", db, "--table", "stops", "-"])
        let writer = Thread {
            try? running.write(Data("stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\n".utf8))
            let zeros = Data(count: 1 << 16)
            // Until the tool stops reading (the write then fails: SIGPIPE is ignored).
            while (try? running.write(zeros)) != nil {}
        }
        writer.start()
        let result = try #require(running.wait(timeout: .seconds(30)), "still reading after 30 s")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("gtfs-import: stops.txt:3: a line longer than 67 MB"), "\(result.stderr)")
        #expect(try GTFSImportToolTests.snapshot(db) == before)
    }
}

@Suite("gtfs-import: an incremental import of a huge group in bounded memory")
struct GTFSImportHugeGroupTests {
    @Test("One trip of 300,000 stop times, one of them changed, then cut to 10: each re-import stays under 100 MB", .enabled(if: ToolRunner.canMeasurePeakMemory, "needs GNU time (Debian's time package)"))
    func hugeTrip() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        let rows = 300_000
        func stopTimes(changedAt changed: Int?) -> String {
            var text = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
            text.reserveCapacity(rows * 40)
            for sequence in 1 ... rows {
                let time = GTFSTime(seconds: Int32(sequence == changed ? 10 : 0) + 6 * 3600).description
                text += "T,\(time),\(time),S\(sequence % 100),\(sequence)\n"
            }
            return text
        }
        let first = try folder.write(stopTimes(changedAt: nil), name: "v1/stop_times.txt")
        let second = try folder.write(stopTimes(changedAt: rows / 2), name: "v2/stop_times.txt")
        let initial = try ToolRunner.measuringPeakMemory("gtfs-import", ["--db", db, "--quiet", first])
        #expect(initial.status == 0)
        let update = try ToolRunner.measuringPeakMemory("gtfs-import", ["--db", db, "--quiet", second])
        #expect(update.status == 0)
        #expect(update.peakBytes < 100 << 20, "peak \(update.peakBytes >> 20) MiB; the first import's \(initial.peakBytes >> 20) MiB")
        let counts = try GTFSImportToolTests.counts(db)
        #expect(counts[.stopTimes] == rows)
        let arrivals = try DatabaseQueue(path: db).read { db in
            try Int.fetchAll(db, sql: "SELECT arrival_time FROM stop_times WHERE stop_sequence IN (?, ?) ORDER BY stop_sequence", arguments: [rows / 2, rows / 2 + 1])
        }
        #expect(arrivals == [6 * 3600 + 10, 6 * 3600])

        // The trip cut to 10 stop times: the 299,990 deleted rows are not held either.
        let third = try folder.write(
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + (1 ... 10).map { "T,06:00:00,06:00:00,S\($0),\($0)\n" }.joined(),
            name: "v3/stop_times.txt")
        let cut = try ToolRunner.measuringPeakMemory("gtfs-import", ["--db", db, "--quiet", third])
        #expect(cut.status == 0)
        #expect(cut.peakBytes < 100 << 20, "peak \(cut.peakBytes >> 20) MiB")
        #expect(try GTFSImportToolTests.counts(db)[.stopTimes] == 10)
    }
}
