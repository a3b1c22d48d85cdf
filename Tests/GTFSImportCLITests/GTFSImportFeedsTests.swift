import Foundation
import GRDB
import GTFS
import GTFSImport
import TestSupport
import Testing

/// `--feed`, `--full`, `list` and `remove`, end to end on the Berlin data.
@Suite("gtfs-import: feeds, incremental imports, list and remove")
struct GTFSImportFeedsTests {
    static let subset = GTFSImportToolTests.subset
    static let stops2013 = GTFSImportToolTests.stops2013

    @Test("Re-importing a feed applies only what changed; an identical feed changes nothing; --full replaces it")
    func incremental() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("vbb.sqlite")
        let first = try ToolRunner.run("gtfs-import", ["--db", db, "--feed", "vbb", Self.subset])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdoutText.contains("(feed vbb, full)"))

        let same = try ToolRunner.run("gtfs-import", ["--db", db, "--feed", "vbb", Self.subset])
        #expect(same.status == 0, "\(same.stderr)")
        // Said in the first line, without counts of rows "stored" or references "checked" by a run that wrote nothing.
        #expect(same.stdoutText.hasPrefix("Nothing changed: feed vbb in \(db) already holds exactly the rows of \(Self.subset) (checked in "))
        #expect(same.stdoutText.contains("; the database was not written\n"))
        #expect(same.stdoutText.contains("trips.txt (same file)"))
        #expect(!same.stdoutText.contains("stored") && !same.stdoutText.contains("integrity"))

        // A copy of the subset with one stop renamed.
        let changed = folder.file("changed")
        try FileManager.default.copyItem(atPath: Self.subset, toPath: changed)
        let stopsPath = changed + "/stops.txt"
        var stops = try String(contentsOfFile: stopsPath, encoding: .utf8)
        let firstLine = try #require(stops.split(separator: "\n").dropFirst().first)
        let name = try #require(firstLine.split(separator: ",", omittingEmptySubsequences: false).dropFirst(2).first)
        stops = stops.replacingOccurrences(of: String(firstLine), with: String(firstLine).replacingOccurrences(of: String(name), with: "\"Umbenannt\""))
        try stops.write(toFile: stopsPath, atomically: true, encoding: .utf8)
        let diff = try ToolRunner.run("gtfs-import", ["--db", db, "--feed", "vbb", "--json", changed])
        #expect(diff.status == 0, "\(diff.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: diff.stdout) as? [String: Any])
        #expect(json["kind"] as? String == "incremental")
        #expect(json["changedNothing"] as? Bool == false)
        let tables = try #require(json["tables"] as? [[String: Any]])
        let stopsEntry = try #require(tables.first { $0["table"] as? String == "stops" })
        #expect(stopsEntry["updated"] as? Int == 1 && stopsEntry["inserted"] as? Int == 0 && stopsEntry["deleted"] as? Int == 0)
        #expect(tables.filter { $0["sameFile"] as? Bool == true }.count == tables.count - 1)
        let renamed = try DatabaseQueue(path: db).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM stops WHERE stop_name = 'Umbenannt'")
        }
        #expect(renamed == 1)

        let full = try ToolRunner.run("gtfs-import", ["--db", db, "--feed", "vbb", "--full", Self.subset])
        #expect(full.status == 0, "\(full.stderr)")
        #expect(full.stdoutText.contains("(feed vbb, full)"))
        let back = try DatabaseQueue(path: db).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM stops WHERE stop_name = 'Umbenannt'")
        }
        #expect(back == 0)
    }

    @Test("Two feeds in one database; list shows them with their versions; remove deletes exactly one")
    func listAndRemove() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        #expect(try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", "--feed", "vbb", Self.subset]).status == 0)
        #expect(try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", "--feed", "vbb-2013", Self.stops2013]).status == 0)

        let list = try ToolRunner.run("gtfs-import", ["list", "--db", db])
        #expect(list.status == 0, "\(list.stderr)")
        let lines = list.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("feed") == true)
        #expect(lines.contains { $0.hasPrefix("vbb ") && $0.contains("634") && $0.contains("11,427") })
        #expect(lines.contains { $0.hasPrefix("vbb-2013 ") && $0.contains("12,793") })

        let listJSON = try ToolRunner.run("gtfs-import", ["list", "--db", db, "--json"])
        let feeds = try #require((try JSONSerialization.jsonObject(with: listJSON.stdout) as? [String: Any])?["feeds"] as? [[String: Any]])
        #expect(feeds.map { $0["name"] as? String } == ["vbb", "vbb-2013"])
        #expect((feeds[1]["contentHash"] as? String)?.count == 64)

        let remove = try ToolRunner.run("gtfs-import", ["remove", "vbb-2013", "--db", db])
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(remove.stdoutText == "removed feed vbb-2013 from \(db): 12,793 rows\n")
        let counts = try DatabaseQueue(path: db).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM stops") }
        #expect(counts == 634)

        let again = try ToolRunner.run("gtfs-import", ["remove", "vbb-2013", "--db", db])
        #expect(again.status == 1 && again.stderr.contains("holds no feed named vbb-2013"))
        let missing = try ToolRunner.run("gtfs-import", ["list", "--db", folder.file("none.sqlite")])
        #expect(missing.status == 1 && missing.stderr.contains("no such database"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("none.sqlite")))
    }
}
