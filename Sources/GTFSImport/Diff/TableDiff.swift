import GRDB
import GRDBSQLite
import GTFS

/// Applies a new version of one table of one feed as a diff by key.
///
/// The new rows go into a staging copy of the table in a scratch database (``attachScratch(_:)``: a private
/// temporary file, deleted whole by ``detachScratch(_:)``), with the same columns and keys,
/// so the same rows are refused as in a full import. Then one merge walk over both tables in key
/// order (each read through its key index, no sort) sorts every key into inserted, updated, deleted or
/// unchanged, and only the changes are written, one row per statement in key order (deletes and updates
/// by key, inserts from the staging copy). Tables without a key (`feed_info`, `attributions`) are compared
/// as multisets of rows and, when they differ, rewritten whole. A grouped table with known group digests
/// reads only the groups that differ (see ``GroupFilter``) and compares most of them in memory while the
/// file is parsed, writing their differences at once (``GroupComparer``).
///
/// Everything happens inside the caller's transaction, between ``attachScratch(_:)`` and ``detachScratch(_:)``.
struct TableDiff {
    let file: GTFSFile
    let feed: Int64
    /// `stops`.
    let table: String
    /// `gtfs_stage_stops`, in the scratch database.
    let stage: String
    /// The table's columns without `feed`.
    let columns: [String]
    /// The key expressions (`trip_id`, `ifnull(agency_id, '')`), or nil for a table without a key.
    let key: [String]?
    /// For a grouped table whose stored groups are known: which groups to stage and compare.
    var filter: GroupFilter?

    /// Creates the staging copy (empty) of `file`'s table.
    ///
    /// - Parameters:
    ///   - comparesGroups: whether to compare group by group (a grouped table whose stored groups are
    ///     complete, see ``GroupFilter``) instead of staging and comparing every row.
    ///   - maxHeldGroupRows: the most rows of one group held in memory.
    /// - Throws: `DatabaseError`.
    init(_ db: Database, file: GTFSFile, feed: Int64, comparesGroups: Bool = false, maxHeldGroupRows: Int = GroupedTables.maxHeldRows) throws {
        self.file = file
        self.feed = feed
        let storeTable = StoreTable(file)
        table = storeTable.name
        stage = Self.stagePrefix + table
        columns = storeTable.columns
        key = storeTable.keyExpressions
        // The same columns and key (not the post-load indexes): the copy refuses the same duplicate rows.
        for statement in storeTable.createStatements(named: stage, schema: Self.scratch) {
            try db.execute(sql: statement)
        }
        if comparesGroups, let column = GroupedTables.column(for: file) {
            filter = try GroupFilter(
                db, file: file, feed: feed, column: column, stagingTable: "\(Self.scratch).\(stage)", columns: columns,
                maxHeldRows: maxHeldGroupRows)
        }
    }

    /// The qualified name to insert the new rows into.
    var stagingTable: String { "\(Self.scratch).\(stage)" }

    /// What names a staging copy of a table or index: `gtfs_stage_stops`, `gtfs_stage_transfers_key`.
    static let stagePrefix = "gtfs_stage_"

    /// The schema name of the scratch database.
    static let scratch = "gtfs_scratch"

    /// Attaches the scratch database: a private temporary file (SQLite deletes it on detach), its journal
    /// in memory and no syncs, since nothing in it outlives the import. Call it outside a transaction.
    /// - Throws: `DatabaseError`.
    static func attachScratch(_ db: Database) throws {
        // One left by an import whose detach failed (see detachScratch) goes first.
        if try String.fetchAll(db, sql: "SELECT name FROM pragma_database_list").contains(scratch) {
            try db.execute(sql: "DETACH DATABASE \(scratch)")
        }
        try db.execute(sql: "ATTACH DATABASE '' AS \(scratch)")
        try db.execute(sql: "PRAGMA \(scratch).page_size = \(GTFSStore.pageSize)")
        // A rollback journal still, in memory: a multi-row INSERT that hits a duplicate key must be undone
        // as a whole before its rows are retried one by one (with the journal off, its first rows stayed
        // and were then refused as duplicates of themselves). It stays small: the file is empty at BEGIN.
        try db.execute(sql: "PRAGMA \(scratch).journal_mode = MEMORY")
        try db.execute(sql: "PRAGMA \(scratch).synchronous = OFF")
    }

    /// Detaches the scratch database, which deletes its file at once, however many rows were staged
    /// (dropping a staged table of millions of rows instead takes seconds). Call it outside a transaction.
    /// It runs after the import's outcome is settled, so a failure must not change that outcome: the
    /// database then stays attached until the next ``attachScratch(_:)`` or until the connection closes.
    /// - Returns: whether it was detached.
    @discardableResult
    static func detachScratch(_ db: Database) -> Bool {
        do {
            try db.execute(sql: "DETACH DATABASE \(scratch)")
            return true
        } catch {
            return false
        }
    }

    /// Compares the staging copy with the store and applies the differences to the store.
    ///
    /// - Parameters:
    ///   - changes: told of every row the diff inserts, updates or deletes.
    ///   - isCancelled: polled every few thousand rows.
    /// - Returns: the counts.
    /// - Throws: `DatabaseError`, `CancellationError`.
    func apply(_ db: Database, changes: ChangeRecorder? = nil, isCancelled: () -> Bool) throws -> TableChanges {
        let keyList = key ?? columns
        // Key expressions that are not plain columns are selected after the columns.
        var selected = columns
        var keyPositions: [Int32] = []
        for expression in keyList {
            if let position = columns.firstIndex(of: expression) {
                keyPositions.append(Int32(position))
            } else {
                keyPositions.append(Int32(selected.count))
                selected.append(expression)
            }
        }
        let selectList = selected.joined(separator: ", ")
        let order = keyList.joined(separator: ", ")
        // Compared group by group: only the staged and deleted groups are read.
        try filter?.markDeletedGroups(db)
        let unchangedGroupRows = try filter?.unchangedRows(db) ?? 0
        let restriction = filter.map { " AND " + $0.storedRowsCondition } ?? ""
        let old = try RawStatement(db, sql: "SELECT \(selectList) FROM main.\(table) WHERE feed = \(feed)\(restriction) ORDER BY \(order)", cached: false)
        // `feed = …` lets both reads walk the (feed, key…) index in order instead of sorting.
        let new = try RawStatement(db, sql: "SELECT \(selectList) FROM \(Self.scratch).\(stage) WHERE feed = \(feed) ORDER BY \(order)", cached: false)
        let keyNames = keyList.indices.map { "k\($0)" }
        let keyColumns = keyNames.joined(separator: ", ")
        // The keys the walk finds, with what happens to them (a `Write`), in key order (the walk's order).
        try db.execute(sql: "CREATE TABLE \(Self.scratch).gtfs_diff_keys (kind INTEGER NOT NULL, \(keyColumns))")
        let placeholders = Array(repeating: "?", count: keyList.count).joined(separator: ", ")
        let record = try RawStatement(db, sql: "INSERT INTO \(Self.scratch).gtfs_diff_keys VALUES (?, \(placeholders))", cached: false)

        var counts = TableChanges(unchanged: unchangedGroupRows + (filter?.comparedSameRows ?? 0))
        // A change names its row by the key's columns (not the key expressions): every column without a key.
        let changeKey = ChangeRecorder.keyColumns(of: file).compactMap { columns.firstIndex(of: $0).map(Int32.init) }
        let merge = MergeWalk(old: old, new: new, keyPositions: keyPositions, columnCount: Int32(columns.count))
        try merge.run(isCancelled: isCancelled) { step in
            switch step {
            case .onlyOld:
                counts.deleted += 1
                try Self.record(.delete, from: old, keyPositions, into: record)
                changes?.report(.delete, of: file, columns: columns, keyPositions: changeKey, row: old)
            case .onlyNew:
                counts.inserted += 1
                try Self.record(.insert, from: new, keyPositions, into: record)
                changes?.report(.insert, of: file, columns: columns, keyPositions: changeKey, row: new)
            case .changed:
                counts.updated += 1
                try Self.record(.update, from: new, keyPositions, into: record)
                changes?.report(.update, of: file, columns: columns, keyPositions: changeKey, row: new, old: old)
            case .same:
                counts.unchanged += 1
            }
        }
        if !counts.isEmpty {
            if key == nil {
                // No key to address single rows: rewrite the feed's rows of the table.
                try db.execute(sql: "DELETE FROM main.\(table) WHERE feed = \(feed)")
                try db.execute(sql: "INSERT INTO main.\(table) (feed, \(columns.joined(separator: ", "))) SELECT \(feed), \(columns.joined(separator: ", ")) FROM \(Self.scratch).\(stage)")
            } else {
                try write(db, keyList: keyList, keyNames: keyNames, selected: selected)
            }
        }
        try filter?.comparer.finish(db, changes: changes, counts: &counts)
        try filter?.updateStoredGroups(db)
        // The staged rows stay until the scratch database is detached: dropping them here would walk every page.
        try db.execute(sql: "DROP TABLE \(Self.scratch).gtfs_diff_keys")
        return counts
    }

    /// What happens to a key, as `gtfs_diff_keys` and a ``GroupComparer``'s undo log store it.
    enum Write: Int64 {
        case delete, update, insert
    }

    /// Writes the differences the walk recorded, one row per statement (see ``KeyedWrites``), in key order:
    /// the table's pages are visited once, in order. A cancel interrupts SQLite, which fails every statement
    /// started while the read of the keys runs.
    private func write(_ db: Database, keyList: [String], keyNames: [String], selected: [String]) throws {
        let writes = try KeyedWrites(db, table: table, feed: feed, columns: columns, key: keyList)
        // Each key with its new row (none for a delete): the kind, the key values, then the staging copy's
        // columns (unqualified names are the staging copy's: the key list's columns are kind, k0, k1, …).
        let join = (["s.feed = \(feed)"] + zip(keyList, keyNames).map { "\($0) = d.\($1)" }).joined(separator: " AND ")
        let rows = try RawStatement(
            db, sql: """
                SELECT d.kind, \(keyNames.map { "d.\($0)" }.joined(separator: ", ")), \(selected.joined(separator: ", "))
                FROM \(Self.scratch).gtfs_diff_keys AS d LEFT JOIN \(Self.scratch).\(stage) AS s ON \(join) ORDER BY d.rowid
                """, cached: false)
        defer { rows.reset() }
        let firstColumn = Int32(1 + keyList.count)
        while try rows.step() {
            switch rows.int64(0).flatMap(Write.init(rawValue:)) {
            case .delete:
                for position in keyList.indices {
                    writes.delete.bind(Int32(position + 1), valueOf: Int32(position + 1), in: rows)
                }
                _ = try writes.delete.execute()
            case .update:
                guard let update = writes.update else { continue }
                for position in keyList.indices {
                    update.bind(Int32(position + 1), valueOf: Int32(position + 1), in: rows)
                }
                for column in writes.setColumns {
                    update.bind(Int32(keyList.count + column + 1), valueOf: firstColumn + Int32(column), in: rows)
                }
                _ = try update.execute()
            case .insert:
                for column in columns.indices {
                    writes.insert.bind(Int32(column + 1), valueOf: firstColumn + Int32(column), in: rows)
                }
                _ = try writes.insert.execute()
            case nil:
                continue
            }
        }
    }

    /// Records the key of the current row of `source` with what happens to it.
    private static func record(_ write: Write, from source: RawStatement, _ keyPositions: [Int32], into statement: RawStatement) throws {
        statement.reset()
        statement.bind(1, write.rawValue)
        for (index, position) in keyPositions.enumerated() {
            statement.bind(Int32(index + 2), valueOf: position, in: source)
        }
        _ = try statement.step()
    }
}
