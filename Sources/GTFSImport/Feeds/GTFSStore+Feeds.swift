public import GTFS

extension GTFSStore {
    /// The feeds the store holds, by name, each with its current version (content hash, source, import
    /// time) and its rows per table.
    ///
    /// A feed's content hash is the SHA-256 of the lines `table_name:hash` (in table-name order) over the
    /// SHA-256 of each file its rows came from, so the same files give the same hash however they were packaged.
    ///
    /// ```swift
    /// for feed in try store.feeds() { print(feed.name, feed.rowCount, feed.contentHash ?? "-") }
    /// ```
    /// - Returns: the feeds, sorted by name.
    /// - Throws: `DatabaseError`.
    public func feeds() throws -> [StoredFeed] {
        try read { db in try FeedCatalog.list(db) }
    }

    /// The names of the feeds the store holds, in order: at once, without counting rows.
    public func feedNames() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: BoardQuery.feedNamesSQL) }
    }

    /// Removes a feed: exactly its rows from every table, and its entry in `feeds`. Its history in
    /// `imports` stays. One transaction: readers see the feed whole or gone.
    ///
    /// Like an import, it waits for an import or removal writing the same database to end first.
    ///
    /// - Parameters:
    ///   - name: the feed's name.
    ///   - lockWait: the longest wait for another import or removal; `nil` waits as long as it takes.
    /// - Returns: the number of rows deleted, or `nil` when the store holds no such feed.
    /// - Throws: `DatabaseError`, `ImportError.busy(path:)` when the wait runs out.
    @discardableResult
    public func removeFeed(named name: String, lockWait: Duration? = nil) throws -> Int? {
        let lock = try ImportLock.acquire(for: DatabasePath.resolved(path), wait: lockWait, onWait: {}, shouldContinue: { true })
        defer { lock.release() }
        return try pool.writeWithoutTransaction { db in
            var removed: Int?
            try db.inTransaction(.immediate) {
                removed = try FeedCatalog.remove(db, name: name)
                return .commit
            }
            if removed != nil { GTFSStore.checkpoint(db) }
            return removed
        }
    }

    /// The number of rows of every GTFS table for one feed, from one consistent snapshot.
    /// - Parameter feed: the feed's name.
    /// - Returns: the counts, all zero when the store holds no such feed.
    /// - Throws: `DatabaseError`.
    public func rowCounts(feed: String) throws -> [GTFSFile: Int] {
        try read { db in
            let id = try Int64.fetchOne(db, sql: "SELECT feed FROM feeds WHERE name = ?", arguments: [feed])
            var counts: [GTFSFile: Int] = [:]
            for file in GTFSFile.allCases {
                counts[file] = try id.map {
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM \(GTFSSchema.tableName(for: file)) WHERE feed = ?", arguments: [$0]) ?? 0
                } ?? 0
            }
            return counts
        }
    }
}
