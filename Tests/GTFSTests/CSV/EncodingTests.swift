import GTFS
import LineReader
import TestSupport
import Testing

@Suite("Encodings")
struct EncodingTests {
    @Test("UTF-8 with and without a BOM")
    func utf8() throws {
        for prefix in [[], [0xEF, 0xBB, 0xBF] as [UInt8]] {
            let (records, summary) = try parseCSV(TextRecord.self, prefix + Array("id,name\n1,Lübeck St Jürgen\n".utf8))
            #expect(records.first?.name == "Lübeck St Jürgen")
            #expect(summary.warningCount == 0)
        }
    }

    @Test("Latin-1 bytes are read as Windows-1252 with one warning naming the first offending line")
    func latin1() throws {
        // "Malmö" and "Århus" in Latin-1, plus € (0x80 in Windows-1252).
        let bytes = Array("id,name\n1,plain\n2,Malm".utf8) + [0xF6] + Array("\n3,".utf8) + [0xC5] + Array("rhus ".utf8) + [0x80] + [0x0A]
        let (records, summary) = try parseCSV(TextRecord.self, bytes, fileName: "stops.txt")
        #expect(records.map(\.name) == ["plain", "Malmö", "Århus €"])
        #expect(summary.warningCount == 1)
        #expect(summary.warnings.first?.description == "stops.txt:3: is not valid UTF-8; the file is read as Windows-1252 from here on")
        #expect(throws: GTFSError.self) { try parseCSV(TextRecord.self, bytes, options: ParseOptions(strict: true)) }
    }

    @Test("UTF-16 with a byte-order mark, little and big endian, through a feed source")
    func utf16() throws {
        let text = "id,name\r\n1,Lübeck 🚉\r\n2,\"Berlin, Mitte\"\r\n"
        let units = Array(text.utf16)
        let little: [UInt8] = [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let big: [UInt8] = [0xFE, 0xFF] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in [little, big] {
            let folder = try TemporaryFolder()
            let path = try folder.write(bytes, name: "levels.txt")
            let entries = try FeedSource.file(path: path, table: .levels).entries()
            let (reader, _) = try #require(entries.first).makeReader(chunkSize: 3)
            var decoded: [TextRecord] = []
            try TableParser.parse(TextRecord.self, from: reader, fileName: "levels.txt") { decoded += $0 }
            #expect(decoded.map(\.name) == ["Lübeck 🚉", "Berlin, Mitte"])
            #expect(decoded.map(\.line) == [2, 3])
        }
    }
}
