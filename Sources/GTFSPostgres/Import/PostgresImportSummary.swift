public import GTFS

/// What an import into PostgreSQL stored.
public struct PostgresImportSummary: Sendable {
    /// The feed's name.
    public let feed: String
    /// Rows the server stored, per file that had any.
    public internal(set) var rowsStored: [GTFSFile: Int] = [:]
    /// The files skipped because the store holds them as they are (the same SHA-256).
    public internal(set) var unchangedFiles: Set<GTFSFile> = []
    /// The references that point to no row, among those the import could have changed.
    public internal(set) var integrity = IntegrityReport()
    /// Rows the store refused because they repeat an earlier row's key, per file: one message each.
    public internal(set) var rejected: [GTFSFile: [String]] = [:]
    /// The parse: rows read and rejected per file, warnings.
    public internal(set) var parse: FeedSummary?

    init(feed: String) { self.feed = feed }

    /// Rows rejected: by the parse, and for repeating a key.
    public var rowsRejected: Int {
        (parse?.tables.reduce(0) { $0 + $1.rowsRejected } ?? 0) + rejected.values.reduce(0) { $0 + $1.count }
    }
}
