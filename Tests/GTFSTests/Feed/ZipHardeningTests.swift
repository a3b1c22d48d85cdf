import Foundation
import GTFS
import TestSupport
import Testing

/// Zip archives come from outside: every size, offset and count they declare is checked against the file
/// before any arithmetic, and a bad one is a clear error, never a trap.
@Suite("Zip archives with values out of range")
struct ZipHardeningTests {
    /// A ZIP64 archive of one deflated `stops.txt`, and where its 64-bit fields are.
    struct Crafted {
        var bytes: [UInt8]
        let content = "stop_id,stop_name,stop_lat,stop_lon\n" + (1 ... 300).map { "S\($0),Stop \($0),52.5,13.4\n" }.joined()

        init() {
            var zip = TestZip()
            zip.zip64 = true
            zip.add("stops.txt", content)
            bytes = zip.archive()
        }

        /// The ZIP64 end-of-central-directory record (56 bytes before the locator and the end record).
        var recordOffset: Int { bytes.count - 22 - 20 - 56 }
        /// The ZIP64 locator.
        var locatorOffset: Int { bytes.count - 22 - 20 }
        /// The entry's ZIP64 extra field in the central directory (after the 46-byte header and the name).
        var extraOffset: Int {
            let central = (0 ..< bytes.count - 4).first { bytes[$0 ..< $0 + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02]) } ?? 0
            return central + 46 + "stops.txt".utf8.count
        }

        mutating func set64(_ value: UInt64, at offset: Int) {
            for index in 0 ..< 8 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
        }
    }

    /// What patching one field does.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let field: @Sendable (Crafted) -> Int
        let value: UInt64
        let message: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "directory offset + size overflows", field: { $0.recordOffset + 48 }, value: .max - 10, message: "central directory outside the file"),
        Case(name: "directory size 2^63", field: { $0.recordOffset + 40 }, value: 1 << 63, message: "at most 4194304 are read"),
        Case(name: "entry count 2^64 - 1", field: { $0.recordOffset + 32 }, value: .max, message: "entries; at most 65535 are read"),
        Case(name: "locator's record offset 2^63 + 1", field: { $0.locatorOffset + 8 }, value: 1 << 63 + 1, message: "ZIP64 end record outside the file"),
        Case(name: "entry compressed size 2^63", field: { $0.extraOffset + 12 }, value: 1 << 63, message: "compressed bytes are more than the file holds"),
        Case(name: "entry local header offset 2^63 + 5", field: { $0.extraOffset + 20 }, value: 1 << 63 + 5, message: "local header outside the file"),
        Case(name: "entry uncompressed size 2^64 - 1", field: { $0.extraOffset + 4 }, value: .max, message: "uncompressed size 18446744073709551615 is out of range"),
        Case(name: "a million entries in a small directory", field: { $0.recordOffset + 32 }, value: 1_000_000, message: "has 1000000 entries; at most 65535"),
        Case(name: "a million entries' directory", field: { $0.recordOffset + 40 }, value: 46_000_000, message: "central directory of 46000000 bytes"),
    ]

    @Test("A ZIP64 value out of range is a one-line error naming the archive", arguments: cases)
    func outOfRange(_ crafted: Case) throws {
        var zip = Crafted()
        zip.set64(crafted.value, at: crafted.field(zip))
        let folder = try TemporaryFolder()
        let path = try folder.write(zip.bytes, name: "crafted.zip")
        #expect {
            try FeedSource(path: path).entries()
        } throws: { error in
            guard let error = error as? GTFSError else { return false }
            return error.kind == .unreadable && error.description.hasPrefix(path + ": ") && error.message.contains(crafted.message)
                && !error.description.contains("\n")
        }
    }

    @Test("Exactly 65,535 entries and no ZIP64 records (as Python's zipfile writes them): the count is read as it is")
    func fullSixteenBitCount() throws {
        var zip = TestZip()
        zip.add("stops.txt", Crafted().content, deflate: false)
        for number in 1 ..< 65_535 { zip.add("notes/\(number).txt", "", deflate: false) }
        let folder = try TemporaryFolder()
        let path = try folder.write(zip.archive(), name: "many.zip")
        let entries = try FeedSource(path: path).entries()
        #expect(entries.count == 65_535)
        #expect(entries.first?.table == .stops)
        // A writer that caps the count at 65,535 for more entries: refused, rather than read in part.
        zip.add("notes/last.txt", "", deflate: false)
        let capped = try folder.write(zip.archive(), name: "capped.zip")
        #expect {
            try FeedSource(path: capped).entries()
        } throws: { error in
            (error as? GTFSError)?.message == "has more entries than its end record counts (65535) and no ZIP64 record to count them"
        }
        // Without a locator, a saturated directory size or offset is still a damaged ZIP64 archive.
        var damaged = Crafted()
        damaged.bytes.replaceSubrange(damaged.locatorOffset ..< damaged.locatorOffset + 4, with: [0, 0, 0, 0])
        let broken = try folder.write(damaged.bytes, name: "broken.zip")
        #expect(throws: GTFSError.self) { try FeedSource(path: broken).entries() }
    }

    @Test("The unpatched archive reads, so the crafted cases fail for their one value")
    func baseline() throws {
        let zip = Crafted()
        let folder = try TemporaryFolder()
        let path = try folder.write(zip.bytes, name: "crafted.zip")
        let entry = try #require(try FeedSource(path: path).entries().first)
        #expect(entry.declaredContentSize == Int64(zip.content.utf8.count))
        var rows = 0
        let (reader, _) = try entry.makeReader()
        try TableParser.parse(Stop.self, from: reader, fileName: entry.fileName) { rows += $0.count }
        #expect(rows == 300)
    }

    @Test("In-range sizes that lie fail when the entry is read: a short read or a bomb stops at the declared size")
    func lyingSizes() throws {
        for (offset, value, message) in [(12, UInt64(5), "truncated"), (4, UInt64(100), "inflates to more than the 100 bytes its directory declares")] {
            var zip = Crafted()
            zip.set64(value, at: zip.extraOffset + offset)
            let folder = try TemporaryFolder()
            let path = try folder.write(zip.bytes, name: "lying.zip")
            let entry = try #require(try FeedSource(path: path).entries().first)
            #expect {
                let (reader, _) = try entry.makeReader()
                try TableParser.parse(Stop.self, from: reader, fileName: entry.fileName) { _ in }
            } throws: { error in
                (error as? GTFSError)?.message.contains(message) ?? false
            }
        }
    }
}
