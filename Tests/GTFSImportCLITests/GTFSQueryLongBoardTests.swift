import Foundation
import TestSupport
import Testing

/// Boards of many rows: four trips every second for a week hold 2.4 million departures. The board stops
/// at its limit and says so, and a board asked for all of them prints them in bounded memory.
@Suite("gtfs-query: boards of millions of rows")
struct GTFSQueryLongBoardTests {
    /// A feed of four frequency-based trips leaving S1 every second of every day.
    static func everySecond(in folder: TemporaryFolder) throws -> String {
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.com,Europe/Berlin\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,52.5,13.4\nS2,Two,52.6,13.5\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR,A,F1,3\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nW,1,1,1,1,1,1,1,20250101,20251231\n",
            "trips.txt": "route_id,service_id,trip_id,trip_headsign\n" + (1 ... 4).map { "R,W,T\($0),Two\n" }.joined(),
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + (1 ... 4).map { "T\($0),00:00:00,00:00:00,S1,1\nT\($0),00:05:00,00:05:00,S2,2\n" }.joined(),
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs\n" + (1 ... 4).map { "T\($0),00:00:00,24:00:00,1\n" }.joined(),
        ]
        for (name, text) in files { try folder.write(text, name: "feed/\(name)") }
        let db = folder.file("gtfs.sqlite")
        let result = try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", folder.file("feed")])
        #expect(result.status == 0, "\(result.stderr)")
        return db
    }

    @Test("A week's board stops at 1,000 rows by default and says there are more")
    func defaultLimit() throws {
        let folder = try TemporaryFolder()
        let db = try Self.everySecond(in: folder)
        let week = ["departures", "S1", "--db", db, "--at", "2025-06-02 00:00", "--minutes", "10080"]
        let text = try ToolRunner.run("gtfs-query", week)
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdoutText.split(separator: "\n")
        #expect(lines.count == 1 + 1 + 1000 + 1, "header, column names, rows, footer")
        #expect(lines.last == "the first 1,000 departures (there are more: --limit N shows them)")
        let json = try ToolRunner.run("gtfs-query", week + ["--json", "--limit", "10"])
        #expect(json.status == 0)
        #expect(try (JSONSerialization.jsonObject(with: json.stdout) as? [Any])?.count == 10)
        #expect(json.stderr == "gtfs-query: the first 10 departures (there are more: --limit N shows them)\n")
    }

    @Test("60,000 rows as JSON stream out in bounded memory, in time order", .enabled(if: ToolRunner.canMeasurePeakMemory, "needs GNU time (Debian's time package)"))
    func streamed() throws {
        let folder = try TemporaryFolder()
        let db = try Self.everySecond(in: folder)
        let arguments = ["departures", "S1", "--db", db, "--at", "2025-06-02 00:00", "--minutes", "10080", "--limit", "60000", "--json"]
        let measured = try ToolRunner.measuringPeakMemory("gtfs-query", arguments)
        #expect(measured.status == 0)
        #expect(measured.peakBytes < 80 << 20, "peak \(measured.peakBytes >> 20) MiB")
        let output = try ToolRunner.run("gtfs-query", arguments)
        let rows = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [[String: Any]])
        #expect(rows.count == 60_000)
        let times = rows.compactMap { $0["time"] as? String }
        #expect(times.first == "2025-06-02T00:00:00+02:00" && times.last == "2025-06-02T04:09:59+02:00")
        #expect(times == times.sorted())
    }

    @Test("stops --name with 65,000 one-letter words: a usage error at once, in little memory", .enabled(if: ToolRunner.canMeasurePeakMemory, "needs GNU time (Debian's time package)"))
    func manyWords() throws {
        let folder = try TemporaryFolder()
        let db = try Self.everySecond(in: folder)
        let words = Array(repeating: "a", count: 65_000).joined(separator: " ")
        let measured = try ToolRunner.measuringPeakMemory("gtfs-query", ["stops", "--db", db, "--name", words])
        #expect(measured.status == 2)
        #expect(measured.peakBytes < 100 << 20, "peak \(measured.peakBytes >> 20) MiB")
        let result = try ToolRunner.run("gtfs-query", ["stops", "--db", db, "--name", words])
        #expect(result.stderr.hasPrefix("Error: --name has 65,000 words; at most 32 are looked for\n"), "\(result.stderr)")
    }
}
