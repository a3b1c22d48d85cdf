public import GTFS

/// A feed held by a store, as a store's `feeds()` lists it: its name, its current version and its rows.
public struct StoredFeed: Sendable, Hashable {
    /// The feed's number in `feeds`, the value of the `feed` column in every GTFS table.
    public let id: Int64
    /// The name given with ``ImportOptions/feed`` (`gtfs-import --feed NAME`).
    public let name: String
    /// The SHA-256 over the current content of its tables (see a store's `feeds()`), `nil` while a
    /// table's content hash is unknown (rows from standard input or from a version 1 store).
    public let contentHash: String?
    /// Where the current version came from.
    public let source: String?
    /// When the current version was imported (ISO 8601).
    public let importedAt: String?
    /// The row of `imports` that made the current version.
    public let importID: Int64?
    /// Rows per table (tables without rows left out).
    public let rowCounts: [GTFSFile: Int]
    /// Imports recorded for this feed name (completed, failed and cancelled).
    public let importCount: Int

    package init(
        id: Int64, name: String, contentHash: String?, source: String?, importedAt: String?, importID: Int64?, rowCounts: [GTFSFile: Int],
        importCount: Int
    ) {
        self.id = id
        self.name = name
        self.contentHash = contentHash
        self.source = source
        self.importedAt = importedAt
        self.importID = importID
        self.rowCounts = rowCounts
        self.importCount = importCount
    }

    /// Rows over all tables.
    public var rowCount: Int { rowCounts.values.reduce(0, +) }
}
