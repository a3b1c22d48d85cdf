import Foundation
import GRDB
import GTFS
import GTFSImport
import TestSupport
import Testing

/// Signals in the middle of an import: SIGINT and SIGTERM cancel cleanly, SIGKILL loses nothing.
@Suite("gtfs-import: signals during an import")
struct GTFSImportSignalTests {
    @Test("SIGINT exits 130, SIGTERM 143, SIGKILL kills: the database is unchanged and intact each time",
          arguments: [SIGINT, SIGTERM, SIGKILL])
    func signalDuringImport(_ signal: Int32) throws {
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        #expect(try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", GTFSImportToolTests.subset]).status == 0)
        let before = try GTFSImportToolTests.snapshot(db)

        let running = try ToolRunner.start("gtfs-import", ["--db", db, "--table", "stop_times", "-"])
        try Self.writeStopTimes(to: running)
        // Wait until the import has written pages to the WAL: rows are in the open transaction.
        let wal = db + "-wal"
        let deadline = Date().addingTimeInterval(120)
        while ((try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0) < 1 << 20, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        running.send(signal)
        let result = running.wait()
        switch signal {
        case SIGKILL:
            #expect(result.wasSignalled && result.status == SIGKILL)
        default:
            let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
            #expect(!result.wasSignalled && result.status == 128 + signal)
            #expect(result.stderr.hasSuffix("gtfs-import: cancelled by \(name); \(db) is unchanged\n"), "\(result.stderr)")
        }
        #expect(try GTFSImportToolTests.snapshot(db) == before)
        let queue = try DatabaseQueue(path: db)
        #expect(try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"])
        try queue.close()
    }

    @Test("SIGKILL during a first import leaves no database at the path; the next import deletes the leftover")
    func killDuringFirstImport() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        let running = try ToolRunner.start("gtfs-import", ["--db", db, "--table", "stop_times", "-"])
        try Self.writeStopTimes(to: running)
        // Wait until the store being built has pages on disk.
        func leftovers() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("gtfs.sqlite.importing-") }
        }
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let sizes = try leftovers().map { (try? FileManager.default.attributesOfItem(atPath: folder.file($0))[.size] as? Int) ?? 0 }
            if sizes.contains(where: { $0 >= 1 << 20 }) { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        running.send(SIGKILL)
        let result = running.wait()
        #expect(result.wasSignalled && result.status == SIGKILL)
        #expect(!FileManager.default.fileExists(atPath: db))
        // The store being built and its lock file, which nobody holds any more.
        let left = try leftovers().sorted()
        #expect(left.count == 2 && left.last == (left.first ?? "") + "-lock", "\(left)")

        #expect(try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", GTFSImportToolTests.subset]).status == 0)
        #expect(try leftovers() == [])
        let queue = try DatabaseQueue(path: db)
        #expect(try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"])
        try queue.close()
    }

    /// Writes 200,000 stop_times rows to the import's standard input, which stays open: the import cannot
    /// end before the test signals it.
    static func writeStopTimes(to running: ToolRunner.Running) throws {
        var rows = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for trip in 0 ..< 4000 {
            for sequence in 1 ... 50 {
                rows += "\(trip),08:\(10 + sequence % 50):00,08:\(10 + sequence % 50):30,de:11000:9001000\(sequence)::1,\(sequence)\n"
            }
            if trip % 500 == 499 {
                try running.write(Data(rows.utf8))
                rows = ""
            }
        }
    }
}
