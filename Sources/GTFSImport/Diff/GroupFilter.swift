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
///
/// While the file's groups come in key order (bytewise, as SQLite orders the stored ones), the stored
/// digests are read with one cursor in that order instead of one lookup per group, an unchanged group
/// leaves no row in the scratch table (it cannot come back while the order holds), and a stored group the
/// cursor passes is marked deleted at once. At the first group out of order, the unchanged groups seen so
/// far get their rows in one statement, and every later group is looked up and recorded one by one.
struct GroupFilter {
    let feed: Int64
    let table: String
    let column: String
    /// `gtfs_scratch.gtfs_groups_stop_times`.
    let groups: String
    private var joiner = GroupRunJoiner(keepsSegments: true)
    private let lookupStored: RawStatement
    private let lookupSeen: RawStatement
    /// Adds a group's decision, unless the group was seen before (then it changes nothing). A stored group
    /// the in-order cursor passed (marked deleted) is seen for the first time: it gets the decision.
    private let claim: RawStatement
    private let markRepeat: RawStatement
    private let copyStored: RawStatement
    private let invalidateGroup: RawStatement
    /// Compares changed groups in memory.
    let comparer: GroupComparer
    /// Marks a group that the comparer left to staging.
    private let markStaged: RawStatement
    /// The rows of groups compared in memory that were found unchanged.
    private(set) var comparedSameRows = 0
    /// The stored groups of the table in key order, read while the file's groups come in that order.
    private let storedInOrder: RawStatement
    /// Whether `storedInOrder` has a current row; `nil` before its first step.
    private var storedHasRow: Bool?
    /// The last group while the file's groups come in key order; `inOrder` ends at the first that does not.
    private var lastKey: String?
    private var inOrder = true
    /// The rows of the unchanged groups seen in order, which have no row in the scratch table.
    private var unrecordedSameRows = 0
    private let markPassed: RawStatement
    /// Records the unchanged groups seen in order, up to a key (`?1`).
    private let copyStoredUpTo: RawStatement
    /// Removes a group's rows from the staging copy (`?1`): a large group's, staged as they came, once its
    /// digest shows it unchanged.
    private let dropStaged: RawStatement
    /// Whether the store refused a staged row of the open group that is being staged as it comes.
    private var spilledRowRefused = false

    /// The most rows of one group held in memory (``GroupedTables/maxHeldRows`` unless a test asks for
    /// less): the rows of a larger group are staged as they come and compared by the merge walk.
    private let maxHeldRows: Int

    /// States in the scratch table.
    static let same = 0, staged = 1, deleted = 2, compared = 3

    /// Creates the scratch table of decisions.
    /// - Parameters:
    ///   - stagingTable: the qualified staging copy of the table.
    ///   - columns: the table's columns without `feed`.
    ///   - maxHeldRows: the most rows of one group held in memory.
    /// - Throws: `DatabaseError`.
    init(
        _ db: Database, file: GTFSFile, feed: Int64, column: String, stagingTable: String, columns: [String], maxHeldRows: Int
    ) throws {
        self.feed = feed
        self.maxHeldRows = maxHeldRows
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
            db, sql: """
                INSERT INTO \(groups) (group_key, digest_a, digest_b, rows, state) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (group_key) DO UPDATE SET digest_a = excluded.digest_a, digest_b = excluded.digest_b, rows = excluded.rows,
                state = excluded.state WHERE state = \(Self.deleted)
                """)
        markRepeat = try RawStatement(
            db, sql: "UPDATE \(groups) SET state = \(Self.staged), digest_a = NULL, digest_b = NULL, rows = rows + ? WHERE group_key = ?")
        let list = columns.joined(separator: ", ")
        copyStored = try RawStatement(
            db, sql: "INSERT INTO \(stagingTable) (feed, \(list)) SELECT feed, \(list) FROM main.\(table) WHERE feed = ? AND \(column) = ?")
        copyStored.bind(1, feed)
        invalidateGroup = try RawStatement(db, sql: "UPDATE \(groups) SET digest_a = NULL, digest_b = NULL WHERE group_key = ?")
        markStaged = try RawStatement(db, sql: "UPDATE \(groups) SET state = \(Self.staged) WHERE group_key = ?")
        storedInOrder = try RawStatement(
            db,
            sql: "SELECT group_key, digest_a, digest_b, rows FROM main.feed_groups WHERE feed = \(feed) AND table_name = ? ORDER BY group_key",
            cached: false)
        storedInOrder.bind(1, table)
        markPassed = try RawStatement(
            db, sql: "INSERT INTO \(groups) (group_key, digest_a, digest_b, rows, state) VALUES (?, NULL, NULL, ?, \(Self.deleted))", cached: false)
        copyStoredUpTo = try RawStatement(
            db,
            sql: """
                INSERT INTO \(groups) (group_key, digest_a, digest_b, rows, state)
                SELECT group_key, digest_a, digest_b, rows, \(Self.same) FROM main.feed_groups
                WHERE feed = \(feed) AND table_name = '\(table)' AND group_key <= ?1 AND group_key NOT IN (SELECT group_key FROM \(groups))
                """, cached: false)
        comparer = try GroupComparer(db, file: file, feed: feed, groupColumn: column)
        dropStaged = try RawStatement(db, sql: "DELETE FROM \(stagingTable) WHERE \(column) = ?1", cached: false)
    }

    /// Decides the groups a batch completes.
    /// - Returns: the groups to stage, and the rows skipped because their group is unchanged (they count
    ///   as stored: the store holds them).
    /// - Throws: `DatabaseError`.
    mutating func add(_ runs: [GroupRun], of batch: RecordBatch) throws -> (stage: [PendingGroup], skippedRows: Int) {
        var decision = try decide(joiner.add(runs, of: batch))
        // A group too large to hold goes to staging as it comes; its digest decides at its end.
        if joiner.openIsSpilled || joiner.openRows > maxHeldRows {
            if !joiner.openIsSpilled { try beginSpill(of: joiner.openKey) }
            if let part = joiner.takeOpenSegments() { decision.stage.append(part) }
        }
        return decision
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
            try checkOrder(key)
            let stored = inOrder ? try storedInOrder(key) : try lookUp(key)
            var same = false
            if let stored, let a = stored.a, let b = stored.b {
                same = a == group.digest.storedA && b == group.digest.storedB && stored.rows == Int64(group.digest.rows)
            }
            // Of a group staged as it came, only the rows since its last part went to staging count here.
            let held = group.spilled ? group.segmentRows : group.digest.rows
            let refusedStaged = group.spilled && spilledRowRefused
            if group.spilled { spilledRowRefused = false }
            if inOrder {
                lastKey = key
                if same {
                    // In order, no earlier part of the group can be in staging: all of it goes.
                    if group.spilled { try dropStagedRows(of: key) }
                    skipped += held
                    unrecordedSameRows += group.digest.rows
                    continue
                }
            }
            // In memory only when both versions are small: the comparison holds the new rows and the keys of
            // the stored rows it deletes (a trip of a million stop times cut to ten).
            let compares = !same && !group.refused && !group.spilled && (stored?.rows ?? 0) <= Int64(maxHeldRows)
            let state = Int64(same ? Self.same : compares ? Self.compared : Self.staged)
            claim.bind(1, key)
            // A group the store refused a staged row of keeps no digest: it is compared row by row next time.
            claim.bind(2, refusedStaged ? nil : group.digest.storedA)
            claim.bind(3, refusedStaged ? nil : group.digest.storedB)
            claim.bind(4, Int64(group.digest.rows))
            claim.bind(5, state)
            if try claim.execute() == 0 {
                try takeBack(key, rows: group.digest.rows)
                stage.append(group)
                continue
            }
            if same {
                // Claimed: seen for the first time, so the staged rows of the key are this group's alone.
                if group.spilled { try dropStagedRows(of: key) }
                skipped += held
            } else if compares, let same = try comparer.compare(group, key: key) {
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

    /// A group seen before: its rows were not together in the file. All of them are staged, digest unknown;
    /// when its first part was skipped, the stored rows (equal to that part) go to staging first, and when
    /// it was compared, the rows its comparison left go there and the stored rows come back.
    private mutating func takeBack(_ key: String, rows: Int) throws {
        lookupSeen.bind(1, key)
        let seen = try lookupSeen.step() ? lookupSeen.int64(0) : nil
        lookupSeen.reset()
        // Not in the file so far: none, or a stored group the in-order cursor passed (marked deleted).
        guard let seen, seen != Int64(Self.deleted) else { return }
        if seen == Int64(Self.same) || seen == Int64(Self.compared) {
            copyStored.bind(2, key)
            let copied = try copyStored.execute()
            if seen == Int64(Self.compared) { comparedSameRows -= copied - (try comparer.revert(key)) }
        }
        markRepeat.bind(1, Int64(rows))
        markRepeat.bind(2, key)
        try markRepeat.execute()
    }

    /// Before the first rows of a group too large to hold go to staging: a group seen before gets its earlier
    /// part staged first (``takeBack(_:rows:)``), as when such a group ends, so that of two rows with one key
    /// the one earlier in the file is kept and the other refused, as in a full import.
    private mutating func beginSpill(of key: String?) throws {
        guard let key else { return }
        try checkOrder(key)
        // In order, the key is new to the file.
        if !inOrder { try takeBack(key, rows: 0) }
    }

    /// The stored digest and rows of group `key`, from the cursor over the stored groups in key order; the
    /// stored groups it passes, which the file lacks so far, are marked deleted.
    private mutating func storedInOrder(_ key: String) throws -> (a: Int64?, b: Int64?, rows: Int64)? {
        if storedHasRow == nil { storedHasRow = try storedInOrder.step() }
        while storedHasRow == true {
            let order = Self.byteOrder(storedInOrder.bytes(0, text: true), key)
            if order > 0 { return nil }
            if order == 0 {
                let found = (storedInOrder.int64(1), storedInOrder.int64(2), storedInOrder.integer(3))
                storedHasRow = try storedInOrder.step()
                return found
            }
            markPassed.bind(1, valueOf: 0, in: storedInOrder)
            markPassed.bind(2, valueOf: 3, in: storedInOrder)
            try markPassed.execute()
            storedHasRow = try storedInOrder.step()
        }
        return nil
    }

    private func lookUp(_ key: String) throws -> (a: Int64?, b: Int64?, rows: Int64)? {
        lookupStored.bind(3, key)
        defer { lookupStored.reset() }
        guard try lookupStored.step() else { return nil }
        return (lookupStored.int64(0), lookupStored.int64(1), lookupStored.integer(2))
    }

    /// Leaves the in-order reading at the first group whose key does not follow the last one's.
    private mutating func checkOrder(_ key: String) throws {
        if inOrder, let lastKey, !lastKey.utf8.lexicographicallyPrecedes(key.utf8) { try leaveOrder(lastKey) }
    }

    /// The first group out of key order: the unchanged groups seen so far (stored up to `lastKey`, neither
    /// passed nor recorded) get their rows in the scratch table, and the groups are looked up from now on.
    private mutating func leaveOrder(_ lastKey: String) throws {
        inOrder = false
        storedInOrder.reset()
        copyStoredUpTo.bind(1, lastKey)
        _ = try copyStoredUpTo.execute()
        unrecordedSameRows = 0
    }

    /// Bytewise order of a stored text and `key`, as SQLite's BINARY collation orders them.
    private static func byteOrder(_ stored: UnsafeRawBufferPointer, _ key: String) -> Int {
        var key = key
        return key.withUTF8 { MergeWalk.bytewiseOrder(stored.baseAddress, stored.count, UnsafeRawPointer($0.baseAddress), $0.count) }
    }

    /// Forgets the digest of a group the store refused a row of (it is compared row by row next time).
    /// - Throws: `DatabaseError`.
    mutating func invalidate(_ key: String) throws {
        if joiner.openIsSpilled, key == joiner.openKey { spilledRowRefused = true }
        invalidateGroup.bind(1, key)
        try invalidateGroup.execute()
    }

    /// Removes the staged rows of a group staged as it came, which turned out unchanged.
    private func dropStagedRows(of key: String) throws {
        dropStaged.bind(1, key)
        try dropStaged.execute()
    }

    /// After the last group: marks the stored groups the file lacks as deleted.
    /// - Throws: `DatabaseError`.
    func markDeletedGroups(_ db: Database) throws {
        storedInOrder.reset()
        // In order, the unchanged groups have no row here: the unseen ones are those the cursor did not reach.
        let unseen = inOrder ? "(?3 IS NULL OR group_key > ?3)" : "group_key NOT IN (SELECT group_key FROM \(groups))"
        try db.execute(
            sql: """
                INSERT INTO \(groups) (group_key, digest_a, digest_b, rows, state)
                SELECT group_key, NULL, NULL, rows, \(Self.deleted) FROM main.feed_groups
                WHERE feed = ?1 AND table_name = ?2 AND \(unseen)
                """, arguments: inOrder ? [feed, table, lastKey] : [feed, table])
    }

    /// The rows of the groups found unchanged (not staged, not walked).
    /// - Throws: `DatabaseError`.
    func unchangedRows(_ db: Database) throws -> Int {
        try (Int.fetchOne(db, sql: "SELECT ifnull(sum(rows), 0) FROM \(groups) WHERE state = \(Self.same)") ?? 0) + unrecordedSameRows
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
