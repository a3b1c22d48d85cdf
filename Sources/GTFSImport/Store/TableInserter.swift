import GRDB
import GRDBSQLite
import GTFS

/// Inserts records into their table with multi-row INSERT statements prepared once and bound directly.
///
/// One statement inserts ``rowsPerStatement`` rows (`INSERT INTO stops (feed, …) VALUES (1,?,…),(1,?,…),…`,
/// the feed's number written into the SQL); the
/// rows left over after the last full statement go through statements of 32, 16, 8, 4, 2 and 1 rows, so
/// at most eight statements exist per table, all kept in GRDB's statement cache (`db.cachedStatement`).
/// Values are bound with ``SQLiteRowBinder``: no `Codable`, no `StatementArguments`, no SQL built per row.
/// The columns are the record's fields (``GTFS/GTFSRecord/Field``), in the order `write(to:)` writes them.
///
/// ```swift
/// try store.pool.write { db in
///     let inserter = TableInserter<Stop>()
///     try inserter.insert(stops, into: db)
/// }
/// ```
///
/// A row that breaks a key (a duplicate `stop_id`, say) makes its statement fail as a whole and change
/// nothing; the inserter then inserts that statement's rows one at a time with `INSERT OR IGNORE` and hands
/// each record SQLite did not insert to `onConstraintViolation`, or throws at the first when there is no
/// handler. A decoded record fills every NOT NULL column, so its key is the only constraint it can break;
/// ignoring instead of failing spares each refused row an error, a statement rollback and a message, so
/// that refusing a row costs about what storing one does (a feed of one repeated row stays linear).
struct TableInserter<Record: GTFSRecord> {
    /// The rows per full statement when none is given. Measured on 1 M VBB-like stop_times, parsed and
    /// inserted on one thread: 1 row per statement 330 k rows/s, 10 rows 480 k, 50 rows 550 k; 100 and 200
    /// rows gain nothing beyond the noise.
    static var defaultRowsPerStatement: Int { 50 }

    /// The rows of a full statement (fewer when SQLite's limit on parameters requires it).
    let rowsPerStatement: Int

    /// The statements by row count, largest first.
    private let statements: [(rows: Int, sql: String)]

    /// The columns of a row.
    private let columnCount: Int

    /// The single-row insert that skips a row whose key is taken instead of failing.
    private let ignoringSQL: String

    /// The table written to.
    private let table: String

    /// Prepares the SQL for `Record`'s table.
    ///
    /// - Parameters:
    ///   - rowsPerStatement: rows per full statement; at least 1. The number of parameters
    ///     (rows × columns) is also held under SQLite's limit (32766 in SQLite 3.32 and later) at insert time.
    ///   - feed: the feed the rows belong to (its number in `feeds`); 1 when omitted.
    ///   - table: the table written to, when not `Record`'s own (a staging copy such as `temp.stage_stops`).
    init(rowsPerStatement: Int = TableInserter.defaultRowsPerStatement, feed: Int64 = 1, table: String? = nil) {
        let columns = Record.Field.allCases.map(\.spec.name)
        let rows = max(1, rowsPerStatement)
        self.rowsPerStatement = rows
        self.columnCount = columns.count
        var sizes = [rows]
        var size = 32
        while size >= 1 {
            if size < rows { sizes.append(size) }
            size /= 2
        }
        let table = table ?? GTFSSchema.tableName(for: Record.file)
        self.table = table
        let into = "INTO \(table) (feed, \(columns.joined(separator: ", "))) VALUES "
        let tuple = "(\(feed)," + Array(repeating: "?", count: columns.count).joined(separator: ",") + ")"
        statements = sizes.map { rows in
            (rows, "INSERT " + into + Array(repeating: tuple, count: rows).joined(separator: ","))
        }
        ignoringSQL = "INSERT OR IGNORE " + into + tuple
    }

    /// The SQL of a single-row insert, e.g. for error messages.
    var singleRowSQL: String { statements.last?.sql ?? "" }

    /// Inserts `records` in order.
    ///
    /// - Parameters:
    ///   - records: the rows.
    ///   - db: a connection on its writer queue; a surrounding transaction makes the whole insert atomic.
    ///   - onConstraintViolation: receives the index in `records` of each record SQLite refuses for a key
    ///     or NOT NULL constraint, the record and the error; the other records are inserted. When `nil`, the first refusal is thrown (the
    ///     records before it stay inserted, unless the caller rolls back).
    /// - Returns: the number of rows inserted.
    /// - Throws: `DatabaseError` (a full disk, a read-only file, a refused row without handler), or what
    ///   the handler throws.
    @discardableResult
    func insert(
        _ records: [Record],
        into db: Database,
        onConstraintViolation: ((Int, Record, DatabaseError) throws -> Void)? = nil
    ) throws -> Int {
        let limit = Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
        return try records.withUnsafeBufferPointer { records in
            var start = 0
            var inserted = 0
            // After a statement that a refused row failed, the next one goes row by row at once: rows that
            // repeat keys tend to come in runs, and each failed statement would bind its rows twice.
            var refusing = false
            for (rows, sql) in statements where rows * columnCount <= limit && records.count - start >= rows {
                let statement = try PreparedInsert(sql: sql, parameterCount: rows * columnCount, db: db)
                defer { statement.finish() }
                while records.count - start >= rows {
                    let chunk = UnsafeBufferPointer(rebasing: records[start ..< start + rows])
                    if refusing {
                        let stored = try insertOneByOne(chunk, offset: start, db, onConstraintViolation)
                        inserted += stored
                        refusing = stored < rows
                    } else {
                        do {
                            try execute(statement, chunk, db)
                            inserted += rows
                        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                            inserted += try insertOneByOne(chunk, offset: start, db, onConstraintViolation)
                            refusing = true
                        }
                    }
                    start += rows
                }
            }
            if start != records.count {
                // Only when a single row has more columns than SQLite accepts parameters.
                throw DatabaseError(
                    resultCode: .SQLITE_RANGE,
                    message: "a row of \(GTFSSchema.tableName(for: Record.file)) has more columns than SQLite accepts parameters (\(limit))")
            }
            return inserted
        }
    }

    /// Inserts a statement's rows one at a time, to find the ones SQLite refuses.
    private func insertOneByOne(
        _ chunk: UnsafeBufferPointer<Record>,
        offset: Int,
        _ db: Database,
        _ onConstraintViolation: ((Int, Record, DatabaseError) throws -> Void)?
    ) throws -> Int {
        let statement = try PreparedInsert(sql: ignoringSQL, parameterCount: columnCount, db: db)
        defer { statement.finish() }
        // One error describes every refusal of this table: building one per refused row would cost more
        // than the insert.
        var refusal: DatabaseError?
        var inserted = 0
        for index in chunk.indices {
            try execute(statement, UnsafeBufferPointer(rebasing: chunk[index ... index]), db)
            if db.changesCount == 1 {
                inserted += 1
                continue
            }
            let error = refusal ?? DatabaseError(
                resultCode: .SQLITE_CONSTRAINT, message: "UNIQUE constraint failed: the key of a row of \(table)", sql: ignoringSQL)
            refusal = error
            guard let onConstraintViolation else { throw error }
            try onConstraintViolation(offset + index, chunk[index], error)
        }
        return inserted
    }

    /// Binds `chunk` (exactly the statement's rows) and runs the statement.
    private func execute(_ prepared: PreparedInsert, _ chunk: UnsafeBufferPointer<Record>, _ db: Database) throws {
        let raw = prepared.statement.sqliteStatement
        // After a step, SQLite refuses new bindings until the statement is reset. The code returned here
        // is the previous run's, already reported.
        sqlite3_reset(raw)
        prepared.buffers.startExecution()
        var binder = SQLiteRowBinder(statement: raw, buffers: prepared.buffers)
        for index in chunk.indices {
            chunk[index].write(to: &binder)
        }
        guard binder.status == SQLITE_OK, Int(binder.index) == prepared.buffers.parameterCount else {
            throw DatabaseError(
                resultCode: binder.status == SQLITE_OK || binder.status == SQLITE_RANGE ? .SQLITE_MISUSE : ResultCode(rawValue: binder.status),
                message: "\(Record.self).write(to:) wrote \(Int(binder.index)) values for \(chunk.count) rows of \(columnCount) columns",
                sql: singleRowSQL)
        }
        try prepared.statement.execute()
    }
}

/// A cached statement ready for direct binding, with its buffers, for the length of one insert.
private struct PreparedInsert {
    let statement: Statement
    let buffers: BindingBuffers

    init(sql: String, parameterCount: Int, db: Database) throws {
        statement = try db.cachedStatement(sql: sql)
        buffers = BindingBuffers(parameterCount: parameterCount)
        // Clear a failure left by an earlier run (GRDB's own reset would report it again), then let GRDB
        // clear the bindings and count the parameters as bound: they are, by SQLiteRowBinder, right before
        // each execution. All parameters are NULL now, as the buffers' mask says.
        sqlite3_reset(statement.sqliteStatement)
        statement.setUncheckedArguments(StatementArguments())
        buffers.clearAll()
    }

    /// Drops the bindings, which point into the buffers, before the buffers go away.
    func finish() {
        sqlite3_reset(statement.sqliteStatement)
        sqlite3_clear_bindings(statement.sqliteStatement)
        withExtendedLifetime(buffers) {}
    }
}
