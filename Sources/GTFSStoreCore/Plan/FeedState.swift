package import GTFS

/// What a store holds of one feed before an import: what the plan of the next one starts from.
package struct FeedState: Sendable {
    package let id: Int64
    /// The import that made the current version (to notice a concurrent change).
    package let importID: Int64?
    /// The current version's content hash.
    package let contentHash: String?
    /// Content hash and counts per table, for tables recorded in `feed_tables`.
    package let tables: [GTFSFile: TableState]
    /// Tables that hold rows of the feed.
    package let tablesWithRows: Set<GTFSFile>

    package init(id: Int64, importID: Int64?, contentHash: String?, tables: [GTFSFile: TableState], tablesWithRows: Set<GTFSFile>) {
        self.id = id
        self.importID = importID
        self.contentHash = contentHash
        self.tables = tables
        self.tablesWithRows = tablesWithRows
    }

    /// A feed's content hash from its tables' names and hashes: the SHA-256 of `table_name:hash` lines in
    /// name order; `nil` when a hash is unknown. Both stores name a feed's version with it.
    package static func contentHash(tables: [(name: String, hash: String?)]) -> String? {
        let hasher = ContentHasher()
        for (name, hash) in tables.sorted(by: { $0.name < $1.name }) {
            guard let hash else { return nil }
            hasher.update(Array("\(name):\(hash)\n".utf8))
        }
        return hasher.finish()
    }
}

/// One row of `feed_tables`.
package struct TableState: Sendable {
    package let contentHash: String?
    package let rowsRead: Int
    package let rowsStored: Int
    package let rowsRejected: Int
    /// The CRC-32 a zip archive declared for the file (see ``GTFS/FeedEntry/declaredCRC32``).
    package var contentCRC32: UInt32? = nil
    /// The hash of the file's bytes as a zip archive stored them (see ``GTFS/FeedEntry/storedBytesHash()``).
    package var storedHash: String? = nil

    package init(
        contentHash: String?, rowsRead: Int, rowsStored: Int, rowsRejected: Int, contentCRC32: UInt32? = nil, storedHash: String? = nil
    ) {
        self.storedHash = storedHash
        self.contentHash = contentHash
        self.rowsRead = rowsRead
        self.rowsStored = rowsStored
        self.rowsRejected = rowsRejected
        self.contentCRC32 = contentCRC32
    }
}
