import Foundation
import GTFS
import GTFSImport
import TestSupport
import Testing

/// `gtfs-query` on the bundled Berlin sample (the 2025 subset with its generated stop times), end to end.
@Suite("gtfs-query: departure boards and stops")
struct GTFSQueryToolTests {
    static let stopTimes = Repository.berlin.appendingPathComponent("vbb-2025-generated/stop_times.txt.gz").path

    /// A database holding the sample, as the README's Quick start makes it.
    static func sample(in folder: TemporaryFolder) throws -> String {
        let db = folder.file("berlin.sqlite")
        for input in [GTFSImportToolTests.subset, stopTimes] {
            let result = try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", input])
            #expect(result.status == 0, "\(result.stderr)")
        }
        return db
    }

    @Test("A departure board for a station found by name, as text and JSON; arrivals; a board past midnight")
    func departures() throws {
        let folder = try TemporaryFolder()
        let db = try Self.sample(in: folder)
        let board = try ToolRunner.run("gtfs-query", ["departures", "Alexanderplatz", "--db", db, "--at", "2025-11-24 08:00", "--minutes", "10"])
        #expect(board.status == 0, "\(board.stderr)")
        #expect(
            board.stdoutText == """
                Departures from S+U Alexanderplatz Bhf (Berlin) (de:11000:900100003), Mon 2025-11-24 08:00 to 08:10, Europe/Berlin

                time   line  platform  to
                08:00  M10   1         S+U Warschauer Str. (Berlin)
                08:04  M10   2 (U8)    U Turmstr. (Berlin)
                08:05  M10   1         S+U Warschauer Str. (Berlin)
                08:09  M10   2 (U8)    U Turmstr. (Berlin)

                4 departures

                """)

        let json = try ToolRunner.run(
            "gtfs-query", ["departures", "de:11000:900100003", "--db", db, "--at", "2025-11-24T07:00:00Z", "--minutes", "10", "--json"])
        #expect(json.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        #expect(rows.map { $0["time"] as? String } == [
            "2025-11-24T08:00:00+01:00", "2025-11-24T08:04:00+01:00", "2025-11-24T08:05:00+01:00", "2025-11-24T08:09:00+01:00",
        ])
        #expect(rows.first?["line"] as? String == "M10" && rows.first?["serviceDate"] as? String == "20251124")

        let arrivals = try ToolRunner.run(
            "gtfs-query", ["departures", "Alexanderplatz", "--arrivals", "--db", db, "--at", "2025-11-24 08:00", "--minutes", "10"])
        #expect(arrivals.status == 0 && arrivals.stdoutText.hasPrefix("Arrivals at S+U Alexanderplatz Bhf (Berlin)"))
        // The arrivals' last column is where each trip comes from: its first stop.
        let arrivalLines = arrivals.stdoutText.split(separator: "\n")
        #expect(arrivalLines.dropFirst().first?.split(separator: " ") == ["time", "line", "platform", "from"])
        let arrivalsJSON = try ToolRunner.run(
            "gtfs-query", ["departures", "Alexanderplatz", "--arrivals", "--db", db, "--at", "2025-11-24 08:00", "--minutes", "10", "--json"])
        let arrivalRows = try #require(try JSONSerialization.jsonObject(with: arrivalsJSON.stdout) as? [[String: Any]])
        #expect(!arrivalRows.isEmpty && arrivalRows.allSatisfy { ($0["origin"] as? String)?.isEmpty == false })
        #expect(arrivalLines.contains { line in arrivalRows.first.flatMap { $0["origin"] as? String }.map { line.hasSuffix($0) } ?? false })

        // After midnight the board shows the trips of the day before that are still running.
        let late = try ToolRunner.run(
            "gtfs-query", ["departures", "Alexanderplatz", "--db", db, "--at", "2025-11-25 00:00", "--minutes", "60", "--json"])
        let lateRows = try #require(try JSONSerialization.jsonObject(with: late.stdout) as? [[String: Any]])
        #expect(!lateRows.isEmpty && lateRows.allSatisfy { $0["serviceDate"] as? String == "20251124" })
    }

    @Test("departures --all: every departure of the network, with its stop, as the station board has its own")
    func wholeNetwork() throws {
        let folder = try TemporaryFolder()
        let db = try Self.sample(in: folder)
        let all = try ToolRunner.run("gtfs-query", ["departures", "--all", "--db", db, "--at", "2025-11-24 08:00", "--minutes", "10", "--json", "--limit", "100000"])
        #expect(all.status == 0, "\(all.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: all.stdout) as? [[String: Any]])
        let station = try ToolRunner.run("gtfs-query", ["departures", "Alexanderplatz", "--db", db, "--at", "2025-11-24 08:00", "--minutes", "10", "--json"])
        let stationRows = try #require(try JSONSerialization.jsonObject(with: station.stdout) as? [[String: Any]])
        let stationStops = Set(stationRows.compactMap { $0["stopID"] as? String })
        // The network's rows at the station's platforms are the station's board, in the same order.
        let atStation = rows.filter { stationStops.contains($0["stopID"] as? String ?? "") }
        #expect(atStation.map { "\($0["time"] ?? "") \($0["tripID"] ?? "")" } == stationRows.map { "\($0["time"] ?? "") \($0["tripID"] ?? "")" })
        #expect(rows.count > 10 * stationRows.count && Set(rows.compactMap { $0["stopID"] as? String }).count > 50)
        let times = rows.compactMap { $0["time"] as? String }
        #expect(times == times.sorted() && times.first.map { $0 >= "2025-11-24T08:00" } == true && times.last.map { $0 < "2025-11-24T08:10" } == true)

        let text = try ToolRunner.run("gtfs-query", ["departures", "--all", "--db", db, "--at", "2025-11-24 08:00", "--minutes", "10", "--limit", "3"])
        #expect(text.status == 0)
        let lines = text.stdoutText.split(separator: "\n")
        #expect(lines.first?.hasPrefix("Departures of the whole network, Mon 2025-11-24 08:00 to 08:10, Europe/Berlin") == true)
        #expect(lines.dropFirst().first?.split(separator: " ", omittingEmptySubsequences: true) == ["time", "line", "stop", "platform", "to"])
        #expect(lines.last == "the first 3 departures (there are more: --limit N shows them)")

        for (arguments, message) in [
            (["departures"], "give a STOP, or --all"), (["departures", "X", "--all"], "not both"), (["departures", "--all", "--arrivals"], "needs a STOP"),
        ] {
            let result = try ToolRunner.run("gtfs-query", arguments + ["--db", db])
            #expect(result.status == 2 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    @Test("Stops near a point, nearest first, and by name without diacritics")
    func stops() throws {
        let folder = try TemporaryFolder()
        let db = try Self.sample(in: folder)
        let near = try ToolRunner.run("gtfs-query", ["stops", "--near", "52.5219,13.4132", "--within", "70", "--db", db])
        #expect(near.status == 0)
        #expect(
            near.stdoutText == """
                stop_id                name                             type  platform  distance
                de:11000:900100003::3  S+U Alexanderplatz Bhf (Berlin)  stop  1 (U5)        53 m
                de:11000:900100003::4  S+U Alexanderplatz Bhf (Berlin)  stop  2 (U5)        59 m
                de:11000:900100003::1  S+U Alexanderplatz Bhf (Berlin)  stop  1 (U2)        62 m

                """)
        // A search cut at its limit says how many stops it found in all.
        let cut = try ToolRunner.run("gtfs-query", ["stops", "--name", "S U", "--limit", "2", "--db", db])
        #expect(cut.status == 0 && cut.stdoutText.split(separator: "\n").last.map { $0.hasPrefix("the first 2 of ") && $0.hasSuffix(" stops (--limit N shows more)") } == true, "\(cut.stdoutText)")
        let named = try ToolRunner.run("gtfs-query", ["stops", "--name", "HACKESCHER markt", "--db", db, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: named.stdout) as? [[String: Any]])
        #expect(!rows.isEmpty && rows.allSatisfy { ($0["name"] as? String)?.contains("Hackescher Markt") == true })
    }

    @Test("Mistakes: an unknown stop, feed or database fails with one line; a bad time or option is a usage error")
    func mistakes() throws {
        let folder = try TemporaryFolder()
        let db = try Self.sample(in: folder)
        let unknown = try ToolRunner.run("gtfs-query", ["departures", "Atlantis", "--db", db])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "gtfs-query: no stop \"Atlantis\" in feed default (gtfs-query stops --name TEXT lists stops by name)\n")
        let missing = try ToolRunner.run("gtfs-query", ["departures", "Alexanderplatz", "--db", folder.file("none.sqlite")])
        #expect(missing.status == 1 && missing.stderr == "gtfs-query: \(folder.file("none.sqlite")): no such database (gtfs-import writes one)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("none.sqlite")))
        // An unknown feed is named with the feeds the database holds, for every command.
        for arguments in [["departures", "Alexanderplatz"], ["departures", "--all"], ["stops", "--name", "Alex"], ["stops", "--near", "52.52,13.41"]] {
            let result = try ToolRunner.run("gtfs-query", arguments + ["--db", db, "--feed", "nope"])
            #expect(result.status == 1 && result.stderr == "gtfs-query: no feed \"nope\"; the store holds default\n", "\(arguments): \(result.stderr)")
        }
        for arguments in [["departures", "X", "--at", "25:00"], ["departures", "X", "--minutes", "0"], ["stops"], ["stops", "--near", "95,13"]] {
            let result = try ToolRunner.run("gtfs-query", arguments + ["--db", db])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
        }
    }

    @Test("A board outside every date the feed runs says the feed's dates, which list shows; an empty board inside them says so")
    func outsideServiceDates() throws {
        let folder = try TemporaryFolder()
        let db = try Self.sample(in: folder)
        let store = try GTFSStore(path: db)
        let dates = try #require(try store.serviceDates())
        try store.close()
        func dashed(_ date: GTFSDate) -> String { String(format: "%04d-%02d-%02d", date.year, date.month, date.day) }
        let runs = "the feed runs \(dashed(dates.lowerBound)) to \(dashed(dates.upperBound))"
        for (arguments, expected) in [
            (["departures", "Alexanderplatz", "--at", "2030-01-01 08:00"], "\nno departures: \(runs)\n"),
            (["departures", "Alexanderplatz", "--arrivals", "--at", "2020-01-01 08:00"], "\nno arrivals: \(runs)\n"),
            (["departures", "Alexanderplatz", "--at", "2025-11-24 03:00", "--minutes", "1"], "\nno departures in this time\n"),
        ] {
            let result = try ToolRunner.run("gtfs-query", arguments + ["--db", db])
            #expect(result.status == 0 && result.stdoutText.hasSuffix(expected), "\(arguments): \(result.stdoutText)")
        }
        let json = try ToolRunner.run("gtfs-query", ["departures", "Alexanderplatz", "--at", "2030-01-01 08:00", "--json", "--db", db])
        #expect(json.status == 0 && json.stderr == "gtfs-query: no departures: \(runs)\n", "\(json.stderr)")
        // gtfs-import list shows the same dates, in its table and its JSON.
        let list = try ToolRunner.run("gtfs-import", ["list", "--db", db])
        #expect(list.status == 0 && list.stdoutText.contains(" \(dashed(dates.lowerBound)) to \(dashed(dates.upperBound)) "), "\(list.stdoutText)")
        let listJSON = try ToolRunner.run("gtfs-import", ["list", "--db", db, "--json"])
        let feeds = (try JSONSerialization.jsonObject(with: listJSON.stdout) as? [String: Any])?["feeds"] as? [[String: Any]]
        #expect(feeds?.first?["firstServiceDate"] as? String == dashed(dates.lowerBound))
        #expect(feeds?.first?["lastServiceDate"] as? String == dashed(dates.upperBound))
    }

    @Test("--at: impossible dates, times and offsets are usage errors naming the value; the valid forms answer",
          arguments: [
            ("2025-02-29", "2025-02 has no day 29"), ("2025-04-31 08:00", "2025-04 has no day 31"),
            ("2025-11-24T07:00:00+99:00", "the offset +99:00 is out of range"), ("2025-11-24T07:00:00+24:00", "the offset +24:00 is out of range"),
            ("2025-11-24T07:00:00+01:99", "the offset +01:99 is out of range"), ("2025-11-24 24:00", "24:00:00 is not a time of day"),
            ("2025-13-01", "month 13 does not exist"), ("07:00Z", "not a time"),
          ])
    func impossibleTimes(_ at: String, _ problem: String) throws {
        let result = try ToolRunner.run("gtfs-query", ["departures", "X", "--at", at, "--db", "none.sqlite"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: --at \(at): \(problem)"), "\(result.stderr)")
    }

    @Test("--at: every accepted form names the same instant")
    func acceptedTimes() throws {
        let folder = try TemporaryFolder()
        let db = try Self.sample(in: folder)
        for at in ["2025-11-24 08:00", "2025-11-24T08:00:00", "2025-11-24T07:00:00Z", "2025-11-24T07:00Z", "2025-11-24 08:00+01:00", "2025-11-24T09:00:00+0200"] {
            let result = try ToolRunner.run("gtfs-query", ["departures", "Alexanderplatz", "--db", db, "--at", at, "--minutes", "10"])
            #expect(result.status == 0, "\(at): \(result.stderr)")
            #expect(result.stdoutText.contains("Mon 2025-11-24 08:00 to 08:10") && result.stdoutText.contains("\n4 departures\n"), "\(at)")
        }
        let leap = try ToolRunner.run("gtfs-query", ["departures", "Alexanderplatz", "--db", db, "--at", "2024-02-29 08:00"])
        #expect(leap.status == 0 && leap.stdoutText.contains("Thu 2024-02-29 08:00"), "\(leap.stderr)")
    }
}
