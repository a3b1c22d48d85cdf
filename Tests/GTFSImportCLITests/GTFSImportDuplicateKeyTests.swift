import Foundation
import TestSupport
import Testing

/// `gtfs-import` reporting rows whose key repeats an earlier row's: the line the key first appeared on
/// when the input can be read again, "an earlier row" from standard input unless the same batch held it.
@Suite("gtfs-import: duplicate keys")
struct GTFSImportDuplicateKeyTests {
    /// 1,100 stop times with distinct keys (lines 2 to 1101), then at line 1102 a repeat of line 2, which a
    /// batch of 1,024 rows no longer holds, and at line 1103 a repeat of line 1101, which its batch holds.
    static let stopTimes = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        + (0 ..< 1100).map { "T\($0 / 10),08:00:00,08:00:00,S1,\($0 % 10)\n" }.joined()
        + "T0,09:00:00,09:00:00,S2,0\n" + "T109,09:00:00,09:00:00,S2,9\n"

    static let crossBatch = #"stop_times.txt:1102: (trip_id, stop_sequence) = ("T0", 0) repeats line 2; rejected"#
    static let sameBatch = #"stop_times.txt:1103: (trip_id, stop_sequence) = ("T109", 9) repeats line 1101; rejected"#

    @Test("From a file: both repeats name the line they repeat, on stderr, in --errors and in --json")
    func file() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(Self.stopTimes, name: "stop_times.txt")
        let errors = folder.file("errors.txt")
        let result = try ToolRunner.run("gtfs-import", ["--db", folder.file("feed.sqlite"), "--json", "--errors", errors, path])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains(Self.crossBatch + "\n") && result.stderr.contains(Self.sameBatch + "\n"), "\(result.stderr)")
        let written = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(written.contains(Self.crossBatch) && written.contains(Self.sameBatch), "\(written)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let tableErrors = (json["tables"] as? [[String: Any]])?.first?["errors"] as? [String]
        #expect(tableErrors == [Self.crossBatch, Self.sameBatch])
    }

    @Test("From standard input, which cannot be read again: a repeat of an earlier batch's row says so with its values")
    func standardInput() throws {
        let folder = try TemporaryFolder()
        let result = try ToolRunner.run(
            "gtfs-import", ["--db", folder.file("feed.sqlite"), "--table", "stop_times", "-"], stdin: Data(Self.stopTimes.utf8))
        #expect(result.status == 3, "\(result.stderr)")
        let unknown = #"stop_times.txt:1102: (trip_id, stop_sequence) = ("T0", 0) repeats an earlier row; rejected"#
        #expect(result.stderr.contains(unknown + "\n"), "\(result.stderr)")
        #expect(result.stderr.contains(Self.sameBatch + "\n"), "\(result.stderr)")
    }
}
