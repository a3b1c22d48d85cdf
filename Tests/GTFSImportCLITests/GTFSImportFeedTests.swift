import Foundation
import GRDB
import GTFS
import GTFSImport
import GTFSSynth
import TestSupport
import Testing

/// Whole feeds through the binary: a zip, batched commits, other chunk sizes.
@Suite("gtfs-import: zip feeds and options")
struct GTFSImportFeedTests {
    @Test("A synthetic zip feed imports every row, with atomic or batched commits and any chunk size",
          arguments: [["--chunk-size", "4096"], ["--batch-commit", "5000"], ["--strict", "--chunk-size", "100000"]])
    func zipFeed(_ options: [String]) throws {
        let folder = try TemporaryFolder()
        let zip = folder.file("feed.zip")
        let counts = try SyntheticFeed(scale: 0.01, seed: 7, lineEnding: .crlf).write(toPath: zip)
        let db = folder.file("gtfs.sqlite")
        let result = try ToolRunner.run("gtfs-import", options + ["--json", "--db", db, zip])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(json["rowsStored"] as? Int == counts.totalRows)
        #expect(json["rowsRejected"] as? Int == 0)
        #expect((json["integrity"] as? [Any])?.isEmpty == true, "a consistent feed has no dangling reference")
        let tables = try #require(json["tables"] as? [[String: Any]])
        for file in counts.files {
            let table = tables.first { $0["file"] as? String == file.fileName }
            #expect(table?["rowsStored"] as? Int == file.rows, "\(file.fileName)")
        }
        let store = try GTFSStore(path: db)
        #expect(try store.rowCounts()[.stopTimes] == counts["stop_times.txt"])
        #expect(try store.pool.read { db in try String.fetchOne(db, sql: "SELECT value FROM gtfs_meta WHERE key = 'import_stopped_at'") } == nil)
        try store.close()
    }
}
