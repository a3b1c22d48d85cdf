import Foundation
import GTFS
import TestSupport
import Testing

@Suite("Zip feeds")
struct ZipSourceTests {
    static func records(_ entry: FeedEntry) throws -> [TextRecord] {
        var records: [TextRecord] = []
        let (reader, _) = try entry.makeReader(chunkSize: 7)
        try TableParser.parse(TextRecord.self, from: reader, fileName: entry.fileName) { records += $0 }
        return records
    }

    static func write(_ zip: TestZip, in folder: TemporaryFolder) throws -> String {
        try folder.write(zip.archive(), name: "feed.zip")
    }

    @Test("Entries are found in load order; __MACOSX and dot files are ignored; unknown files kept for reporting")
    func layout() throws {
        var zip = TestZip()
        zip.add("stops.txt", "id,name\n1,\"Berlin, Mitte\"\n2,Pankow\n")
        zip.add("levels.txt", "id,name\n0,Ground\n", deflate: false)
        zip.add("__MACOSX/._stops.txt", "junk")
        zip.add(".DS_Store", "junk")
        zip.add("README.md", "hello")
        let folder = try TemporaryFolder()
        let path = try Self.write(zip, in: folder)
        let source = try FeedSource(path: path)
        guard case .zip = source else {
            Issue.record("a zip must be detected by its magic bytes")
            return
        }
        let entries = try source.entries()
        #expect(entries.map(\.fileName) == ["levels.txt", "stops.txt", "README.md"])
        #expect(entries.map(\.table) == [.levels, .stops, nil])
        #expect(try Self.records(entries[1]).map(\.name) == ["Berlin, Mitte", "Pankow"])
        #expect(try Self.records(entries[0]).map(\.name) == ["Ground"])
    }

    @Test("The hash of an entry's stored bytes: equal for the same bytes, different for the same content compressed otherwise, none outside a zip")
    func storedBytesHash() throws {
        let folder = try TemporaryFolder()
        let text = "stop_id,stop_name\n" + (0 ..< 2000).map { "S\($0),Stop \($0)\n" }.joined()
        func entry(_ name: String, deflate: Bool) throws -> FeedEntry {
            var zip = TestZip()
            zip.add("stops.txt", text, deflate: deflate)
            let source = try FeedSource(path: try folder.write(zip.archive(), name: name))
            return try #require(try source.entries().first)
        }
        let deflated = try entry("a.zip", deflate: true)
        let again = try entry("b.zip", deflate: true)
        let stored = try entry("c.zip", deflate: false)
        let hash = try #require(try deflated.storedBytesHash())
        #expect(hash.count == 64)
        #expect(try again.storedBytesHash() == hash)
        #expect(try stored.storedBytesHash() != hash)
        #expect(try deflated.contentHash() == stored.contentHash())
        let plain = try FeedSource(path: try folder.write(Array(text.utf8), name: "stops.txt"))
        #expect(try plain.entries().first?.storedBytesHash() == nil)
    }

    @Test("Files inside a single top-level folder are found")
    func topLevelFolder() throws {
        var zip = TestZip()
        zip.add("vbb-gtfs/", "", deflate: false)
        zip.add("vbb-gtfs/stops.txt", "id\n1\n")
        zip.add("vbb-gtfs/agency.txt", "id\nA\n")
        let folder = try TemporaryFolder()
        let entries = try FeedSource(path: try Self.write(zip, in: folder)).entries()
        #expect(entries.map(\.fileName) == ["agency.txt", "stops.txt"])
        #expect(entries.map(\.table) == [.agency, .stops])
    }

    @Test("ZIP64 archives are read")
    func zip64() throws {
        var zip = TestZip()
        zip.zip64 = true
        zip.add("stops.txt", "id,name\n" + (1 ... 500).map { "\($0),Stop \($0)\n" }.joined())
        zip.add("levels.txt", "id\n1\n", deflate: false)
        let folder = try TemporaryFolder()
        let entries = try FeedSource(path: try Self.write(zip, in: folder)).entries()
        #expect(entries.map(\.fileName) == ["levels.txt", "stops.txt"])
        #expect(try Self.records(entries[1]).count == 500)
        #expect(try Self.records(entries[0]).map(\.id) == ["1"])
    }

    @Test("A damaged deflate entry is an error naming archive and entry, never short output")
    func corruptEntry() throws {
        var zip = TestZip()
        zip.add("stops.txt", "id,name\n" + (1 ... 2000).map { "\($0),Stop number \($0)\n" }.joined())
        var bytes = zip.archive()
        for index in 200 ..< 230 { bytes[index] ^= 0x55 }
        let folder = try TemporaryFolder()
        let path = try folder.write(bytes, name: "bad.zip")
        let entry = try #require(try FeedSource(path: path).entries().first)
        do {
            _ = try Self.records(entry)
            Issue.record("damaged data must not pass")
        } catch let error as GTFSError {
            #expect(error.kind == .unreadable)
            #expect(error.description.contains("bad.zip:stops.txt: corrupt deflate data"))
        }
    }

    @Test("A stored entry whose bytes changed fails its CRC-32 check")
    func crcMismatch() throws {
        var zip = TestZip()
        zip.add("stops.txt", "id,name\n1,Alpha\n", deflate: false)
        var bytes = zip.archive()
        // The content starts after the 30-byte local header and the 9-byte name.
        bytes[30 + 9 + 10] = UInt8(ascii: "B")
        let folder = try TemporaryFolder()
        let path = try folder.write(bytes, name: "crc.zip")
        let entry = try #require(try FeedSource(path: path).entries().first)
        do {
            _ = try Self.records(entry)
            Issue.record("a CRC mismatch must be reported")
        } catch let error as GTFSError {
            #expect(error.message.contains("CRC-32 mismatch"))
        }
    }

    @Test("A truncated archive is a clear error")
    func truncatedArchive() throws {
        var zip = TestZip()
        zip.add("stops.txt", "id\n1\n")
        let bytes = Array(zip.archive().dropLast(30))
        let folder = try TemporaryFolder()
        let path = try folder.write(bytes, name: "short.zip")
        #expect(throws: GTFSError.self) { try FeedSource(path: path).entries() }
    }

    @Test("Directories list their files; single files take the table from the name")
    func directoryAndFiles() throws {
        let folder = try TemporaryFolder()
        for (name, text) in [("trips.txt", "id\n1\n"), ("stops.csv", "id\n1\n"), (".hidden", "x"), ("notes.txt", "x")] {
            try folder.write(text, name: name)
        }
        let entries = try FeedSource(path: folder.path).entries()
        #expect(entries.map(\.fileName) == ["stops.csv", "trips.txt", "notes.txt"])
        #expect(entries.map(\.table) == [.stops, .trips, nil])
        #expect(GTFSFile(fileName: "stop_times.txt.gz") == .stopTimes)
        #expect(throws: GTFSError.self) { try FeedSource(path: "-") }
        #expect(throws: GTFSError.self) { try FeedSource(path: folder.file("missing")) }
    }
}
