import Foundation
import GRDB
import GTFS
import GTFSImport
import TestSupport
import Testing

/// A file system that fills up: the import fails with one line, gives the space back, and the database
/// opens, lists and checks as before.
@Suite("gtfs-import: a full disk", .enabled(if: Tmpfs.canMount, "mounting a size-limited tmpfs is refused here (needs root)"))
struct GTFSImportDiskFullTests {
    /// `stop_times.txt` with `rows` rows (about 34 bytes each).
    static func stopTimes(_ rows: Int, in folder: TemporaryFolder, name: String) throws -> String {
        var text = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        text.reserveCapacity(rows * 36)
        for index in 0 ..< rows {
            let time = GTFSTime(seconds: Int32(8 * 3600 + index % 3600)).description
            text += "T\(index / 20),\(time),\(time),\(9_000_000 + index % 500),\(index % 20)\n"
        }
        return try folder.write(text, name: name)
    }

    @Test("TMPDIR full, the database's disk not: the message names the temporary folder, the data is intact")
    func fullTemporaryFolder() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        #expect(try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", GTFSImportToolTests.subset + "/stops.txt"]).status == 0)
        let before = try GTFSImportToolTests.snapshot(db)
        // An incremental import of 12,793 stops stages them in a scratch database in TMPDIR.
        let temporary = try Tmpfs(kilobytes: 256)
        let result = try ToolRunner.run("gtfs-import", ["--db", db, GTFSImportToolTests.stops2013], environment: ["TMPDIR": temporary.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("gtfs-import: \(db): database or disk is full: the temporary folder \(temporary.path) (TMPDIR), "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("set TMPDIR to a folder with room; nothing was imported\n"), "\(result.stderr)")
        #expect(try GTFSImportToolTests.snapshot(db) == before)
    }

    @Test("Full while loading: exit 1 in one line, the WAL emptied, the data and list intact; an estimate refuses early")
    func fullDisk() throws {
        let disk = try Tmpfs(kilobytes: 8_928)
        let inputs = try TemporaryFolder()
        let db = disk.file("gtfs.sqlite")
        #expect(try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", GTFSImportToolTests.stops2013]).status == 0)
        let before = try GTFSImportToolTests.snapshot(db)
        let free = disk.freeBytes

        // About 2 MB of text: the estimate (3 MB) fits in the 3.2 MB the stops (5.4 MB) leave, the import does not.
        let fits = try Self.stopTimes(60_000, in: inputs, name: "stop_times.txt")
        let full = try ToolRunner.run("gtfs-import", ["--db", db, "--feed", "other", fits])
        #expect(full.status == 1 && !full.wasSignalled)
        #expect(full.stderr == "gtfs-import: \(db): database or disk is full; nothing was imported\n", "\(full.stderr)")
        #expect(((try? FileManager.default.attributesOfItem(atPath: db + "-wal")[.size]) as? NSNumber)?.intValue ?? 0 == 0)
        #expect(disk.freeBytes >= free - 64 * 1024, "the space the import took is given back")

        let list = try ToolRunner.run("gtfs-import", ["list", "--db", db])
        #expect(list.status == 0 && !list.wasSignalled, "\(list.stderr)")
        #expect(list.stdoutText.contains("default  12,793  12,793"))
        #expect(try GTFSImportToolTests.snapshot(db) == before)
        let facts = try DatabaseQueue(path: db).read { db in
            [try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(), try String.fetchOne(db, sql: "SELECT outcome FROM imports ORDER BY import_id DESC") ?? ""]
        }
        #expect(facts == ["ok", "failed"])

        // Text whose estimate exceeds the free space: refused before anything is written.
        let tooBig = try Self.stopTimes(120_000, in: inputs, name: "big/stop_times.txt")
        let early = try ToolRunner.run("gtfs-import", ["--db", db, "--feed", "other", tooBig])
        #expect(early.status == 1)
        #expect(early.stderr.hasPrefix("gtfs-import: \(db): needs about 6.") && early.stderr.hasSuffix(" free; nothing was imported\n"), "\(early.stderr)")

        // A first import into a new file on the full disk leaves nothing at its path.
        let fresh = disk.file("new.sqlite")
        let failedNew = try ToolRunner.run("gtfs-import", ["--db", fresh, fits])
        #expect(failedNew.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).filter { $0.hasPrefix("new.sqlite") }.isEmpty)
    }
}
