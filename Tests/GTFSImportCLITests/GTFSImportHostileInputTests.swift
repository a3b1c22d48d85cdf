import Foundation
import GRDB
import GTFS
import GTFSImport
import TestSupport
import Testing

/// `gtfs-import` against inputs and arguments meant to break it: every one ends with a clear line and a
/// documented status, and the database keeps its content.
@Suite("gtfs-import: hostile arguments, feeds and concurrent runs")
struct GTFSImportHostileInputTests {
    /// A folder with a database holding `input` (the 2013 stops unless given), and its snapshot.
    struct Setup {
        let folder: TemporaryFolder
        let db: String
        let before: [String]

        init(importing input: String = GTFSImportToolTests.stops2013) throws {
            folder = try TemporaryFolder()
            db = folder.file("gtfs.sqlite")
            let first = try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", input])
            #expect(first.status == 0, "\(first.stderr)")
            before = try GTFSImportToolTests.snapshot(db)
        }

        func expectUnchanged(sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try GTFSImportToolTests.snapshot(db) == before, sourceLocation: sourceLocation)
        }
    }

    @Test("--errors naming the database, its WAL, the input or an unwritable place is refused before the import")
    func errorsFile() throws {
        let setup = try Setup()
        let dbBytes = try Data(contentsOf: URL(fileURLWithPath: setup.db))
        let input = try setup.folder.write("stop_id,stop_name,stop_lat,stop_lon\nX,Bad,north,13.4\nY,Good,52.5,13.4\n", name: "stops.txt")
        let cases: [(String, String)] = [
            (setup.db, "is the database \(setup.db)"),
            (setup.folder.path + "/./gtfs.sqlite", "is the database \(setup.db)"),
            (setup.db + "-wal", "is the database \(setup.db) (its wal file)"),
            (input, "is the input \(input)"),
            ("/nonexistent/errors.txt", "cannot be created in /nonexistent: No such file or directory"),
            (setup.folder.path, "is a directory"),
        ]
        for (errors, problem) in cases {
            let result = try ToolRunner.run("gtfs-import", ["--db", setup.db, "--max-rejected", "100%", "--errors", errors, input])
            #expect(result.status == 1)
            #expect(result.stderr == "gtfs-import: --errors \(errors) \(problem); nothing was imported\n")
        }
        try setup.expectUnchanged()
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.db)) == dbBytes)
        #expect(try String(contentsOfFile: input, encoding: .utf8).hasPrefix("stop_id,stop_name"))

        // A file of an input directory that the import would read as a table is refused too.
        try FileManager.default.createDirectory(atPath: setup.folder.file("feed"), withIntermediateDirectories: true)
        try setup.folder.write("stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\n", name: "feed/stops.txt")
        let inFeed = try ToolRunner.run("gtfs-import", ["--db", setup.db, "--errors", setup.folder.file("feed/trips.txt"), setup.folder.file("feed")])
        #expect(inFeed.status == 1 && inFeed.stderr.contains("is a file of the input directory"))
        try setup.expectUnchanged()

        let ok = setup.folder.file("errors.txt")
        let written = try ToolRunner.run("gtfs-import", ["--db", setup.db, "--max-rejected", "100%", "--errors", ok, input])
        #expect(written.status == 3)
        #expect(try String(contentsOfFile: ok, encoding: .utf8).hasPrefix("error: stops.txt:2: stop_lat: \"north\""))
    }

    @Test("Option values that would trap or allocate without bound are usage errors: status 2, nothing created",
          arguments: [
            ["--chunk-size", "9223372036854775807"], ["--chunk-size", "1099511627776"], ["--chunk-size", "10737418240"],
            ["--chunk-size", "0"], ["--max-id-length", "0"], ["--max-text-length", "9223372036854775807"],
            ["--max-rejected", "150%"], ["--max-rejected", "-1"], ["--wait", "-1"], ["--wait", "nan"], ["--batch-commit", "0"],
          ])
    func hugeOptions(_ arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let result = try ToolRunner.run("gtfs-import", arguments + [GTFSImportToolTests.stops2013], directory: folder.path)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(!result.wasSignalled)
        #expect(result.stderr.contains(arguments[0]), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("--db naming a device is refused, and nothing is created next to it")
    func deviceDatabase() throws {
        let result = try ToolRunner.run("gtfs-import", ["--db", "/dev/null", GTFSImportToolTests.stops2013])
        #expect(result.status == 1)
        #expect(result.stderr == "gtfs-import: /dev/null: not a GTFS database: it is not a regular file; nothing was imported\n")
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal"))
        #expect(!FileManager.default.fileExists(atPath: "/dev/null.lock"))
    }

    @Test("A second import waits for the first (and says so), or fails at once with --wait 0; remove likewise")
    func secondImport() throws {
        let setup = try Setup()
        // The first import reads standard input, so it holds the lock until the input is closed.
        let first = try ToolRunner.start("gtfs-import", ["--db", setup.db, "--quiet", "--feed", "piped", "--table", "stops", "-"])
        try first.write(Data("stop_id,stop_name,stop_lat,stop_lon\nP1,Piped,52.5,13.4\n".utf8))
        let lock = setup.db + ".lock"
        let deadline = ContinuousClock.now + .seconds(60)
        while !FileManager.default.fileExists(atPath: lock) && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }

        let impatient = try ToolRunner.run("gtfs-import", ["--db", setup.db, "--wait", "0", "--feed", "x", GTFSImportToolTests.subset])
        #expect(impatient.status == 1)
        #expect(impatient.stderr == "gtfs-import: \(setup.db): another import or removal is writing it; nothing was imported (--wait SECONDS waits for it)\n")
        let remove = try ToolRunner.run("gtfs-import", ["remove", "default", "--db", setup.db, "--wait", "0.1"])
        #expect(remove.status == 1 && remove.stderr.contains("another import or removal is writing it; nothing was removed"))
        try setup.expectUnchanged()

        let patient = try ToolRunner.start("gtfs-import", ["--db", setup.db, "--feed", "subset", GTFSImportToolTests.subset])
        #expect(patient.waitForStandardError(containing: "waiting for another import into \(setup.db)…"))
        try first.closeInput()
        #expect(first.wait().status == 0)
        let second = patient.wait()
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdoutText.contains("(feed subset, full)"))
        let feeds = try GTFSStore(path: setup.db).feeds().map(\.name)
        #expect(feeds == ["default", "piped", "subset"])
        #expect(!FileManager.default.fileExists(atPath: lock))
    }

    @Test("Control characters from a feed or its name are printed escaped: list, errors, summary")
    func controlCharacters() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        let name = "\u{1B}[31mRED\u{1B}]0;pwned\u{07}"
        let input = try folder.write("stop_id,stop_name,stop_lat,stop_lon\nS\u{1B}1,Alpha,52\r5,13.4\nA,Alpha,52.5,13.4\n", name: "stops.txt")
        let result = try ToolRunner.run("gtfs-import", ["--db", db, "--feed", name, input])
        #expect(result.status == 3)
        #expect(result.stderr == "stops.txt:2: stop_lat: \"52\\r5\" is not a decimal number\n")
        #expect(result.stdoutText.contains("(feed \\u{1B}[31mRED\\u{1B}]0;pwned\\u{7}, full)"))
        let list = try ToolRunner.run("gtfs-import", ["list", "--db", db])
        #expect(list.status == 0)
        #expect(list.stdoutText.contains("\\u{1B}[31mRED\\u{1B}]0;pwned\\u{7}"))
        #expect(!list.stdoutText.contains("\u{1B}") && !result.stdoutText.contains("\u{1B}") && !result.stderr.contains("\u{1B}"))
    }

    @Test("A 10 MB identifier, a 3 MB reference and a 30 MB quoted field are rejected rows, not minutes of work")
    func hugeFields() throws {
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        var text = "stop_id,stop_name,stop_lat,stop_lon,parent_station\n"
        text += (0 ..< 100).map { "S\($0),Stop \($0),52.5,13.4,\n" }.joined()
        text += String(repeating: "x", count: 10_000_000) + ",Huge,52.5,13.4,\n"
        text += "T,Huge parent,52.5,13.4," + String(repeating: "p", count: 3_000_000) + "\n"
        let input = try folder.write(text, name: "stops.txt")
        let result = try ToolRunner.run("gtfs-import", ["--db", db, input])
        #expect(result.status == 3)
        #expect(result.stderr == """
            stops.txt:102: 10,000,016 bytes in line 102, longer than the limit of 4,194,304
            stops.txt:103: parent_station: 3,000,000 bytes, longer than the limit of 65,536

            """)
        #expect(try GTFSImportToolTests.counts(db)[.stops] == 100)

        // One row, rejected: more than half the file, so the import fails and the stops stay.
        let quoted = try folder.write(
            "stop_id,stop_name,stop_lat,stop_lon\nA,\"" + String(repeating: "q", count: 30_000_000) + "\",52.5,13.4\n", name: "big/stops.txt")
        let line = try ToolRunner.run("gtfs-import", ["--db", db, quoted])
        #expect(line.status == 1)
        #expect(line.stderr == "gtfs-import: stops.txt: 1 of 1 rows rejected, more than the limit of 50% "
            + "(the first: stops.txt:2: 30,000,014 bytes in line 2, longer than the limit of 4,194,304); nothing was imported\n")
        #expect(try GTFSImportToolTests.counts(db)[.stops] == 100)
    }
}
