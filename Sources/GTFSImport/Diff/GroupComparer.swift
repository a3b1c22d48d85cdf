import GRDB
import GRDBSQLite
import GTFS

/// Compares one changed group of a grouped table (a trip's stop times) with the stored rows of that group
/// in memory, while the file is still being parsed, and writes the differences at once.
///
/// A 1 % change of stop_times changes a fifth of the trips, and a changed trip's other rows are equal to
/// the stored ones: staging every row of those trips, walking them in SQLite and writing the differences
/// afterwards cost more than the rest of the import. Here the group's new records are put in key order in
/// memory (``RowImages``) and merged with the stored rows of the group, read through the key; the rows
/// that differ are written while the group's pages are still in the cache, as the parser reads on.
///
/// Each write leaves a line in an undo log in the scratch database (the old row of a delete or update, the
/// key of an insert). The log is what ``finish(_:changes:counts:)`` counts and reports once the table is
/// done, and what ``revert(_:)`` uses when the group comes back later in the file: the group's stored rows are
/// then put back as they were, to be compared whole by the merge walk.
///
/// A group with a repeated key, or with a value SQLite would convert to another type, is left to the
/// staging copy, which refuses and converts exactly as a full import does.
struct GroupComparer {
    private let file: GTFSFile
    private let feed: Int64
    private let columns: [String]
    private let primitives: [FieldPrimitive]
    /// The key's columns, as positions among the table's columns.
    private let keyColumns: [Int]
    /// The stored rows of one group (`?1`), every column, in key order.
    private let stored: RawStatement
    private let writes: KeyedWrites
    /// Adds a line to the undo log: the kind (a ``TableDiff/Write``), then every column.
    private let log: RawStatement
    /// The undo log, `gtfs_scratch.gtfs_undo_stop_times`.
    let undo: String
    /// Counts the rows of a group that its comparison inserted or updated.
    private let countWritten: RawStatement
    private let revertStatements: [RawStatement]

    /// What names the undo log of a table in the scratch database: `gtfs_undo_stop_times`.
    static let undoPrefix = "gtfs_undo_"

    /// Prepares the comparison of `file`'s groups with the stored rows of `feed`, and creates the undo log.
    /// - Throws: `DatabaseError`.
    init(_ db: Database, file: GTFSFile, feed: Int64, groupColumn: String) throws {
        self.file = file
        self.feed = feed
        let table = StoreTable(file)
        let columns = table.columns, keyColumns = table.description.key
        self.columns = columns
        self.keyColumns = keyColumns
        primitives = table.description.fields.map(\.type.primitive)
        let name = table.name
        let list = columns.joined(separator: ", ")
        let keyList = table.keyColumns.joined(separator: ", ")
        undo = "\(TableDiff.scratch).\(Self.undoPrefix)\(name)"
        try db.execute(sql: "CREATE TABLE \(undo) (kind INTEGER NOT NULL, \(list))")
        try db.execute(sql: "CREATE INDEX \(undo)_key ON \(Self.undoPrefix)\(name) (\(keyList))")
        stored = try RawStatement(
            db, sql: "SELECT \(list) FROM main.\(name) WHERE feed = \(feed) AND \(groupColumn) = ?1 ORDER BY \(keyList)", cached: false)
        // A grouped table's key fields are never empty: its key expressions are its key columns.
        writes = try KeyedWrites(db, table: name, feed: feed, columns: columns, key: table.keyColumns)
        log = try RawStatement(
            db, sql: "INSERT INTO \(undo) VALUES (?1, \(columns.indices.map { "?\($0 + 2)" }.joined(separator: ", ")))", cached: false)
        let sameKey = table.keyColumns.map { "u.\($0) = main.\(name).\($0)" }.joined(separator: " AND ")
        let (deleted, updated, inserted) = (TableDiff.Write.delete.rawValue, TableDiff.Write.update.rawValue, TableDiff.Write.insert.rawValue)
        countWritten = try RawStatement(
            db, sql: "SELECT count(*) FROM \(undo) WHERE \(groupColumn) = ?1 AND kind <> \(deleted)", cached: false)
        revertStatements = try [
            // The rows the comparison inserted or updated go; the deleted and updated rows come back.
            """
            DELETE FROM main.\(name) WHERE feed = \(feed) AND \(groupColumn) = ?1
            AND EXISTS (SELECT 1 FROM \(undo) AS u WHERE \(sameKey) AND u.kind IN (\(updated), \(inserted)))
            """,
            "INSERT INTO main.\(name) (feed, \(list)) SELECT \(feed), \(list) FROM \(undo) WHERE \(groupColumn) = ?1 AND kind IN (\(deleted), \(updated))",
            "DELETE FROM \(undo) WHERE \(groupColumn) = ?1",
        ].map { try RawStatement(db, sql: $0, cached: false) }
    }

    /// Compares `group` with the stored rows of its key and writes every difference.
    /// - Returns: the group's unchanged rows, or `nil` when it must be staged whole instead (nothing was written).
    /// - Throws: `DatabaseError`.
    func compare(_ group: PendingGroup, key: String) throws -> Int? {
        let box = ImageBox(RowImages(primitives: primitives))
        for segment in group.segments {
            guard segment.batch.accept(ImageAdder(box: box, range: segment.range)) else { return nil }
        }
        let images = box.images
        guard let order = sortedByKey(images) else { return nil }

        // The writes wait until the read of the group ends: a statement does not read rows changed under it.
        var pending: [(kind: TableDiff.Write, row: Int)] = []
        var deletedKeys = RowImages(primitives: keyColumns.map { primitives[$0] })
        var same = 0
        stored.bind(1, key)
        var hasStored = try stored.step()
        var next = 0
        while hasStored || next < order.count {
            let row = next < order.count ? order[next] : -1
            // Negative: the stored row's key comes first.
            let position = !hasStored ? 1 : row < 0 ? -1 : -compareKey(images, row)
            if position < 0 {
                try logStored(.delete)
                pending.append((.delete, deletedKeys.count))
                deletedKeys.addValues(of: stored, columns: keyColumns)
                hasStored = try stored.step()
            } else if position > 0 {
                try logNew(images, row)
                pending.append((.insert, row))
                next += 1
            } else {
                if sameRow(images, row) {
                    same += 1
                } else {
                    try logStored(.update)
                    pending.append((.update, row))
                }
                hasStored = try stored.step()
                next += 1
            }
        }
        stored.reset()
        for write in pending {
            switch write.kind {
            case .delete:
                for index in keyColumns.indices {
                    deletedKeys.bind(write.row, index, to: writes.delete, at: Int32(index + 1))
                }
                _ = try writes.delete.execute()
            case .update:
                guard let update = writes.update else { continue }
                for (index, column) in keyColumns.enumerated() {
                    images.bind(write.row, column, to: update, at: Int32(index + 1))
                }
                for column in writes.setColumns {
                    images.bind(write.row, column, to: update, at: Int32(keyColumns.count + column + 1))
                }
                _ = try update.execute()
            case .insert:
                for column in columns.indices {
                    images.bind(write.row, column, to: writes.insert, at: Int32(column + 1))
                }
                _ = try writes.insert.execute()
            }
        }
        return same
    }

    /// Puts the stored rows of a compared group back as they were (the caller has copied the rows the
    /// comparison left, the group's first part in the file, elsewhere).
    /// - Returns: the rows of the group the comparison inserted or updated.
    /// - Throws: `DatabaseError`.
    func revert(_ key: String) throws -> Int {
        countWritten.bind(1, key)
        let written = try countWritten.step() ? countWritten.integer(0) : 0
        countWritten.reset()
        for statement in revertStatements {
            statement.bind(1, key)
            try statement.execute()
        }
        return Int(written)
    }

    /// Counts the changes the comparisons wrote and reports them to `changes`, in key order.
    /// - Throws: `DatabaseError`.
    func finish(_ db: Database, changes: ChangeRecorder?, counts: inout TableChanges) throws {
        for row in try Row.fetchAll(db, sql: "SELECT kind, count(*) FROM \(undo) GROUP BY kind") {
            let count: Int = row[1]
            switch TableDiff.Write(rawValue: row[0]) {
            case .delete: counts.deleted += count
            case .update: counts.updated += count
            case .insert: counts.inserted += count
            case nil: break
            }
        }
        guard let changes else { return }
        let key = StoreTable(file).keyColumns
        let sameKey = key.map { "m.\($0) = u.\($0)" }.joined(separator: " AND ")
        let rows = try RawStatement(
            db,
            sql: """
                SELECT u.kind, \(columns.map { "u.\($0)" }.joined(separator: ", ")), \(columns.map { "m.\($0)" }.joined(separator: ", "))
                FROM \(undo) AS u LEFT JOIN main.\(file.rawValue) AS m ON m.feed = \(feed) AND \(sameKey)
                ORDER BY \(key.map { "u.\($0)" }.joined(separator: ", "))
                """, cached: false)
        defer { rows.reset() }
        let old = Int32(1), new = Int32(1 + columns.count)
        while try rows.step() {
            switch rows.int64(0).flatMap(TableDiff.Write.init(rawValue:)) {
            case .delete:
                changes.report(.delete, of: file, columns: columns, keyPositions: keyColumns.map { old + Int32($0) }, row: rows, rowOffset: old)
            case .update:
                changes.report(
                    .update, of: file, columns: columns, keyPositions: keyColumns.map { new + Int32($0) }, row: rows, rowOffset: new,
                    old: rows, oldOffset: old)
            case .insert:
                changes.report(.insert, of: file, columns: columns, keyPositions: keyColumns.map { new + Int32($0) }, row: rows, rowOffset: new)
            case nil:
                continue
            }
        }
    }

    /// The rows in key order, or `nil` when two share a key.
    private func sortedByKey(_ images: RowImages) -> [Int]? {
        let keyColumns = self.keyColumns
        let order = (0 ..< images.count).sorted { a, b in
            for column in keyColumns {
                let result = images.compare(a, b, column)
                if result != 0 { return result < 0 }
            }
            return a < b
        }
        for (a, b) in zip(order, order.dropFirst()) where keyColumns.allSatisfy({ images.compare(a, b, $0) == 0 }) {
            return nil
        }
        return order
    }

    /// The order of row `row`'s key and the current stored row's: negative when the row's comes first.
    private func compareKey(_ images: RowImages, _ row: Int) -> Int {
        for column in keyColumns {
            let result = images.compare(row, column, stored, Int32(column))
            if result != 0 { return result }
        }
        return 0
    }

    private func sameRow(_ images: RowImages, _ row: Int) -> Bool {
        for column in 0 ..< primitives.count where !images.equals(row, column, stored, Int32(column)) { return false }
        return true
    }

    /// Logs the current stored row, about to be deleted or updated.
    private func logStored(_ write: TableDiff.Write) throws {
        log.reset()
        log.bind(1, write.rawValue)
        for column in columns.indices {
            log.bind(Int32(column + 2), valueOf: Int32(column), in: stored)
        }
        _ = try log.execute()
    }

    /// Logs the key of a row about to be inserted.
    private func logNew(_ images: RowImages, _ row: Int) throws {
        log.reset()
        sqlite3_clear_bindings(log.raw)
        log.bind(1, TableDiff.Write.insert.rawValue)
        for column in keyColumns {
            images.bind(row, column, to: log, at: Int32(column + 2))
        }
        _ = try log.execute()
    }

    /// Holds the images while a visitor adds to them, so that they are not copied.
    private final class ImageBox {
        var images: RowImages
        init(_ images: RowImages) { self.images = images }
    }

    private struct ImageAdder: RecordBatchVisitor {
        let box: ImageBox
        let range: Range<Int>

        func visit<R: GTFSRecord>(_ records: [R]) throws(Never) -> Bool {
            for index in range where !box.images.add(records[index]) { return false }
            return true
        }
    }
}
