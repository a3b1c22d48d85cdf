import Foundation
import GTFS
import TestSupport
import Testing

/// The line where a repeated key first appears, found by reading the file again
/// (``FeedEntry/firstLines(of:fields:before:options:shouldContinue:)``).
@Suite("Repeated keys: the line each first appears on")
struct KeyLinesTests {
    static let header = KeyValuesTests.header
    static let stopTimeKey = KeyValuesTests.stopTimeKey

    static func key(_ trip: String, _ sequence: Int) throws -> KeyValues { try KeyValuesTests.key(trip, sequence) }

    /// The one entry of a file holding `text`.
    static func entry(_ text: String, name: String = "stop_times.txt", in folder: TemporaryFolder) throws -> FeedEntry {
        try #require(try FeedSource(path: try folder.write(text, name: name)).entries().first)
    }

    @Test("The first line of each key is found; a row the parse rejects holds no key; a key only at or after the limit is not found")
    func firstLines() throws {
        let folder = try TemporaryFolder()
        let text = Self.header
            + "T1,08:00:00,08:00:00,S1,x\n"  // line 2: rejected, its key is no key
            + "T1,08:00:00,08:00:00,S1,1\n"  // 3
            + "T2,08:00:00,08:00:00,S1,1\n"  // 4
            + "T1,08:00:00,08:00:00,S1,1\n"  // 5
            + "T3,08:00:00,08:00:00,S1,1\n"  // 6
        let entry = try Self.entry(text, in: folder)
        let (t1, t2, t3) = (try Self.key("T1", 1), try Self.key("T2", 1), try Self.key("T3", 1))
        let found = try entry.firstLines(of: [t1, t2, t3], fields: Self.stopTimeKey, before: 6, options: ParseOptions()) { true }
        #expect(found.lines == [t1: 3, t2: 4])
    }

    @Test("Keys with absent parts and times are found: the scan compares values as the keys taken from the refused rows hold them")
    func otherKeyTypes() throws {
        let folder = try TemporaryFolder()
        let transfers = "from_stop_id,to_stop_id,from_trip_id,transfer_type\nS0,S1,,0\nS0,S2,,0\nS0,S1,\"\",2\n"
        let transferKey = Transfer.Field.key.map(\.rawValue)
        let repeated = KeyValues(of: try #require(try KeyValuesTests.records(Transfer.self, transfers).last), fields: transferKey)
        let transferEntry = try Self.entry(transfers, name: "transfers.txt", in: folder)
        #expect(try transferEntry.firstLines(of: [repeated], fields: transferKey, before: 4, options: ParseOptions()) { true }.lines == [repeated: 2])
        let frequencies = "trip_id,start_time,end_time,headway_secs\nT1,06:00:00,07:00:00,600\nT1,25:03:00,26:00:00,600\nT1,25:03:00,27:00:00,300\n"
        let frequencyKey = Frequency.Field.key.map(\.rawValue)
        let late = KeyValues(of: try #require(try KeyValuesTests.records(Frequency.self, frequencies).last), fields: frequencyKey)
        let frequencyEntry = try Self.entry(frequencies, name: "frequencies.txt", in: folder)
        #expect(try frequencyEntry.firstLines(of: [late], fields: frequencyKey, before: 4, options: ParseOptions()) { true }.lines == [late: 3])
    }

    @Test("A row repeated 3,000 times: the scan stops once its one key is found, not at the end of the file")
    func stopsEarly() throws {
        let folder = try TemporaryFolder()
        let rows = (0 ..< 5).map { "U\($0),08:00:00,08:00:00,S1,1\n" }.joined() + String(repeating: "T1,08:00:00,08:00:00,S1,1\n", count: 3000)
        let entry = try Self.entry(Self.header + rows, in: folder)
        let (t1, t9) = (try Self.key("T1", 1), try Self.key("T9", 1))
        let found = try entry.firstLines(of: [t1], fields: Self.stopTimeKey, before: 3006, options: ParseOptions()) { true }
        #expect(found.lines == [t1: 7])
        #expect(found.linesRead < 1000, "read \(found.linesRead) lines")
        // A key that is not there: the scan stops at the limit.
        let missing = try entry.firstLines(of: [t9], fields: Self.stopTimeKey, before: 400, options: ParseOptions()) { true }
        #expect(missing.lines.isEmpty)
        #expect(missing.linesRead < 1000, "read \(missing.linesRead) lines")
        let cancelled = #expect(throws: CancellationError.self) {
            try entry.firstLines(of: [t9], fields: Self.stopTimeKey, before: 3006, options: ParseOptions()) { false }
        }
        #expect(cancelled != nil)
    }

    @Test("A zip entry and a gzip file are read again as the import read them")
    func zipAndGzip() throws {
        let folder = try TemporaryFolder()
        let text = Self.header + "T1,08:00:00,08:00:00,S1,1\nT2,08:00:00,08:00:00,S1,1\nT2,08:00:00,08:00:00,S1,1\n"
        var zip = TestZip()
        zip.add("agency.txt", "agency_id,agency_name,agency_url,agency_timezone\nA,X,https://x.de,Europe/Berlin\n")
        zip.add("stop_times.txt", text)
        let entries = try FeedSource(path: try folder.write(zip.archive(), name: "feed.zip")).entries()
        let zipped = try #require(entries.first { $0.table == .stopTimes })
        #expect(zipped.isRereadable)
        let t2 = try Self.key("T2", 1)
        #expect(try zipped.firstLines(of: [t2], fields: Self.stopTimeKey, before: 4, options: ParseOptions()) { true }.lines == [t2: 3])
        let gzip = try #require(try FeedSource(path: try folder.write(Deflate.gzip(Array(text.utf8)), name: "stop_times.txt.gz")).entries().first)
        #expect(try gzip.firstLines(of: [t2], fields: Self.stopTimeKey, before: 4, options: ParseOptions()) { true }.lines == [t2: 3])
    }
}
