public import GTFS

/// What an import did with one file of the feed.
///
/// Integrity holds for every file: `rowsStored + rowsRejected == rowsRead`.
public struct TableImport: Sendable {
    /// The file's name as the feed spells it (`stops.txt.gz`).
    public let fileName: String
    /// The table.
    public let file: GTFSFile
    /// Data records read from the file.
    public var rowsRead = 0
    /// Records stored in the database.
    public var rowsStored = 0
    /// Records rejected: by the parser (a bad value, a broken rule) or by the database (a duplicate key).
    public var rowsRejected = 0
    /// The errors of the rejected records, in file order within each stage (the first
    /// ``ImportOptions/maxStoredErrors``; ``rowsRejected`` counts all).
    public var errors: [GTFSError] = []
    /// Warnings: unknown columns, padded rows, an encoding fallback… (the first ones; ``warningCount`` counts all).
    public var warnings: [GTFSWarning] = []
    /// All warnings, stored or not.
    public var warningCount = 0
    /// Raw input bytes read (compressed bytes for gzip and zip).
    public var bytesRead: Int64 = 0
    /// Rows inserted, updated, deleted and left unchanged in the store (a full import inserts every
    /// stored row and deletes the feed's earlier rows).
    public var changes = TableChanges()
    /// The SHA-256 of the file's decoded content.
    public var contentHash: String?
    /// Whether the file matched the stored version's content hash and was not read again; the counts
    /// are then those of the import that stored it.
    public var isUnchangedFile = false

    /// Creates an empty entry.
    public init(fileName: String, file: GTFSFile) {
        self.fileName = fileName
        self.file = file
    }
}
