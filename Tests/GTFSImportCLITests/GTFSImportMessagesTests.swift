import Foundation
import GTFS
import GTFSImport
import TestSupport
import Testing

/// What a user sees of `gtfs-import` besides the data: the progress on a terminal, the messages about a
/// feed, help and version.
@Suite("gtfs-import: progress, messages, help")
struct GTFSImportMessagesTests {
    static let subset = GTFSImportToolTests.subset

    /// Runs `tool` with standard error and output on a pseudo-terminal (through `script`), and returns
    /// the screen's lines: redrawn lines split at their carriage returns, erase-line sequences removed.
    static func onTerminal(_ tool: String, _ arguments: [String], directory: String) throws -> (status: Int32, lines: [String]) {
        let path = ToolRunner.productsDirectory.appendingPathComponent(tool).path
        #if canImport(Darwin)
        // BSD script: `script -q FILE COMMAND…`.
        let wrapper = ["/usr/bin/script", "-q", "/dev/null", path] + arguments
        #else
        // util-linux script: `script -qec "COMMAND LINE" FILE`.
        let command = ([path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let wrapper = ["/usr/bin/script", "-qec", command, "/dev/null"]
        #endif
        let result = try ToolRunner.run(tool, [], wrapper: wrapper, directory: directory)
        let screen = result.stdoutText.replacingOccurrences(of: "\u{1B}[K", with: "")
        let lines = screen.split(omittingEmptySubsequences: false) { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }.map(String.init)
        return (result.status, lines)
    }

    @Test("On a terminal every loaded file ends with a final line of its rows and time, in load order")
    func progressOnTerminal() throws {
        let folder = try TemporaryFolder()
        let run = try Self.onTerminal("gtfs-import", ["--db", "t.sqlite", Self.subset], directory: folder.path)
        #expect(run.status == 0, "\(run.lines)")
        let pattern = /^([a-z_]+\.txt) +([0-9,]+) rows +[0-9]+\.[0-9]{2} s  done$/
        let finals = run.lines.compactMap { try? pattern.wholeMatch(in: $0) }.map { ($0.1, $0.2) }
        // Every file with rows, once each (frequencies.txt is header-only), with the rows the table holds.
        let expected = [
            ("agency.txt", "4"), ("levels.txt", "202"), ("stops.txt", "634"), ("routes.txt", "82"), ("calendar.txt", "285"),
            ("calendar_dates.txt", "9,578"), ("trips.txt", "11,427"), ("transfers.txt", "1,030"), ("pathways.txt", "176"),
        ]
        #expect(finals.map { "\($0.0) \($0.1)" } == expected.map { "\($0.0) \($0.1)" }, "\(run.lines)")
        // Live lines name the whole input's share as such.
        #expect(run.lines.filter { $0.contains("rows/s") }.allSatisfy { !$0.contains("%") || $0.contains("input ") })
        #expect(run.lines.contains { $0.hasPrefix("Imported ") })

        let quiet = try Self.onTerminal("gtfs-import", ["--db", "q.sqlite", "--quiet", Self.subset], directory: folder.path)
        #expect(quiet.status == 0)
        #expect(quiet.lines.allSatisfy { $0.isEmpty }, "\(quiet.lines)")
    }

    @Test("Skipped files are said once, warnings go to stderr with the rest counted, and the warnings column adds up")
    func skippedFilesAndWarnings() throws {
        let folder = try TemporaryFolder()
        let feed = folder.file("feed")
        try FileManager.default.copyItem(atPath: Self.subset, toPath: feed)
        try Data("direction_id,name\n".utf8).write(to: URL(fileURLWithPath: feed + "/directions.txt"))
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: feed + "/notes.txt"))
        // Twelve unknown columns: twelve warnings, ten shown.
        let columns = (1 ... 12).map { "x_\($0)" }
        let agency = try String(contentsOfFile: feed + "/agency.txt", encoding: .utf8).split(separator: "\n").enumerated().map { index, line in
            line + (index == 0 ? "," + columns.joined(separator: ",") : String(repeating: ",", count: columns.count)) + "\n"
        }
        try agency.joined().write(toFile: feed + "/agency.txt", atomically: true, encoding: .utf8)

        let result = try ToolRunner.run("gtfs-import", ["--db", folder.file("w.sqlite"), feed])
        #expect(result.status == 0, "\(result.stderr)")
        let stderr = result.stderr.split(separator: "\n").map(String.init)
        #expect(stderr.first == "skipped 2 files that are not in the GTFS reference: directions.txt, notes.txt")
        #expect(stderr.dropFirst().first == "warning: agency.txt:1: x_1: unknown column, ignored")
        #expect(stderr.count == 12 && stderr.last == "… 2 more warnings (--errors FILE writes them all)", "\(stderr)")
        #expect(result.stdoutText.contains("agency.txt                  4       4         0        12"))
        #expect(result.stdoutText.contains("total                  23,418  23,418         0        12"))
    }

    @Test("A feed of header-only files imports with a warning on a (feed) row; CR CR LF line ends are read with one warning")
    func emptyFeedAndStrayCarriageReturns() throws {
        let folder = try TemporaryFolder()
        let empty = folder.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        for (name, header) in [("agency", "agency_id,agency_name,agency_url,agency_timezone"), ("stops", "stop_id,stop_name")] {
            try Data((header + "\n").utf8).write(to: URL(fileURLWithPath: "\(empty)/\(name).txt"))
        }
        let result = try ToolRunner.run("gtfs-import", ["--db", folder.file("e.sqlite"), empty])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "warning: \(empty): holds no stops, routes or trips: the feed is empty\n")
        #expect(result.stdoutText.contains("(feed)              0       0         0         1"))

        let stops = folder.file("stops.txt")
        try Data("stop_id,stop_name,stop_lat,stop_lon\r\r\nA,Alpha,52.5,13.4\r\r\nB,\"Beta\",52.6,13.5\r\r\n".utf8)
            .write(to: URL(fileURLWithPath: stops))
        let crcr = try ToolRunner.run("gtfs-import", ["--db", folder.file("c.sqlite"), "--json", stops])
        #expect(crcr.status == 0, "\(crcr.stderr)")
        #expect(crcr.stderr.hasPrefix("warning: stops.txt:1: ends with a carriage return before its line end (CR CR LF?)"))
        let store = try GTFSStore(readingFrom: folder.file("c.sqlite"))
        let names = try store.pool.read { try String.fetchAll($0, sql: "SELECT stop_name FROM stops ORDER BY stop_id") }
        #expect(names == ["Alpha", "Beta"])
    }

    @Test("Inputs that cannot work are refused in words: a zip piped in, an ftp URL, a refused connection, --strict on a file that is not UTF-8")
    func refusedInputs() throws {
        let folder = try TemporaryFolder()
        let zip = try Data(contentsOf: Repository.berlin.appendingPathComponent("vbb-2025-subset.zip"))
        let piped = try ToolRunner.run("gtfs-import", ["--db", folder.file("z.sqlite"), "--table", "stops", "-"], stdin: zip)
        #expect(piped.status == 1)
        #expect(
            piped.stderr
                == "gtfs-import: <stdin>: is a zip archive, which cannot be read as a stream: give the .zip file's path; nothing was imported\n")

        let ftp = try ToolRunner.run("gtfs-import", ["--db", folder.file("u.sqlite"), "ftp://example.org/gtfs.zip"])
        #expect(ftp.status == 1)
        #expect(
            ftp.stderr
                == "gtfs-import: ftp://example.org/gtfs.zip: is a URL, not a path: only http and https URLs are fetched (gtfs-import URL, GTFSFetch)\n"
        )
        // Port 1 of this machine: nothing listens, the connection is refused at once.
        let refused = try ToolRunner.run("gtfs-import", ["--db", folder.file("u.sqlite"), "--retries", "0", "http://127.0.0.1:1/gtfs.zip"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("gtfs-import: http://127.0.0.1:1/gtfs.zip: the connection failed: "), "\(refused.stderr)")
        #expect(refused.stderr.hasSuffix("; nothing was imported\n") && !FileManager.default.fileExists(atPath: folder.file("u.sqlite")))

        let latin1 = folder.file("stops.txt")
        // "Straße" in Latin-1: 0xDF alone is not UTF-8.
        try Data(Array("stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\nB,Stra".utf8) + [0xDF] + Array("e,52.5,13.4\n".utf8)).write(to: URL(fileURLWithPath: latin1))
        let strict = try ToolRunner.run("gtfs-import", ["--db", folder.file("s.sqlite"), "--strict", latin1])
        #expect(strict.status == 1)
        #expect(strict.stderr == "gtfs-import: stops.txt:3: is not valid UTF-8 (strict mode reads UTF-8 only); nothing was imported\n")
    }

    @Test("--help shows the import options and the commands; every tool has --version")
    func helpAndVersion() throws {
        let help = try ToolRunner.run("gtfs-import", ["--help"])
        #expect(help.status == 0)
        #expect(help.stdoutText.contains("USAGE: gtfs-import [import] [<options>] [<inputs> ...]"))
        #expect(help.stdoutText.contains("--max-rejected <N|P%>") && help.stdoutText.contains("--db <FILE|URI>"))
        #expect(help.stdoutText.contains("SUBCOMMANDS:") && help.stdoutText.contains("  remove "))
        for tool in ["gtfs-import", "lines", "gtfs-synth"] {
            let version = try ToolRunner.run(tool, ["--version"])
            #expect(version.status == 0)
            #expect(version.stdoutText.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+( \(database schema [0-9]+\))?\n/) != nil, "\(tool): \(version.stdoutText)")
        }
    }
}
