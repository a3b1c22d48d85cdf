import Foundation
import GTFS
import GTFSSynth
import TestSupport
import Testing

@Suite("Synthetic feed: output formats, determinism, parsing")
struct SyntheticFeedTests {
    static let files = [
        "feed_info.txt", "agency.txt", "levels.txt", "stops.txt", "routes.txt", "calendar.txt", "calendar_dates.txt",
        "shapes.txt", "trips.txt", "stop_times.txt", "transfers.txt",
    ]

    /// Every file parsed with no rejected row and no warning, and the rows the API reported.
    static func expectClean(_ parsed: ParsedFeed, _ counts: SyntheticFeed.Counts) {
        #expect(parsed.summary.warnings.isEmpty, "\(parsed.summary.warnings.prefix(3))")
        #expect(parsed.summary.skippedFiles.isEmpty)
        // The table's own name: `stops.txt` also when the file is `stops.txt.gz`.
        #expect(parsed.summary.tables.compactMap { $0.file?.fileName }.sorted() == files.sorted())
        for table in parsed.summary.tables {
            #expect(table.rowsRejected == 0, "\(table.fileName): \(table.errors.prefix(3))")
            #expect(table.warningCount == 0, "\(table.fileName): \(table.warnings.prefix(3))")
            #expect(table.rowsParsed == counts[table.file?.fileName ?? table.fileName], "\(table.fileName)")
            #expect(table.rowsParsed > 0, "\(table.fileName)")
        }
    }

    @Test("The directory output parses with zero rejected rows and zero warnings, with the counts the API reports")
    func directoryParsesCleanly() throws {
        let folder = try TemporaryFolder()
        let counts = try SyntheticFeed(scale: 0.01).write(toPath: folder.path, format: .directory)
        #expect(counts.files.map(\.fileName) == Self.files)
        let parsed = try ParsedFeed(path: folder.path)
        Self.expectClean(parsed, counts)
        #expect(parsed.stops.count == counts["stops.txt"])
        #expect(parsed.stopTimes.count == counts["stop_times.txt"])
        #expect(parsed.shapePoints.count == counts["shapes.txt"])
        // Uncompressed sizes match the files on disk.
        for file in counts.files {
            let size = try FileManager.default.attributesOfItem(atPath: folder.file(file.fileName))[.size] as? NSNumber
            #expect(size?.int64Value == file.bytes, "\(file.fileName)")
        }
    }

    @Test("Scale 0.01 has 1 % of VBB's size, and counts grow linearly with the scale")
    func countsScale() throws {
        let folder = try TemporaryFolder()
        let small = try SyntheticFeed(scale: 0.01).write(toPath: folder.file("small"), format: .directory)
        let larger = try SyntheticFeed(scale: 0.03).write(toPath: folder.file("larger"), format: .directory)
        #expect(small["stops.txt"] == 420)
        #expect(small["routes.txt"] == 13)
        #expect(small["trips.txt"] == 2_500)
        #expect(small["shapes.txt"] == 50_000)
        #expect(abs(small["stop_times.txt"] - 60_000) < 3_000)
        #expect(larger["stops.txt"] == 3 * small["stops.txt"])
        #expect(larger["trips.txt"] == 3 * small["trips.txt"])
        #expect(larger["shapes.txt"] == 3 * small["shapes.txt"])
        #expect(abs(larger["stop_times.txt"] - 180_000) < 9_000)
        #expect(small["agency.txt"] >= 1 && small["feed_info.txt"] == 1)
    }

    @Test("The same seed and scale give byte-identical zip and gzip output; another seed does not")
    func deterministic() throws {
        let folder = try TemporaryFolder()
        let feed = try SyntheticFeed(scale: 0.01, seed: 7)
        let first = try feed.write(toPath: folder.file("a.zip"))
        let second = try feed.write(toPath: folder.file("b.zip"))
        try SyntheticFeed(scale: 0.01, seed: 8).write(toPath: folder.file("c.zip"))
        #expect(first == second)
        let a = try Data(contentsOf: URL(fileURLWithPath: folder.file("a.zip")))
        let b = try Data(contentsOf: URL(fileURLWithPath: folder.file("b.zip")))
        let c = try Data(contentsOf: URL(fileURLWithPath: folder.file("c.zip")))
        #expect(a == b)
        #expect(a != c)

        try feed.write(toPath: folder.file("gz1"), format: .gzipDirectory)
        try feed.write(to: URL(fileURLWithPath: folder.file("gz2")), format: .gzipDirectory)
        for name in Self.files {
            let one = try Data(contentsOf: URL(fileURLWithPath: folder.file("gz1/\(name).gz")))
            let two = try Data(contentsOf: URL(fileURLWithPath: folder.file("gz2/\(name).gz")))
            #expect(one == two, "\(name)")
        }
    }

    @Test("The zip is read by FeedSource as a zip, parses cleanly, and passes unzip -t when unzip is installed")
    func zipIsReadable() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("feed.zip")
        let counts = try SyntheticFeed(scale: 0.01).write(toPath: path)
        guard case .zip = try FeedSource(path: path) else {
            Issue.record("FeedSource did not detect a zip")
            return
        }
        let names = try FeedSource(path: path).entries().map(\.fileName)
        #expect(Set(names) == Set(Self.files))
        Self.expectClean(try ParsedFeed(path: path), counts)
        // Only when unzip is absent is this part skipped.
        if let result = try Unzip.test(path) {
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("No errors detected"), "\(result.output)")
            for name in Self.files { #expect(result.output.contains("testing: \(name)"), "\(name)") }
        }
    }

    @Test("The gzip directory holds *.txt.gz files that parse like the plain ones")
    func gzipDirectory() throws {
        let folder = try TemporaryFolder()
        let counts = try SyntheticFeed(scale: 0.01).write(toPath: folder.path, format: .gzipDirectory)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == Self.files.map { $0 + ".gz" }.sorted())
        let magic = try Data(contentsOf: URL(fileURLWithPath: folder.file("stops.txt.gz"))).prefix(2)
        #expect(Array(magic) == [0x1F, 0x8B])
        Self.expectClean(try ParsedFeed(path: folder.path), counts)
    }

    @Test("--crlf ends every line with CRLF; the default ends them with LF alone")
    func lineEndings() throws {
        let folder = try TemporaryFolder()
        let crlf = try SyntheticFeed(scale: 0.01, lineEnding: .crlf).write(toPath: folder.file("crlf"), format: .directory)
        let lf = try SyntheticFeed(scale: 0.01).write(toPath: folder.file("lf"), format: .directory)
        for name in Self.files {
            let crlfBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.file("crlf/\(name)"))))
            let lfBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.file("lf/\(name)"))))
            let newlines = crlfBytes.indices.filter { crlfBytes[$0] == 0x0A }
            #expect(!newlines.isEmpty)
            #expect(newlines.allSatisfy { $0 > 0 && crlfBytes[$0 - 1] == 0x0D }, "\(name)")
            #expect(crlfBytes.filter { $0 == 0x0D }.count == newlines.count, "\(name)")
            #expect(crlfBytes.last == 0x0A)
            #expect(!lfBytes.contains(0x0D), "\(name)")
            #expect(lfBytes.filter { $0 == 0x0A }.count == newlines.count, "\(name)")
            // The same content apart from the line endings.
            #expect(crlfBytes.filter { $0 != 0x0D } == lfBytes, "\(name)")
        }
        #expect(crlf.files.map(\.rows) == lf.files.map(\.rows))
        Self.expectClean(try ParsedFeed(path: folder.file("crlf")), crlf)
    }

    @Test("A scale or compression level out of range is refused")
    func invalidArguments() {
        #expect(throws: SyntheticFeedError.self) { try SyntheticFeed(scale: 0.001) }
        #expect(throws: SyntheticFeedError.self) { try SyntheticFeed(scale: 11) }
        #expect(throws: SyntheticFeedError.self) { try SyntheticFeed(scale: .nan) }
        #expect(throws: SyntheticFeedError.self) { try SyntheticFeed(scale: 1, compressionLevel: 0) }
        #expect(SyntheticFeed.Format.inferred(fromPath: "x/Feed.ZIP") == .zip)
        #expect(SyntheticFeed.Format.inferred(fromPath: "x/feed") == .directory)
    }

    @Test("An unwritable destination throws a SyntheticFeedError naming the path")
    func unwritable() throws {
        let folder = try TemporaryFolder()
        let blocker = try folder.write("not a directory", name: "file")
        #expect(throws: SyntheticFeedError.self) { try SyntheticFeed(scale: 0.01).write(toPath: blocker + "/feed.zip") }
        #expect(throws: SyntheticFeedError.self) {
            try SyntheticFeed(scale: 0.01).write(toPath: blocker + "/feed", format: .directory)
        }
    }
}
