import GRDB
import GTFS

/// The group-by-group half of an incremental import of a grouped table (see ``GroupedTables``): decides
/// for each group of the new file whether its rows must be staged and compared row by row.
///
/// A group whose digest and row count equal the stored ones holds the rows the store holds: its rows are
/// not staged, and the merge walk does not read it. Every other group is staged: new groups, changed
/// ones, groups whose stored digest is NULL. A group that comes back later in the file (its rows were not
/// together) is staged whole: when its first part was skipped, the stored rows (equal to that part) are
/// copied into staging first. Groups the store holds and the file lacks are marked deleted at the end.
///
/// A changed group seen for the first time is compared in memory at once, and its differences written
/// (``GroupComparer``): none of its rows is staged. When such a group comes back later in the file, that
/// comparison is undone (the rows it left are staged, the stored rows put back), and the group is staged
/// whole like any other that comes back.
///
/// The decisions go into a scratch table, one row per group with `state` 0 (same), 1 (staged), 2
/// (deleted) or 3 (compared in memory), which then restricts the merge walk and updates `feed_groups`.
struct GroupFilter {
    let feed: Int64
    let table: String
    let column: String
    /// `gtfs_scratch.gtfs_groups_stop_times`.
    let groups: String
    private var joiner = GroupRunJoiner(keepsSegments: true)
    private let lookupStored: RawStatement
    private let lookupSeen: RawStatement
    /// Adds a group's decision, unless the group was seen before (then it changes nothing).
    private let claim: RawStatement
    private let markRepeat: RawStatement
    private let copyStored: RawStatement
    private let invalidateGroup: RawStatement
    /// Compares changed groups in memory; `nil` when every changed group is staged.
    let comparer: GroupComparer?
    /// Marks a group that the comparer left to staging.
    private let markStaged: RawStatement
    /// The rows of groups compared in memory that were found unchanged.
    private(set) var comparedSameRows = 0

    /// States in the scratch table.
    static let same = 0, staged = 1, deleted = 2, compared = 3

    /// Creates the scratch table of decisions.
    /// - Parameters:
    ///   - stagingTable: the qualified staging copy of the table.
    ///   - columns: the table's columns without `feed`.
    ///   - comparesInMemory: whether changed groups are compared in memory (``GroupComparer``).
    /// - Throws: `DatabaseError`.
    init(
        _ db: Database, file: GTFSFile, feed: Int64, column: String, stagingTable: String, columns: [String], comparesInMemory: Bool
    ) throws {
        self.feed = feed
        self.column = column
        table = GTFSSchema.tableName(for: file)
        groups = "\(TableDiff.scratch).gtfs_groups_\(table)"
        try db.execute(sql: """
            CREATE TABLE \(groups) (group_key TEXT PRIMARY KEY, digest_a INTEGER, digest_b INTEGER, rows INTEGER NOT NULL,
            state INTEGER NOT NULL) WITHOUT ROWID
            """)
        lookupStored = try RawStatement(db, sql: FeedGroups.lookupSQL)
        lookupStored.bind(1, feed)
        lookupStored.bind(2, table)
        lookupSeen = try RawStatement(db, sql: "SELECT state FROM \(groups) WHERE group_key = ?")
        claim = try RawStatement(
            db, sql: "INSERT INTO \(groups) (group_key, digest_a, digest_b, rows, state) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
        markRepeat = try RawStatement(
            db, sql: "UPDATE \(groups) SET state = \(Self.staged), digest_a = NULL, digest_b = NULL, rows = rows + ? WHERE group_key = ?")
        let list = columns.joined(separator: ", ")
        copyStored = try RawStatement(
            db, sql: "INSERT INTO \(stagingTable) (feed, \(list)) SELECT feed, \(list) FROM main.\(table) WHERE feed = ? AND \(column) = ?")
        copyStored.bind(1, feed)
        invalidateGroup = try RawStatement(db, sql: "UPDATE \(groups) SET digest_a = NULL, digest_b = NULL WHERE group_key = ?")
        markStaged = try RawStatement(db, sql: "UPDATE \(groups) SET state = \(Self.staged) WHERE group_key = ?")
        comparer = comparesInMemory ? try GroupComparer(db, file: file, feed: feed, groupColumn: column, stagingTable: stagingTable) : nil
    }

    /// Decides the groups a batch completes.
    /// - Returns: the groups to stage, and the rows skipped because their group is unchanged (they count
    ///   as stored: the store holds them).
    /// - Throws: `DatabaseError`.
    mutating func add(_ runs: [GroupRun], of batch: RecordBatch) throws -> (stage: [PendingGroup], skippedRows: Int) {
        try decide(joiner.add(runs, of: batch))
    }

    /// Decides the last group of the file.
    /// - Throws: `DatabaseError`.
    mutating func finish() throws -> (stage: [PendingGroup], skippedRows: Int) {
        try decide(joiner.finish().map { [$0] } ?? [])
    }

    private mutating func decide(_ completed: [PendingGroup]) throws -> (stage: [PendingGroup], skippedRows: Int) {
        var stage: [PendingGroup] = []
        var skipped = 0
        for group in completed {
            guard let key = group.key else {
                // Refused by the store (the group column is NOT NULL): staged, so it is refused as in a full import.
                stage.append(group)
                continue
            }
            lookupStored.bind(3, key)
            var same = false
            if try lookupStored.step(), let a = lookupStored.int64(0), let b = lookupStored.int64(1) {
                same = a == group.digest.storedA && b == group.digest.storedB && lookupStored.int64(2) == Int64(group.digest.rows)
            }
            lookupStored.reset()
            let compares = !same && comparer != nil && !group.refused
            claim.bind(1, key)
            claim.bind(2, group.digest.storedA)
            claim.bind(3, group.digest.storedB)
            claim.bind(4, Int64(group.digest.rows))
            claim.bind(5, Int64(same ? Self.same : compares ? Self.compared : Self.staged))
            if try claim.execute() == 0 {
                // Seen before: its rows were not together in the file. Stage all of them, digest unknown;
                // when its first part was skipped, the stored rows (equal to that part) go to staging first.
                lookupSeen.bind(1, key)
                let seen = try lookupSeen.step() ? lookupSeen.int64(0) : nil
                lookupSeen.reset()
                if seen == Int64(Self.same) {
                    copyStored.bind(2, key)
                    try copyStored.execute()
                } else if seen == Int64(Self.compared), let comparer {
                    comparedSameRows -= try comparer.revert(key)
                }
                markRepeat.bind(1, Int64(group.digest.rows))
                markRepeat.bind(2, key)
                try markRepeat.execute()
                stage.append(group)
                continue
            }
            if same {
                skipped += group.digest.rows
            } else if compares, let comparer, let same = try comparer.compare(group, key: key) {
                skipped += group.digest.rows
                comparedSameRows += same
            } else {
                if compares {
                    markStaged.bind(1, key)
                    try markStaged.execute()
                }
                stage.append(group)
            }
        }
        return (stage, skipped)
    }

    /// Forgets the digest of a group the store refused a row of (it is compared row by row next time).
    /// - Throws: `DatabaseError`.
    func invalidate(_ key: String) throws {
        invalidateGroup.bind(1, key)
        try invalidateGroup.execute()
    }

    /// After the last group: marks the stored groups the file lacks as deleted.
    /// - Throws: `DatabaseError`.
    func markDeletedGroups(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO \(groups) (group_key, digest_a, digest_b, rows, state)
                SELECT group_key, NULL, NULL, rows, \(Self.deleted) FROM main.feed_groups
                WHERE feed = ? AND table_name = ? AND group_key NOT IN (SELECT group_key FROM \(groups))
                """, arguments: [feed, table])
    }

    /// The rows of the groups found unchanged (not staged, not walked).
    /// - Throws: `DatabaseError`.
    func unchangedRows(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT ifnull(sum(rows), 0) FROM \(groups) WHERE state = \(Self.same)") ?? 0
    }

    /// The condition that restricts the merge walk's read of the store to the staged and deleted groups.
    var storedRowsCondition: String {
        "\(column) IN (SELECT group_key FROM \(groups) WHERE state IN (\(Self.staged), \(Self.deleted)))"
    }

    /// Writes the new version's groups to `feed_groups`: deleted groups go, staged and compared groups get their new
    /// digest (NULL when they were not together or a row was refused); unchanged groups stay as they were.
    /// - Throws: `DatabaseError`.
    func updateStoredGroups(_ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM main.feed_groups WHERE feed = ? AND table_name = ? AND group_key IN (SELECT group_key FROM \(groups) WHERE state = \(Self.deleted))",
            arguments: [feed, table])
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO main.feed_groups (feed, table_name, group_key, digest_a, digest_b, rows)
                SELECT ?, ?, group_key, digest_a, digest_b, rows FROM \(groups) WHERE state IN (\(Self.staged), \(Self.compared))
                """, arguments: [feed, table])
    }
}
