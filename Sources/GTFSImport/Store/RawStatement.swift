import GRDB
import GRDBSQLite

/// A prepared statement run through SQLite's C API, for the statements an import runs per group or
/// per key (hundreds of thousands of times), where GRDB's argument handling would dominate.
///
/// Text is bound `SQLITE_TRANSIENT` (SQLite copies it), so no binding outlives its `String`.
struct RawStatement {
    private let statement: Statement
    private let db: Database

    /// Prepares `sql` on `db` (kept in GRDB's statement cache).
    /// - Throws: `DatabaseError`.
    init(_ db: Database, sql: String) throws {
        self.db = db
        statement = try db.cachedStatement(sql: sql)
        sqlite3_reset(statement.sqliteStatement)
        sqlite3_clear_bindings(statement.sqliteStatement)
    }

    private var raw: OpaquePointer { statement.sqliteStatement }

    /// Binds the parameters (1-based, in order): `String`, `Int64`, `Int` or `nil`, after a reset.
    func bind(_ values: [(any Sendable)?]) {
        sqlite3_reset(raw)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case let text as String:
                sqlite3_bind_text(raw, index, text, -1, Self.transient)
            case let number as Int64:
                sqlite3_bind_int64(raw, index, number)
            case let number as Int:
                sqlite3_bind_int64(raw, index, Int64(number))
            default:
                sqlite3_bind_null(raw, index)
            }
        }
    }

    /// Runs the statement to its first row: `true` on a row (read it with the column accessors), `false`
    /// when there is none.
    /// - Throws: `DatabaseError`.
    func step() throws -> Bool {
        switch sqlite3_step(raw) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: statement.sql)
        }
    }

    /// Binds `values` and runs the statement to its end.
    /// - Returns: the rows it changed.
    /// - Throws: `DatabaseError`.
    @discardableResult
    func execute(_ values: [(any Sendable)?]) throws -> Int {
        bind(values)
        while try step() {}
        return Int(sqlite3_changes(db.sqliteConnection))
    }

    /// The INTEGER in column `column` of the current row, or `nil` when it is NULL.
    func int64(_ column: Int32) -> Int64? {
        sqlite3_column_type(raw, column) == SQLITE_NULL ? nil : sqlite3_column_int64(raw, column)
    }

    /// Ends the current run (releases read locks, keeps the bindings).
    func reset() { sqlite3_reset(raw) }

    /// SQLite's `SQLITE_TRANSIENT` destructor: copy the bound bytes.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
