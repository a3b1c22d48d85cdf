public import GTFS

/// What an import did with one file of the feed.
///
/// Integrity holds for every file: `rowsStored + rowsRejected == rowsRead`.
public struct TableImport: Sendable, CustomStringConvertible {
    /// The file's name as the feed spells it (`stops.txt.gz`).
    public let fileName: String
    /// The table.
    public let file: GTFSFile
    /// Data records read from the file.
    public package(set) var rowsRead = 0
    /// Records stored in the database.
    public package(set) var rowsStored = 0
    /// Records rejected: by the parser (a bad value, a broken rule) or by the database (a duplicate key).
    public package(set) var rowsRejected = 0
    /// The errors of the rejected records, in file order within each stage (the first
    /// `ParseOptions.maxStoredErrors` of ``ImportOptions/parsing``; ``rowsRejected`` counts all).
    public package(set) var errors: [GTFSError] = []
    /// Warnings: unknown columns, padded rows, an encoding fallback… (the first ones; ``warningCount`` counts all).
    public package(set) var warnings: [GTFSWarning] = []
    /// All warnings, stored or not.
    public package(set) var warningCount = 0
    /// Raw input bytes read (compressed bytes for gzip and zip).
    public package(set) var bytesRead: Int64 = 0
    /// Rows inserted, updated, deleted and left unchanged in the store (a full import inserts every
    /// stored row and deletes the feed's earlier rows).
    public package(set) var changes = TableChanges()
    /// The SHA-256 of the file's decoded content.
    public package(set) var contentHash: String?
    /// Whether the file matched the stored version's content hash and was not read again; the counts
    /// are then those of the import that stored it.
    public package(set) var isUnchangedFile = false

    /// An empty entry, filled in by the import.
    package init(fileName: String, file: GTFSFile) {
        self.fileName = fileName
        self.file = file
    }

    /// `stops.txt: 12,793 read, 12,790 stored, 3 rejected, 0 warnings (12,790 inserted, 0 updated, 0 deleted,
    /// 0 unchanged)`, with `(same file)` after the name when the file was skipped as unchanged.
    public var description: String {
        "\(GTFSError.displayable(fileName))\(isUnchangedFile ? " (same file)" : ""): \(Count.grouped(rowsRead)) read, "
            + "\(Count.grouped(rowsStored)) stored, \(Count.grouped(rowsRejected)) rejected, \(Count.grouped(warningCount)) warnings (\(changes))"
    }
}
