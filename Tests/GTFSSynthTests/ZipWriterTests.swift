import Foundation
import GTFS
@testable import GTFSSynth
import TestSupport
import Testing

/// The package's one zip writer: every way of adding an entry and every ZIP64 policy gives an archive
/// that the feed reader and Info-ZIP read back exactly.
@Suite("Zip writer")
struct ZipWriterTests {
    static let files: [(name: String, text: String)] = [
        ("agency.txt", "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://a.example,Europe/Berlin\n"),
        ("stops.txt", "stop_id,stop_name\n" + (1 ... 3000).map { "S\($0),Stop \($0)\n" }.joined()),
        ("routes.txt", "route_id,route_type\n" + (1 ... 500).map { "R\($0),3\n" }.joined()),
        ("empty.txt", ""),
    ]

    /// Each file's lines as the feed reader gives them back.
    static func readBack(_ path: String) throws -> [String: [String]] {
        var read: [String: [String]] = [:]
        for entry in try FeedSource(path: path).entries() {
            let (reader, _) = try entry.makeReader()
            var lines: [String] = []
            _ = try reader.forEachLine { line in lines.append(line.string) }
            read[entry.fileName] = lines
        }
        return read
    }

    @Test("Stored, deflated and streamed entries, with ZIP64 when needed, always or never", arguments: [
        ZipWriter.ZIP64.whenNeeded, .always, .never,
    ])
    func roundTrip(_ zip64: ZipWriter.ZIP64) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("feed.zip")
        let writer = try ZipWriter(path: path, level: 6, zip64: zip64)
        try writer.add(Self.files[0].name, Array(Self.files[0].text.utf8), method: .stored)
        try writer.add(Self.files[1].name, Array(Self.files[1].text.utf8), method: .deflated)
        for file in Self.files[2...] {
            let entry = try writer.beginEntry(name: file.name)
            try Array(file.text.utf8).withUnsafeBytes { try entry.write($0) }
            try writer.endEntry()
        }
        try writer.finish()

        let read = try Self.readBack(path)
        for file in Self.files {
            let lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            #expect(read[file.name] == lines, "\(file.name)")
        }
        if let (status, output) = try Unzip.test(path) {
            #expect(status == 0, "\(output)")
        }
        // The same in memory, byte for byte.
        let memory = ZipWriter(level: 6, zip64: zip64)
        try memory.add(Self.files[0].name, Array(Self.files[0].text.utf8), method: .stored)
        try memory.add(Self.files[1].name, Array(Self.files[1].text.utf8), method: .deflated)
        for file in Self.files[2...] {
            let entry = try memory.beginEntry(name: file.name)
            try Array(file.text.utf8).withUnsafeBytes { try entry.write($0) }
            try memory.endEntry()
        }
        try memory.finish()
        #expect(memory.bytes == Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test("An entry added while another is open is refused")
    func oneEntryAtATime() throws {
        let writer = ZipWriter()
        _ = try writer.beginEntry(name: "a.txt")
        #expect(throws: SyntheticFeedError.self) { try writer.add("b.txt", []) }
        #expect(throws: SyntheticFeedError.self) { _ = try writer.beginEntry(name: "c.txt") }
    }

    @Test("A name longer than a zip header can count is refused, not a crash")
    func longName() throws {
        let writer = ZipWriter()
        let name = String(repeating: "n", count: 70_000)
        #expect(throws: SyntheticFeedError.self) { try writer.add(name, []) }
        #expect(throws: SyntheticFeedError.self) { _ = try writer.beginEntry(name: name) }
        try writer.add(String(repeating: "n", count: 65_535), Array("x".utf8))
    }
}
