import GRDB
import GTFS

/// Writes the group digests of a table as it is stored whole (a full import, or an incremental import
/// that has no usable digests yet), so the next incremental import can skip unchanged groups.
struct GroupRecorder {
    let feed: Int64
    let table: String
    private var joiner = GroupRunJoiner(keepsSegments: false)
    private let upsert: RawStatement

    /// Starts recording `file`'s groups. The caller has forgotten those the store held (a full import in
    /// ``FeedCatalog/forgetHashes(_:feed:of:)``, an incremental one when it chose to compare row by row).
    /// - Throws: `DatabaseError`.
    init(_ db: Database, file: GTFSFile, feed: Int64) throws {
        self.feed = feed
        table = GTFSSchema.tableName(for: file)
        upsert = try RawStatement(db, sql: FeedGroups.upsertSQL)
        upsert.bind(1, feed)
        upsert.bind(2, table)
    }

    /// Records the groups completed by a stored batch.
    /// - Parameters:
    ///   - refused: the indexes in the batch of the rows the store refused, ascending.
    /// - Throws: `DatabaseError`.
    mutating func record(_ runs: [GroupRun], of batch: RecordBatch, refused: [Int]) throws {
        var runs = runs
        for position in owners(of: refused, partSizes: runs.lazy.map(\.range.count)) { runs[position].refused = true }
        for group in joiner.add(runs, of: batch) { try write(group) }
    }

    /// Records the last group.
    /// - Throws: `DatabaseError`.
    mutating func finish() throws {
        if let group = joiner.finish() { try write(group) }
    }

    private func write(_ group: PendingGroup) throws {
        // Rows without a group were refused by the store (the group column is NOT NULL).
        guard let key = group.key else { return }
        let valid = !group.refused
        upsert.bind(3, key)
        upsert.bind(4, valid ? group.digest.storedA : nil)
        upsert.bind(5, valid ? group.digest.storedB : nil)
        upsert.bind(6, Int64(group.digest.rows))
        try upsert.execute()
    }
}
