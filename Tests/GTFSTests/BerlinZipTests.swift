import GTFS
import TestSupport
import Testing

/// `SampleData/berlin/vbb-2025-subset.zip` (made by `make-vbb-2025-subset-zip.sh`) holds the same feed as the
/// `vbb-2025-subset/` directory beside it.
@Suite("Berlin 2025 subset as a zip feed")
struct BerlinZipTests {
    static let directory = Repository.berlin.appendingPathComponent("vbb-2025-subset").path
    static let archive = Repository.berlin.appendingPathComponent("vbb-2025-subset.zip").path

    /// Every record of a feed, by table, in the order delivered, with the line each one starts on.
    struct Parsed {
        var records: [GTFSFile: [AnyHashable]]
        var lines: [GTFSFile: [Int]]
        var summary: FeedSummary
    }

    /// Gives a batch's records type-erased to `AnyHashable` (every GTFS record type is `Hashable`).
    struct HashableRecords: RecordTypeVisitor {
        typealias Failure = Never
        let batch: RecordBatch

        func visit<R: GTFSRecord>(_ type: R.Type) -> [AnyHashable] {
            (batch.records(as: R.self) ?? []).compactMap { $0 as? AnyHashable }
        }
    }

    static func parse(_ path: String) throws -> Parsed {
        var records: [GTFSFile: [AnyHashable]] = [:]
        var lines: [GTFSFile: [Int]] = [:]
        let summary = try FeedParser(source: FeedSource(path: path)).parse { batch in
            let hashable = batch.file.accept(HashableRecords(batch: batch))
            #expect(hashable.count == batch.count, "\(batch.fileName): a record type that is not Hashable")
            records[batch.file, default: []] += hashable
            lines[batch.file, default: []] += batch.lines
        }
        return Parsed(records: records, lines: lines, summary: summary)
    }

    @Test("The zip is read as a zip feed")
    func detectedAsZip() throws {
        guard case .zip = try FeedSource(path: Self.archive) else {
            Issue.record("\(Self.archive) was not detected as a zip archive")
            return
        }
    }

    @Test("The zip yields exactly the records, lines and row counts of the directory, table by table")
    func sameAsDirectory() throws {
        let fromDirectory = try Self.parse(Self.directory)
        let fromZip = try Self.parse(Self.archive)

        let directoryRows = Dictionary(uniqueKeysWithValues: fromDirectory.summary.tables.compactMap { (table: TableSummary) in
            table.file.map { ($0, table.rowsParsed) }
        })
        #expect(directoryRows == FeedParserTests.expectedRows)
        #expect(fromZip.summary.tables.map { $0.fileName } == fromDirectory.summary.tables.map { $0.fileName })
        #expect(fromZip.summary.skippedFiles == fromDirectory.summary.skippedFiles)
        for (zipped, plain) in zip(fromZip.summary.tables, fromDirectory.summary.tables) {
            #expect(zipped.file == plain.file, "\(zipped.fileName)")
            #expect(zipped.rowsRead == plain.rowsRead, "\(zipped.fileName)")
            #expect(zipped.rowsParsed == plain.rowsParsed, "\(zipped.fileName)")
            #expect(zipped.rowsRejected == 0, "\(zipped.fileName): \(zipped.errors.prefix(3))")
            #expect(zipped.warningCount == plain.warningCount, "\(zipped.fileName)")
        }

        #expect(Set(fromZip.records.keys) == Set(fromDirectory.records.keys))
        for (file, records) in fromDirectory.records {
            #expect(fromZip.records[file]?.count == records.count, "\(file.fileName)")
            #expect(fromZip.records[file] == records, "\(file.fileName): the records differ")
            #expect(fromZip.lines[file] == fromDirectory.lines[file], "\(file.fileName): the line numbers differ")
        }
        // The zip is compressed: fewer raw bytes read than the directory's files hold.
        #expect(fromZip.summary.bytesRead < fromDirectory.summary.bytesRead)
    }
}
