import Foundation
import GRDB
import GTFS
import GTFSImport
import TestSupport
import Testing

/// The `gtfs-import` binary, end to end: output, exit status and the database afterwards.
@Suite("gtfs-import: the command-line tool")
struct GTFSImportToolTests {
    static let subset = Repository.berlin.appendingPathComponent("vbb-2025-subset").path
    static let stops2013 = Repository.berlin.appendingPathComponent("vbb-2013/stops.txt.gz").path

    /// Row counts of every table of the database at `path`.
    static func counts(_ path: String) throws -> [GTFSFile: Int] {
        let store = try GTFSStore(path: path)
        defer { try? store.close() }  // read only; a failed close changes nothing the test checks
        return try store.rowCounts()
    }

    /// Every row of every table, to prove a database unchanged.
    static func snapshot(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }  // as above
        return try queue.read { db in
            try GTFSSchema.tableNames.flatMap { table in
                try GRDB.Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { "\(table) \($0)" }.sorted()
            }
        }
    }

    @Test("The Berlin subset: summary table on stdout, exit 0, every table filled, gtfs.sqlite in the current directory")
    func berlinSubset() throws {
        let folder = try TemporaryFolder()
        let result = try ToolRunner.run("gtfs-import", [Self.subset], directory: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdoutText
        #expect(text.hasPrefix("Imported \(Self.subset) into gtfs.sqlite (feed default, full) in "))
        #expect(text.contains("trips.txt              11,427  11,427         0         0"))
        #expect(text.contains("total                  23,418  23,418         0         0"))
        #expect(text.contains("trips.shape_id → shapes.shape_id: 11427 rows refer to 564 missing values"))
        #expect(result.stderr.isEmpty, "not a terminal, and short: no progress lines")
        let counts = try Self.counts(folder.file("gtfs.sqlite"))
        #expect(counts[.stops] == 634 && counts[.trips] == 11_427 && counts[.calendarDates] == 9578)
    }

    @Test("The 2013 stops.txt.gz into --db, then the same stops from standard input with --table")
    func gzipAndStandardInput() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("vbb.sqlite")
        let gz = try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", Self.stops2013])
        #expect(gz.status == 0 && gz.stdout.isEmpty && gz.stderr.isEmpty, "\(gz.stderr)")
        #expect(try Self.counts(db)[.stops] == 12_793)

        let plain = try Data(contentsOf: Repository.berlin.appendingPathComponent("vbb-2013/stops.txt"))
        let stdin = try ToolRunner.run("gtfs-import", ["--db", db, "--json", "--table", "stops", "-"], stdin: plain)
        #expect(stdin.status == 0, "\(stdin.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: stdin.stdout) as? [String: Any])
        #expect(json["rowsStored"] as? Int == 12_793)
        #expect(json["exitStatus"] as? Int == 0)
        #expect((json["tables"] as? [[String: Any]])?.first?["table"] as? String == "stops")
        #expect(try Self.counts(db)[.stops] == 12_793)
    }

    @Test("Rejected rows: exit 3, the first errors on stderr as file:line: column: message, all of them with --errors")
    func rejectedRows() throws {
        let folder = try TemporaryFolder()
        var text = "stop_id,stop_name,stop_lat,stop_lon\n"
        for index in 0 ..< 30 { text += "S\(index),Stop \(index),\(index % 2 == 0 ? "52.5" : "north"),13.4\n" }
        let path = folder.file("stops.txt")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let errors = folder.file("errors.txt")
        let result = try ToolRunner.run("gtfs-import", ["--errors", errors, path], directory: folder.path)
        #expect(result.status == 3)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first == "stops.txt:3: stop_lat: \"north\" is not a decimal number")
        #expect(lines.count == 11 && lines.last == "… 5 more rejected rows (all in \(errors))")
        let all = try String(contentsOfFile: errors, encoding: .utf8).split(separator: "\n")
        #expect(all.count == 15 && all.last == "error: stops.txt:31: stop_lat: \"north\" is not a decimal number")
        #expect(try Self.counts(folder.file("gtfs.sqlite"))[.stops] == 15)
    }

    @Test("Bad inputs: one line on stderr, exit 1, and the database unchanged",
          arguments: ["missing", "empty directory", "not a zip", "truncated gzip", "no table", "empty file", "strict"])
    func badInput(_ kind: String) throws {
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        #expect(try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", Self.subset]).status == 0)
        let before = try Self.snapshot(db)
        var arguments = ["--db", db]
        let expected: String
        switch kind {
        case "missing":
            arguments.append(folder.file("stops.txt"))
            expected = "gtfs-import: \(folder.file("stops.txt")): does not exist"
        case "empty directory":
            try FileManager.default.createDirectory(atPath: folder.file("feed"), withIntermediateDirectories: false)
            arguments.append(folder.file("feed"))
            expected = "gtfs-import: \(folder.file("feed")): holds no file of the GTFS reference (agency.txt, stops.txt, …); nothing was imported"
        case "not a zip":
            try Data("not a zip\n".utf8).write(to: URL(fileURLWithPath: folder.file("feed.zip")))
            arguments.append(folder.file("feed.zip"))
            expected = "gtfs-import: \(folder.file("feed.zip")): is not a zip archive"
        case "truncated gzip":
            let gzip = try Data(contentsOf: URL(fileURLWithPath: Self.stops2013))
            try gzip.prefix(gzip.count / 2).write(to: URL(fileURLWithPath: folder.file("stops.txt.gz")))
            arguments.append(folder.file("stops.txt.gz"))
            expected = "gtfs-import: \(folder.file("stops.txt.gz")): truncated gzip data"
        case "no table":
            try Data("a,b\n1,2\n".utf8).write(to: URL(fileURLWithPath: folder.file("haltestellen.txt")))
            arguments.append(folder.file("haltestellen.txt"))
            expected = "gtfs-import: \(folder.file("haltestellen.txt")): names no GTFS table (stops.txt, stop_times.txt.gz, …); give --table NAME"
        case "empty file":
            try Data().write(to: URL(fileURLWithPath: folder.file("stops.txt")))
            arguments.append(folder.file("stops.txt"))
            expected = "gtfs-import: stops.txt: is empty (0 bytes); nothing was imported"
        default:
            try Data("stop_id,stop_name,stop_lat,stop_lon\nA,a,52.5,13.4\nB,b,north,13.4\n".utf8)
                .write(to: URL(fileURLWithPath: folder.file("stops.txt")))
            arguments += ["--strict", folder.file("stops.txt")]
            expected = "gtfs-import: stops.txt:3: stop_lat: \"north\" is not a decimal number; nothing was imported"
        }
        let result = try ToolRunner.run("gtfs-import", arguments)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix(expected), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try Self.snapshot(db) == before)
    }

    @Test("Database problems: not a GTFS database, an unwritable path, a file the user may not write")
    func databaseProblems() throws {
        let folder = try TemporaryFolder()
        let other = folder.file("notes.sqlite")
        let queue = try DatabaseQueue(path: other)
        try queue.write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')") }
        try queue.close()
        let notGTFS = try ToolRunner.run("gtfs-import", ["--db", other, Self.stops2013])
        #expect(notGTFS.status == 1)
        #expect(notGTFS.stderr == "gtfs-import: \(other): not a GTFS database: it holds other tables (notes); nothing was imported\n")
        #expect(try DatabaseQueue(path: other).read { db in try String.fetchAll(db, sql: "SELECT text FROM notes") } == ["keep me"])

        let unwritable = try ToolRunner.run("gtfs-import", ["--db", "/nonexistent/dir/gtfs.sqlite", Self.stops2013])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr == "gtfs-import: /nonexistent/dir/gtfs.sqlite: cannot create a file in /nonexistent/dir: No such file or directory; nothing was imported\n")

        // A database the user may only read: run the tool as `nobody` on a root-owned file.
        let db = folder.file("gtfs.sqlite")
        #expect(try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", Self.subset]).status == 0)
        let before = try Self.snapshot(db)
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        let copy = folder.file("gtfs-import")
        try FileManager.default.copyItem(atPath: ToolRunner.productsDirectory.appendingPathComponent("gtfs-import").path, toPath: copy)
        chmod(folder.path, 0o755)
        chmod(copy, 0o755)
        chmod(Self.stops2013, 0o644)
        let wrapper = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", copy]
        let readOnly = try ToolRunner.run("gtfs-import", ["--db", db, Self.stops2013], wrapper: wrapper)
        #expect(readOnly.status == 1)
        #expect(readOnly.stderr.hasPrefix("gtfs-import: \(db): "), "\(readOnly.stderr)")
        #expect(readOnly.stderr.hasSuffix("; nothing was imported\n"), "\(readOnly.stderr)")
        #expect(try Self.snapshot(db) == before)
    }

    @Test("--db a relative symbolic link in the current folder: the store is made where the link points")
    func relativeLink() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.sqlite"), withDestinationPath: "data/target.sqlite")
        let result = try ToolRunner.run("gtfs-import", ["--db", "link.sqlite", "--quiet", Self.stops2013], directory: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.counts(folder.file("data/target.sqlite"))[.stops] == 12_793)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("link.sqlite")) == "data/target.sqlite")
        #expect(!FileManager.default.fileExists(atPath: "/data/target.sqlite"))
    }

    @Test("Usage errors exit 2; --help documents the exit statuses")
    func usage() throws {
        let none = try ToolRunner.run("gtfs-import", [])
        #expect(none.status == 2 && none.stderr.contains("give at least one input"))
        let stdinWithoutTable = try ToolRunner.run("gtfs-import", ["-"])
        #expect(stdinWithoutTable.status == 2 && stdinWithoutTable.stderr.contains("standard input (-) needs --table NAME"))
        let badTable = try ToolRunner.run("gtfs-import", ["--table", "haltestellen", "-"])
        #expect(badTable.status == 2 && badTable.stderr.contains("--table haltestellen is not a GTFS table"))
        let help = try ToolRunner.run("gtfs-import", ["--help"])
        #expect(help.status == 0)
        for line in ["0    imported", "3    imported, but some rows were rejected", "1    failed; the database is unchanged",
                     "2    usage error", "130  cancelled by SIGINT"] {
            #expect(help.stdoutText.contains(line), "\(line)")
        }
    }
}
