import Foundation
import GTFS
import GTFSImport
@testable import GTFSPostgres
import TestSupport
import Testing

@Suite("COPY rows in the text and binary formats")
struct CopyRowTests {
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

    @Test("Columns that are not sent are left out of text and binary rows; a value in one is recorded")
    func unsentColumns() {
        let sent = [true, false, true]
        var text = TextRowEncoder(types: [.text, .integer, .text], sent: sent)
        text.beginRow(feed: 1)
        text.write("a")
        text.writeNull()
        text.writeNull()
        #expect(text.unsent == nil)
        text.beginRow(feed: 1)
        text.write("b")
        text.write(5)
        text.write("c")
        #expect(String(decoding: text.takeBytes(), as: UTF8.self) == "1\ta\t\\N\n1\tb\tc\n")
        #expect(text.unsent == 1)

        var binary = BinaryRowEncoder(types: [.text, .integer, .text], sent: sent)
        binary.beginRow(feed: 1)
        binary.write("a")
        binary.writeNull()
        binary.writeNull()
        // Three fields: feed, the first text and the NULL of the third; nothing for the second.
        #expect(binary.takeBytes() == [0, 3, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 1, 97, 255, 255, 255, 255])
        #expect(binary.unsent == nil)
    }

    @Test("A file's COPY names the columns its header has and those never empty, in the table's order")
    func sentColumns() {
        let table = PostgresTable(.stopTimes)
        let header = ["trip_id", "stop_sequence", "stop_id", "arrival_time", "departure_time", "stop_headsign"]
        let sent = table.sentColumns(inHeader: table.description.fields.map { header.contains($0.name) })
        #expect(
            table.copyStatement(schema: "s", freeze: true, format: .text, sent: sent)
                == "COPY s.stop_times (feed, trip_id, arrival_time, departure_time, stop_id, stop_sequence, stop_headsign, "
                + "pickup_type, drop_off_type, timepoint) FROM STDIN (FREEZE)")
        // Unknown: every column.
        #expect(table.sentColumns(inHeader: []) == table.description.fields.map { _ in true })
    }

    @Test("Rows with values in double precision columns go in binary, the others in text")
    func formats() {
        let stopTimes = PostgresTable(.stopTimes).types
        let distance = PostgresTable(.stopTimes).description.fields.firstIndex { $0.name == "shape_dist_traveled" } ?? -1
        let noDistances = stopTimes.indices.map { $0 != distance }
        #expect(CopyFormat(types: stopTimes, filled: noDistances) == .text)
        #expect(CopyFormat(types: stopTimes, filled: stopTimes.map { _ in true }) == .binary)
        #expect(CopyFormat(types: PostgresTable(.routes).types, filled: PostgresTable(.routes).types.map { _ in true }) == .text)
    }

    @Test("Text with backslashes, tabs, line breaks and non-ASCII comes back from the server as it went in, in either format")
    func roundTrip() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let names = ["back\\slash \\N", "tab\there", "two\nlines", "carriage\rreturn", "Straße – 東京 😀"]
        let quoted = names.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var stops = "stop_id,stop_name,stop_lat,stop_lon,stop_desc\n"
        var routes = "route_id,route_short_name,route_long_name,route_type,route_desc\n"
        for (index, name) in quoted.enumerated() {
            stops += "S\(index),\(name),\(52.0 + Double(index) / 7),-0.000123,\\\n"
            routes += "R\(index),\(index),\(name),3,\\\n"
        }
        let path = try PostgresFailureTests.feed(["stops.txt": stops, "routes.txt": routes], in: folder, named: "f")
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        _ = try store.importFeed(from: try FeedSource(path: path), named: "f")
        let stored = try store.connection.query("SELECT stop_name, stop_lat, stop_lon, stop_desc FROM gtfs.stops ORDER BY stop_id", [], "read")
        #expect(stored.map { $0[0] } == names)
        #expect(stored.map { $0[1].flatMap(Double.init) } == names.indices.map { 52.0 + Double($0) / 7 })
        #expect(stored.allSatisfy { $0[2] == "-0.000123" && $0[3] == "\\" })
        let storedRoutes = try store.connection.query(
            "SELECT route_long_name, route_short_name, route_type, route_desc FROM gtfs.routes ORDER BY route_id", [], "read")
        #expect(storedRoutes.map { $0[0] } == names)
        #expect(storedRoutes.map { $0[1] } == names.indices.map { String($0) })
        #expect(storedRoutes.allSatisfy { $0[2] == "3" && $0[3] == "\\" })
    }
}
