import Foundation
import GTFS
import LineReader
import TestSupport
import Testing

/// GTFS fields are short: a value over its limit rejects its row, a line over the line limit ends the file,
/// and option values out of range are refused before anything is read.
@Suite("Field, line and option limits")
struct FieldLimitTests {
    static let header = "stop_id,stop_name,stop_lat,stop_lon,parent_station\n"

    @Test("An identifier over maxIDLength rejects its row, naming line, column, length and limit; the rest is read")
    func longIdentifier() throws {
        let huge = String(repeating: "x", count: 100_000)
        let text = Self.header + "A,Alpha,52.5,13.4,\n\(huge),Huge,52.5,13.4,\nB,Beta,52.5,13.4,\(huge)\nC,Gamma,52.5,13.4,\n"
        let (stops, summary) = try parseCSV(Stop.self, text, fileName: "stops.txt")
        #expect(stops.map(\.stopID) == ["A", "C"])
        #expect(summary.rowsRejected == 2)
        #expect(summary.errors.map(\.description) == [
            "stops.txt:3: stop_id: 100,000 bytes, longer than the limit of 65,536",
            "stops.txt:4: parent_station: 100,000 bytes, longer than the limit of 65,536",
        ])
    }

    @Test("A text over maxTextLength rejects its row; both limits can be set")
    func longText() throws {
        var options = ParseOptions()
        options.maxTextLength = 10
        options.maxIDLength = 3
        let text = Self.header + "A,Short,52.5,13.4,\nB,Eleven char,52.5,13.4,\nLONG,Name,52.5,13.4,\n"
        let (stops, summary) = try parseCSV(Stop.self, text, fileName: "stops.txt", options: options)
        #expect(stops.map(\.stopID) == ["A"])
        #expect(summary.errors.map(\.description) == [
            "stops.txt:3: stop_name: 11 bytes, longer than the limit of 10",
            "stops.txt:4: stop_id: 4 bytes, longer than the limit of 3",
        ])
        options.strict = true
        #expect(throws: GTFSError.self) { try parseCSV(Stop.self, text, fileName: "stops.txt", options: options) }
    }

    @Test("An oversized value wins over a later problem of its row, and the next row is not affected")
    func oversizedFirst() throws {
        var options = ParseOptions()
        options.maxIDLength = 2
        // Row 2: a long id and a bad latitude; row 3 is fine.
        let text = Self.header + "ABC,Alpha,north,13.4,\nA,Beta,52.5,13.4,\n"
        let (stops, summary) = try parseCSV(Stop.self, text, fileName: "stops.txt", options: options)
        #expect(stops.map(\.stopID) == ["A"])
        #expect(summary.errors.map(\.description) == ["stops.txt:2: stop_id: 3 bytes, longer than the limit of 2"])
    }

    @Test("Errors quote at most 200 bytes of a value, cut at a character boundary")
    func quotedValues() throws {
        let value = String(repeating: "ä", count: 150)  // 300 bytes
        let text = "stop_id,stop_lat\nA,\(value)\n"
        let (_, summary) = try parseCSV(Stop.self, text, fileName: "stops.txt")
        let error = try #require(summary.errors.first)
        #expect(error.text == String(repeating: "ä", count: 100) + "…")
    }

    @Test("A line over maxLineLength (four times the larger field limit) rejects its row; its bytes are never held")
    func longLine() throws {
        var options = ParseOptions()
        options.maxTextLength = 1000
        options.maxIDLength = 100
        #expect(options.maxLineLength == 4000)
        let folder = try TemporaryFolder()
        let long = "B," + String(repeating: "y", count: 50_000) + ",52.5,13.4,"
        let text = Self.header + "A,Alpha,52.5,13.4,\n\(long)\r\nC,Gamma,52.5,13.4,\n\(long)"
        try folder.write(text, name: "stops.txt")
        var stops: [Stop] = []
        let summary = try FeedParser(source: FeedSource(path: folder.file("stops.txt")), options: options).parse { batch in
            stops += batch.records(as: Stop.self) ?? []
        }
        #expect(stops.map(\.stopID) == ["A", "C"])
        #expect(summary.tables.first?.errors.map(\.description) == [
            "stops.txt:3: 50,013 bytes in line 3, longer than the limit of 4,000",
            "stops.txt:5: 50,013 bytes in line 5, longer than the limit of 4,000",
        ])
        // An overlong header ends the file.
        try folder.write(String(repeating: "h", count: 5000) + "\nA\n", name: "levels.txt")
        #expect(throws: GTFSError.self) {
            try FeedParser(source: FeedSource(path: folder.file("levels.txt")), options: options).parse { _ in }
        }
    }

    @Test("Limits count the decoded value: line breaks of a quoted field and Windows-1252 bytes that grow")
    func decodedLength() throws {
        var options = ParseOptions()
        options.maxIDLength = 100
        options.maxTextLength = 100
        // A short first line, then 150 empty ones inside the quotes: a 151-byte stop_id from 169 bytes of lines.
        let spread = Self.header + "\"X" + String(repeating: "\n", count: 150) + "\",Name,52.5,13.4,\nA,Alpha,52.5,13.4,\n"
        let (stops, summary) = try parseCSV(Stop.self, spread, fileName: "stops.txt", options: options)
        #expect(stops.map(\.stopID) == ["A"])
        #expect(summary.errors.map(\.description) == ["stops.txt:2: stop_id: 151 bytes, longer than the limit of 100"])

        // 60 bytes of 0x80 in Windows-1252 are 60 euro signs, 180 bytes of UTF-8.
        let euros = Array((Self.header + "B,").utf8) + [UInt8](repeating: 0x80, count: 60) + Array(",52.5,13.4,\nA,Alpha,52.5,13.4,\n".utf8)
        let (stops1252, summary1252) = try parseCSV(Stop.self, euros, fileName: "stops.txt", options: options)
        #expect(stops1252.map(\.stopID) == ["A"])
        #expect(summary1252.errors.map(\.description) == ["stops.txt:2: stop_name: 180 bytes, longer than the limit of 100"])
    }

    @Test("A caller's reader with a longer line limit: a quoted record over the record limit is rejected, not cut")
    func quotedRecordOverLimit() throws {
        var options = ParseOptions()
        options.maxIDLength = 16
        options.maxTextLength = 16
        let quoted = "A,\"" + String(repeating: "y", count: 100) + "\",52.5,13.4,"
        let (stops, summary) = try parseCSV(Stop.self, Self.header + quoted + "\nB,Beta,52.5,13.4,\n", fileName: "stops.txt", options: options)
        #expect(stops.map(\.stopID) == ["B"])
        #expect(summary.errors.map(\.description) == ["stops.txt:2: the record is longer than 64 bytes"])
    }

    @Test("A quote left open stops swallowing lines at the record limit")
    func openQuote() throws {
        var options = ParseOptions()
        options.maxTextLength = 100
        options.maxIDLength = 100
        let rows = (1 ... 200).map { "S\($0),Stop \($0),52.5,13.4,\n" }.joined()
        let text = Self.header + "X,\"never closed,52.5,13.4,\n" + rows
        let (stops, summary) = try parseCSV(Stop.self, text, fileName: "stops.txt", options: options)
        #expect(summary.errors.first?.description == "stops.txt:2: a quoted field is not closed within 400 bytes")
        // The rows after the swallowed ones are read again.
        #expect(stops.count > 150 && stops.last?.stopID == "S200")
    }

    @Test("Option values out of range are refused before anything is read", arguments: [
        ("chunkSize", 0), ("chunkSize", Int.max), ("batchSize", 1 << 40), ("maxIDLength", 0), ("maxTextLength", Int.max),
        ("maxStoredErrors", -1),
    ])
    func badOptions(_ name: String, _ value: Int) throws {
        var options = ParseOptions()
        switch name {
        case "chunkSize": options.chunkSize = value
        case "batchSize": options.batchSize = value
        case "maxIDLength": options.maxIDLength = value
        case "maxTextLength": options.maxTextLength = value
        default: options.maxStoredErrors = value
        }
        #expect {
            try options.validate()
        } throws: { error in
            guard let error = error as? GTFSError else { return false }
            return error.kind == .invalidOption && error.column == name && error.message.contains("is out of range")
        }
        let folder = try TemporaryFolder()
        try folder.write(Self.header + "A,Alpha,52.5,13.4,\n", name: "stops.txt")
        #expect(throws: GTFSError.self) {
            try FeedParser(source: FeedSource(path: folder.file("stops.txt")), options: options).parse { _ in }
        }
    }

    @Test("Reader options: chunk sizes and line limits that would overflow or allocate without bound are refused")
    func readerOptions() throws {
        for chunk in [0, -1, Reader.Options.maxChunkSize + 1, 1 << 40, Int.max] {
            #expect(throws: ReaderError.invalidChunkSize(chunk)) { try Reader(bytes: [], options: .init(chunkSize: chunk)) }
        }
        for limit in [0, Reader.Options.maxLineLengthLimit + 1, Int.max] {
            #expect(throws: ReaderError.invalidMaxLineLength(limit)) { try Reader(bytes: [], options: .init(maxLineLength: limit)) }
        }
        let largest = try Reader(bytes: Array("a\nb".utf8), options: .init(chunkSize: Reader.Options.maxChunkSize))
        #expect(try largest.forEachLine { _ in } == 2)
    }

    @Test("Text from a feed prints on one line: control characters and reordering marks escaped")
    func displayable() {
        #expect(GTFSError.displayable("\u{1B}[31mRED\u{1B}]0;pwned\u{07}") == "\\u{1B}[31mRED\\u{1B}]0;pwned\\u{7}")
        #expect(GTFSError.displayable("a\rb\nc\td\u{7F}e\u{85}f\u{202E}g") == "a\\rb\\nc\\td\\u{7F}e\\u{85}f\\u{202E}g")
        #expect(GTFSError.displayable("Zoologischer Garten, Bahnhof – Ü") == "Zoologischer Garten, Bahnhof – Ü")
        let error = GTFSError(.invalidValue, file: "stops\u{1B}.txt", line: 3, column: "stop_lat", text: "\r", message: "is not a decimal number")
        #expect(error.description == "stops\\u{1B}.txt:3: stop_lat: \"\\r\" is not a decimal number")
    }
}
