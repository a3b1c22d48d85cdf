import Foundation
import GRDB
import TestSupport
import Testing

/// `--changes FILE` and `gtfs-import diff`, end to end on the Berlin subset.
@Suite("gtfs-import: the changes of an import, and diff")
struct GTFSImportChangesTests {
    static let subset = GTFSImportToolTests.subset

    /// A copy of the subset with one stop renamed, one deleted and one added, and `transfers.txt` removed.
    static func edited(in folder: TemporaryFolder) throws -> (path: String, renamed: String, deleted: String) {
        let path = folder.file("edited")
        try FileManager.default.copyItem(atPath: subset, toPath: path)
        try FileManager.default.removeItem(atPath: path + "/transfers.txt")
        let stopsPath = path + "/stops.txt"
        var lines = try String(contentsOfFile: stopsPath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let idColumn = try #require(header.firstIndex(of: "stop_id"))
        // Rows whose fields hold no quotes, so that splitting at commas finds the fields.
        let plain = try #require(lines.indices.dropFirst().filter { !lines[$0].contains("\"") && !lines[$0].isEmpty }.first)
        var fields = lines[plain].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let renamed = fields[idColumn]
        let nameColumn = try #require(header.firstIndex(of: "stop_name"))
        fields[nameColumn] = "Umbenannt"
        lines[plain] = fields.joined(separator: ",")
        fields[idColumn] = "NEW:1"
        lines.insert(fields.joined(separator: ","), at: plain + 1)
        let deletedLine = lines.count - 2
        let deleted = try #require(lines[deletedLine].split(separator: ",", omittingEmptySubsequences: false).map(String.init).dropFirst(idColumn).first)
        lines.remove(at: deletedLine)
        try lines.joined(separator: "\n").write(toFile: stopsPath, atomically: true, encoding: .utf8)
        return (path, renamed, deleted)
    }

    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("--keep-changes: the changes kept in the database by import, the same as --changes writes")
    func keepChanges() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("kept.sqlite")
        #expect(try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", "--keep-changes", Self.subset]).status == 0)
        let edited = try Self.edited(in: folder)
        let run = try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", "--keep-changes", "--changes", "-", edited.path])
        #expect(run.status == 0, "\(run.stderr)")
        let written = try Self.objects(run.stdoutText).filter { $0["table"] != nil }
        let kept = try DatabaseQueue(path: db).read { db in
            try GRDB.Row.fetchAll(db, sql: "SELECT import_id, table_name, kind, key FROM changes ORDER BY import_id, seq")
        }
        let second = kept.filter { $0["import_id"] as Int64 == 2 }
        #expect(kept.filter { $0["import_id"] as Int64 == 1 }.allSatisfy { $0["kind"] as String == "replace" })
        #expect(second.count == written.count)
        #expect(second.contains { $0["kind"] as String == "update" && $0["key"] as String == "{\"stop_id\":\"\(edited.renamed)\"}" })
        let batched = try ToolRunner.run("gtfs-import", ["--db", db, "--keep-changes", "--batch-commit", "100", edited.path])
        #expect(batched.status == 2 && batched.stderr.contains("atomic import"))
    }

    @Test("--changes FILE: one line per changed row, then the counts; the summary agrees")
    func changesFile() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("vbb.sqlite")
        #expect(try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", Self.subset]).status == 0)
        let edited = try Self.edited(in: folder)
        let changes = folder.file("changes.jsonl")
        let run = try ToolRunner.run("gtfs-import", ["--db", db, "--json", "--changes", changes, edited.path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try Self.objects(try String(contentsOfFile: changes, encoding: .utf8))
        let stops = lines.filter { $0["table"] as? String == "stops" }
        #expect(stops.count == 3)
        let update = try #require(stops.first { $0["change"] as? String == "update" })
        #expect((update["key"] as? [String: String]) == ["stop_id": edited.renamed])
        let columns = try #require(update["columns"] as? [String: [String: Any]])
        #expect(columns.keys.sorted() == ["stop_name"] && columns["stop_name"]?["new"] as? String == "Umbenannt")
        #expect(stops.contains { $0["change"] as? String == "insert" && ($0["key"] as? [String: String]) == ["stop_id": "NEW:1"] })
        #expect(stops.contains { $0["change"] as? String == "delete" && ($0["key"] as? [String: String]) == ["stop_id": edited.deleted] })
        let transfers = lines.filter { $0["table"] as? String == "transfers" }
        #expect(transfers.count == 1030 && transfers.allSatisfy { $0["change"] as? String == "delete" && $0["feed"] as? String == "default" })

        let last = try #require(lines.last)
        #expect(last["complete"] as? Bool == true)
        let summary = try #require(last["summary"] as? [String: [String: Int]])
        #expect(summary["stops"] == ["inserted": 1, "updated": 1, "deleted": 1])
        #expect(summary["transfers"] == ["inserted": 0, "updated": 0, "deleted": 1030])
        #expect(summary.count == 2)
        let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let tables = try #require(json["tables"] as? [[String: Any]])
        #expect(tables.first { $0["table"] as? String == "stops" }?["updated"] as? Int == 1)

        // Standard output: the lines there, the summary table on standard error.
        let again = try ToolRunner.run("gtfs-import", ["--db", db, "--full", "--changes", "-", Self.subset])
        #expect(again.status == 0, "\(again.stderr)")
        let all = try Self.objects(again.stdoutText)
        #expect(all.last?["complete"] as? Bool == true)
        #expect(all.contains { $0["table"] as? String == "transfers" && $0["change"] as? String == "insert" })
        #expect(again.stderr.contains("(feed default, full)"))
    }

    @Test("diff of two single files: times as GTFS writes them, other values as stored")
    func singleFiles() throws {
        let folder = try TemporaryFolder()
        let header = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\n"
        let old = try folder.write(header + "T1,08:00:00,08:00:00,S1,1,0\nT1,08:05:00,08:05:00,S2,2,1.5\n", name: "old/stop_times.txt")
        let new = try folder.write(header + "T1,08:00:00,08:00:00,S1,1,0\nT1,25:01:00,25:01:00,S2,2,1.75\n", name: "new/stop_times.txt")
        let run = try ToolRunner.run("gtfs-import", ["diff", old, new])
        #expect(run.status == 1, "\(run.stderr)")
        let lines = try Self.objects(run.stdoutText)
        #expect(lines.count == 2)
        let update = try #require(lines.first)
        #expect(update["change"] as? String == "update" && update["table"] as? String == "stop_times")
        let key = try #require(update["key"] as? [String: Any])
        #expect(key["trip_id"] as? String == "T1" && key["stop_sequence"] as? Int == 2)
        let columns = try #require(update["columns"] as? [String: [String: Any]])
        #expect(columns.keys.sorted() == ["arrival_time", "departure_time", "shape_dist_traveled"])
        #expect(columns["departure_time"]?["old"] as? String == "08:05:00" && columns["departure_time"]?["new"] as? String == "25:01:00")
        #expect(columns["shape_dist_traveled"]?["new"] as? Double == 1.75)
    }

    @Test("--changes refuses the database, an input and a place it cannot write; a failed import leaves no file")
    func changesSafety() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("vbb.sqlite")
        #expect(try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", Self.subset]).status == 0)
        let before = try GTFSImportToolTests.snapshot(db)
        for (path, words) in [(db, "is the database"), (Self.subset + "/stops.txt", "is the input"), ("/nonexistent/dir/c.jsonl", "cannot be created")] {
            let target = path.hasSuffix("stops.txt") ? Self.subset + "/stops.txt" : path
            let inputs = path.hasSuffix("stops.txt") ? [target] : [Self.subset]
            let run = try ToolRunner.run("gtfs-import", ["--db", db, "--changes", path] + inputs)
            #expect(run.status == 1 && run.stderr.contains(words) && run.stderr.contains("nothing was imported"), "\(run.stderr)")
        }
        let both = try ToolRunner.run("gtfs-import", ["--db", db, "--changes", "-", "--json", Self.subset])
        #expect(both.status == 2 && both.stderr.contains("standard output"))
        let batched = try ToolRunner.run("gtfs-import", ["--db", db, "--changes", "-", "--batch-commit", "100", Self.subset])
        #expect(batched.status == 2 && batched.stderr.contains("--batch-commit"))

        // A strict import that fails: the database as it was, no changes file and no temporary file.
        let broken = folder.file("broken")
        try FileManager.default.copyItem(atPath: Self.subset, toPath: broken)
        try "stop_id,stop_name,stop_lat,stop_lon\nX,Bad,north,13.4\n".write(toFile: broken + "/stops.txt", atomically: true, encoding: .utf8)
        let changes = folder.file("changes.jsonl")
        let failed = try ToolRunner.run("gtfs-import", ["--db", db, "--strict", "--changes", changes, broken])
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("changes.jsonl") }.isEmpty)
        #expect(try GTFSImportToolTests.snapshot(db) == before)
        // On standard output, a last line says the changes above did not happen.
        let failedOut = try ToolRunner.run("gtfs-import", ["--db", db, "--strict", "--changes", "-", broken])
        #expect(failedOut.status == 1)
        let last = try #require(try Self.objects(failedOut.stdoutText).last)
        #expect(last["complete"] as? Bool == false && (last["error"] as? String)?.isEmpty == false)
    }

    @Test("diff OLD NEW: 0 for the same rows, 1 and the changes when they differ, 2 for trouble; nothing left behind")
    func diff() throws {
        let folder = try TemporaryFolder()
        let edited = try Self.edited(in: folder)
        let temporary = folder.file("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let environment = ["TMPDIR": temporary]

        let same = try ToolRunner.run("gtfs-import", ["diff", Self.subset, Self.subset], environment: environment)
        #expect(same.status == 0, "\(same.stderr)")
        #expect(try Self.objects(same.stdoutText).map { $0["complete"] as? Bool } == [true])

        let differ = try ToolRunner.run("gtfs-import", ["diff", Self.subset, edited.path], environment: environment)
        #expect(differ.status == 1, "\(differ.stderr)")
        let lines = try Self.objects(differ.stdoutText)
        #expect(lines.filter { $0["table"] as? String == "stops" }.count == 3)
        #expect(lines.filter { $0["table"] as? String == "transfers" }.count == 1030)
        let summary = try #require(lines.last?["summary"] as? [String: [String: Int]])
        #expect(summary["stops"] == ["inserted": 1, "updated": 1, "deleted": 1])

        // The other way round: the deletes become inserts.
        let back = try ToolRunner.run("gtfs-import", ["diff", edited.path, Self.subset], environment: environment)
        #expect(back.status == 1)
        #expect(try #require(try Self.objects(back.stdoutText).last?["summary"] as? [String: [String: Int]])["transfers"] == ["inserted": 1030, "updated": 0, "deleted": 0])

        let missing = try ToolRunner.run("gtfs-import", ["diff", Self.subset, folder.file("nothing")], environment: environment)
        #expect(missing.status == 2 && missing.stderr.contains("does not exist"))
        // A new version that fails to import after the old one went in: trouble, and nothing left behind.
        let broken = try folder.write("this is not a zip archive", name: "broken.zip")
        let failed = try ToolRunner.run("gtfs-import", ["diff", Self.subset, broken], environment: environment)
        #expect(failed.status == 2 && failed.stderr.contains("broken.zip"), "\(failed.stderr)")
        let usage = try ToolRunner.run("gtfs-import", ["diff", Self.subset])
        #expect(usage.status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "the temporary database is removed")
    }
}
