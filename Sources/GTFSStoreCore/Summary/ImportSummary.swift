public import GTFS

/// The result of a completed import: rows per table, rejected rows with their errors, warnings, the
/// referential-integrity report, and timings.
///
/// ```swift
/// let summary = try await store.importFeed(from: try FeedSource(path: "vbb.zip"))
/// for table in summary.tables { print(table.fileName, table.rowsStored, table.rowsRejected) }
/// for finding in summary.integrity.findings { print(finding) }
/// ```
public struct ImportSummary: Sendable, CustomStringConvertible {
    /// A full replacement or a diff against the stored version.
    public enum Kind: String, Sendable, Hashable {
        /// The feed's tables were emptied and loaded again (a first import, `--full`, batched mode).
        case full
        /// Only rows that differ from the stored version were written.
        case incremental
    }

    /// The feed's name.
    public package(set) var feed = "default"
    /// Full or incremental.
    public package(set) var kind: Kind = .full
    /// The feed's content hash after the import (see ``StoredFeed/contentHash``).
    public package(set) var contentHash: String?
    /// The row of `imports` that records this import; `nil` when nothing was written.
    public package(set) var importID: Int64?
    /// Whether the input matched the stored version exactly, so the import wrote nothing at all
    /// (`PRAGMA data_version` unchanged, no row in `imports`).
    public package(set) var changedNothing = false
    /// One entry per file imported, in load order; tables a whole feed no longer holds follow, with their deleted rows.
    public package(set) var tables: [TableImport] = []
    /// Feed-level warnings (a table given twice, a feed without stops, routes or trips).
    public package(set) var warnings: [GTFSWarning] = []
    /// Files of the input outside the GTFS reference (extensions such as `directions.txt`): not imported.
    public package(set) var skippedFiles: [String] = []
    /// The tables whose earlier rows the import replaced.
    public package(set) var replacedTables: [GTFSFile] = []
    /// References between tables that point nowhere, after the load.
    public package(set) var integrity = IntegrityReport()
    /// The commit mode used.
    public package(set) var mode: ImportOptions.Mode = .atomic
    /// Raw input bytes read over all files.
    public package(set) var bytesRead: Int64 = 0
    /// The whole import, from start to commit.
    public package(set) var duration: Duration = .zero
    /// Reading, parsing and storing every row, up to the last one stored (part of ``duration``).
    public package(set) var loadDuration: Duration = .zero
    /// Hashing the files to find those that changed, in an incremental import (part of ``duration``).
    public package(set) var hashDuration: Duration = .zero
    /// Comparing the new rows with the stored ones and writing the differences (part of ``duration``).
    public package(set) var diffDuration: Duration = .zero
    /// Building the indexes after the load (part of ``duration``).
    public package(set) var indexDuration: Duration = .zero
    /// Checking references (part of ``duration``).
    public package(set) var integrityDuration: Duration = .zero

    /// An empty summary, filled in by the import.
    package init() {}

    /// The entry of one table, when the input held it.
    /// - Parameter file: the table.
    /// - Returns: the table's entry, or `nil`.
    public func table(_ file: GTFSFile) -> TableImport? {
        tables.first { $0.file == file }
    }

    /// Records stored over all tables.
    public var rowsStored: Int { tables.reduce(0) { $0 + $1.rowsStored } }
    /// Records rejected over all tables.
    public var rowsRejected: Int { tables.reduce(0) { $0 + $1.rowsRejected } }
    /// Inserted, updated, deleted and unchanged rows over all tables.
    public var changes: TableChanges { tables.reduce(TableChanges()) { $0 + $1.changes } }
    /// Warnings over all tables and the feed.
    public var warningCount: Int { tables.reduce(warnings.count) { $0 + $1.warningCount } }

    /// Stored rows per second over the whole import.
    public var rowsPerSecond: Double {
        let seconds = duration / .seconds(1)
        return seconds > 0 ? Double(rowsStored) / seconds : 0
    }

    /// `feed vbb, incremental: 23,418 rows stored, 0 rejected (12 inserted, 3 updated, 0 deleted, 23,403
    /// unchanged) in 1.23 s`, and `; nothing changed` when the import wrote nothing.
    public var description: String {
        let seconds = (duration / .milliseconds(10)).rounded() / 100
        return "feed \(GTFSError.displayable(feed)), \(kind.rawValue): \(Count.grouped(rowsStored)) rows stored, "
            + "\(Count.grouped(rowsRejected)) rejected (\(changes)) in \(seconds) s" + (changedNothing ? "; nothing changed" : "")
    }
}
