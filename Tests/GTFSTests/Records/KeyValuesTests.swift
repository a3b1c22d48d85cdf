import GTFS
import LineReader
import Testing

/// The values of a repeated key as errors quote them (``KeyValues``), and the description of such an error.
@Suite("Repeated keys: their values as errors quote them")
struct KeyValuesTests {
    static let header = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
    static let stopTimeKey = StopTime.Field.key.map(\.rawValue)

    static func records<R: GTFSRecord>(_ type: R.Type, _ csv: String) throws -> [R] {
        var records: [R] = []
        let summary = try TableParser.parse(R.self, from: try Reader(bytes: Array(csv.utf8)), fileName: R.file.fileName) { records += $0 }
        #expect(summary.rowsRejected == 0, "\(summary.errors)")
        return records
    }

    /// The key of a stop time of `trip` (CSV-quoted, so it may hold anything) at `sequence`.
    static func key(_ trip: String, _ sequence: Int) throws -> KeyValues {
        let row = "\"" + trip.replacing("\"", with: "\"\"") + "\",08:00:00,08:00:00,S1,\(sequence)\n"
        return KeyValues(of: try #require(try records(StopTime.self, header + row).first), fields: stopTimeKey)
    }

    @Test("Text is quoted with its quotes doubled, numbers are not, times read as in the feed, an absent value is empty text")
    func rendering() throws {
        let times = try Self.records(StopTime.self, Self.header + "\"a,\"\"b\"\"\",08:00:00,08:00:00,S1,7\n")
        #expect(KeyValues(of: try #require(times.first), fields: Self.stopTimeKey).text == #"("a,""b""", 7)"#)
        let frequencies = try Self.records(Frequency.self, "trip_id,start_time,end_time,headway_secs\nT1,25:03:00,26:00:00,600\n")
        let frequency = try #require(frequencies.first)
        #expect(KeyValues(of: frequency, fields: Frequency.Field.key.map(\.rawValue)).text == #"("T1", 25:03:00)"#)
        let transfers = try Self.records(Transfer.self, "from_stop_id,to_stop_id,transfer_type\nS0,S1,0\n")
        #expect(KeyValues(of: try #require(transfers.first), fields: Transfer.Field.key.map(\.rawValue)).text == #"("S0", "S1", "", "", "", "")"#)
        let dates = try Self.records(CalendarDate.self, "service_id,date,exception_type\nWD,20250602,1\n")
        #expect(KeyValues(of: try #require(dates.first), fields: CalendarDate.Field.key.map(\.rawValue)).text == #"("WD", 20250602)"#)
    }

    @Test("Equal values are one key, whatever else the rows hold; an absent value equals the empty text, as in a store's key")
    func equality() throws {
        let times = try Self.records(StopTime.self, Self.header + "T1,08:00:00,08:00:00,S1,1\nT1,09:00:00,09:00:00,S2,1\nT1,08:00:00,08:00:00,S1,2\n")
        let keys = times.map { KeyValues(of: $0, fields: Self.stopTimeKey) }
        #expect(keys[0] == keys[1] && keys[0] != keys[2])
        let transfers = try Self.records(Transfer.self, "from_stop_id,to_stop_id,from_trip_id,transfer_type\nS0,S1,,0\nS0,S1,\"\",2\n")
        let fields = Transfer.Field.key.map(\.rawValue)
        #expect(KeyValues(of: transfers[0], fields: fields) == KeyValues(of: transfers[1], fields: fields))
    }

    @Test("A long value is cut as other errors cut it; control characters are left for the error's description to escape")
    func longAndControl() throws {
        let long = String(repeating: "é", count: 150)  // 300 bytes
        let key = try Self.key(long, 1)
        let quoted = String(repeating: "é", count: GTFSError.quotedLength / 2)
        #expect(key.text == "(\"\(quoted)…\", 1)")
        // Two values that differ after the cut are still two keys.
        let longer = try Self.key(long + "x", 1)
        #expect(key != longer)
        let control = try Self.key("T\u{1B}[31m\r", 1)
        #expect(control.text == "(\"T\u{1B}[31m\r\", 1)")
        let error = GTFSError(.duplicateKey, file: "stop_times.txt", line: 3, column: "trip_id, stop_sequence", text: control.text, message: "repeats line 2; rejected")
        #expect(error.description == #"stop_times.txt:3: (trip_id, stop_sequence) = ("T\u{1B}[31m\r", 1) repeats line 2; rejected"#)
    }

    @Test("A duplicate key's description is an equation of tuples; without values it reads as other errors do")
    func description() {
        let error = GTFSError(
            .duplicateKey, file: "stop_times.txt", line: 1232, column: "trip_id, stop_sequence", text: #"("608433", 0)"#,
            message: "repeats line 1231; rejected")
        #expect(error.description == #"stop_times.txt:1232: (trip_id, stop_sequence) = ("608433", 0) repeats line 1231; rejected"#)
        let bare = GTFSError(.duplicateKey, file: "feed_info.txt", line: 3, message: "repeats an earlier row; rejected")
        #expect(bare.description == "feed_info.txt:3: repeats an earlier row; rejected")
        let other = GTFSError(.invalidValue, file: "stops.txt", line: 2, column: "stop_lat", text: "52,5", message: "is not a decimal number")
        #expect(other.description == #"stops.txt:2: stop_lat: "52,5" is not a decimal number"#)
    }
}
