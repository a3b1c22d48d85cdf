public import GTFS

/// The result of a completed import: rows per table, rejected rows with their errors, warnings, the
/// referential-integrity report, and timings.
///
/// ```swift
/// let summary = try await store.importFeed(from: try FeedSource(path: "vbb.zip"))
/// for table in summary.tables { print(table.fileName, table.rowsStored, table.rowsRejected) }
/// for finding in summary.integrity.findings { print(finding) }
/// ```
public struct ImportSummary: Sendable {
    /// A full replacement or a diff against the stored version.
    public enum Kind: String, Sendable, Hashable {
        /// The feed's tables were emptied and loaded again (a first import, `--full`, batched mode).
        case full
        /// Only rows that differ from the stored version were written.
        case incremental
    }

    /// The feed's name.
    public var feed = "default"
    /// Full or incremental.
    public var kind: Kind = .full
    /// The feed's content hash after the import (see ``StoredFeed/contentHash``).
    public var contentHash: String?
    /// The row of `imports` that records this import; `nil` when nothing was written.
    public var importID: Int64?
    /// Whether the input matched the stored version exactly, so the import wrote nothing at all
    /// (`PRAGMA data_version` unchanged, no row in `imports`).
    public var changedNothing = false
    /// One entry per file imported, in load order; tables a whole feed no longer holds follow, with their deleted rows.
    public var tables: [TableImport] = []
    /// Feed-level warnings (files outside the reference, a table given twice).
    public var warnings: [GTFSWarning] = []
    /// The tables whose earlier rows the import replaced.
    public var replacedTables: [GTFSFile] = []
    /// References between tables that point nowhere, after the load.
    public var integrity = IntegrityReport()
    /// The commit mode used.
    public var mode: ImportOptions.Mode = .atomic
    /// Raw input bytes read over all files.
    public var bytesRead: Int64 = 0
    /// The whole import, from start to commit.
    public var duration: Duration = .zero
    /// Reading, parsing and storing every row, up to the last one stored (part of ``duration``).
    public var loadDuration: Duration = .zero
    /// Hashing the files to find those that changed, in an incremental import (part of ``duration``).
    public var hashDuration: Duration = .zero
    /// Comparing the new rows with the stored ones and writing the differences (part of ``duration``).
    public var diffDuration: Duration = .zero
    /// Building the indexes after the load (part of ``duration``).
    public var indexDuration: Duration = .zero
    /// Checking references (part of ``duration``).
    public var integrityDuration: Duration = .zero

    /// Creates an empty summary.
    public init() {}

    /// The entry of one table, when the input held it.
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
}
