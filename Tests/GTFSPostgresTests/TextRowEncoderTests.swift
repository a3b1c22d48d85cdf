import Foundation
import GTFS
import GTFSImport
@testable import GTFSPostgres
import TestSupport
import Testing

@Suite("COPY rows in the text format")
struct TextRowEncoderTests {
    @Test("Rows: tab-separated, \\N for NULL, escapes, dates in ISO 8601, integers checked against their column")
    func encoding() {
        var encoder = TextRowEncoder(types: [.text, .smallint, .date, .doublePrecision, .bigint, .integer])
        encoder.beginRow(feed: 7)
        encoder.write("a\\b\tc\nd\re")
        encoder.write(-3)
        encoder.write(2025_03_30)
        encoder.write(1e-05)
        encoder.write(Int.min)
        encoder.writeNull()
        encoder.beginRow(feed: 7)
        encoder.write("")
        encoder.write(40_000)
        encoder.write(2025_02_30)
        encoder.write(-0.5)
        encoder.write(0)
        encoder.write(Int(Int32.max))
        let text = String(decoding: encoder.takeBytes(), as: UTF8.self)
        #expect(text == "7\ta\\\\b\\tc\\nd\\re\t-3\t2025-03-30\t1e-05\t-9223372036854775808\t\\N\n7\t\t\\N\t\\N\t-0.5\t0\t2147483647\n")
        // The first value that does not fit is kept to refuse the batch; the one after it, too large a date, is not.
        #expect(encoder.overflow?.column == 1 && encoder.overflow?.value == 40_000)
        #expect(encoder.filled == [true, true, true, true, true, true])
        #expect(encoder.takeBytes().isEmpty)
    }

    @Test("Text with backslashes, tabs, line breaks and non-ASCII comes back from the server as it went in")
    func roundTrip() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let names = ["back\\slash \\N", "tab\there", "two\nlines", "carriage\rreturn", "Straße – 東京 😀"]
        var stops = "stop_id,stop_name,stop_lat,stop_lon,stop_desc\n"
        for (index, name) in names.enumerated() {
            let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            stops += "S\(index),\(quoted),\(52.0 + Double(index) / 7),-0.000123,\\\n"
        }
        let path = try PostgresFailureTests.feed(["stops.txt": stops], in: folder, named: "f")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        _ = try store.importFeed(from: try FeedSource(path: path), named: "f")
        let rows = try store.connection.query(
            "SELECT stop_name, stop_lat, stop_lon, stop_desc FROM gtfs.stops ORDER BY stop_id", [], "read")
        #expect(rows.map { $0[0] } == names)
        #expect(rows.map { $0[1].flatMap(Double.init) } == names.indices.map { 52.0 + Double($0) / 7 })
        #expect(rows.allSatisfy { $0[2] == "-0.000123" && $0[3] == "\\" })
    }
}
