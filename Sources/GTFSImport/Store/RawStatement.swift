import GRDB
import GRDBSQLite

/// A prepared statement run through SQLite's C API, for the statements an import runs once per group
/// (hundreds of thousands of times), where GRDB's argument handling would dominate.
///
/// Parameters keep their values across runs, so constant ones are bound once. Text is bound
/// `SQLITE_TRANSIENT` (SQLite copies it), so no binding outlives its `String`.
///
/// ```swift
/// let lookup = try RawStatement(db, sql: "SELECT rows FROM feed_groups WHERE feed = ? AND table_name = ? AND group_key = ?")
/// lookup.bind(1, feed); lookup.bind(2, "stop_times")
/// lookup.bind(3, "T1")
/// let rows = try lookup.step() ? lookup.int64(0) : nil
/// ```
struct RawStatement {
    private let statement: Statement
    private let db: Database

    /// Prepares `sql` on `db` (kept in GRDB's statement cache) with every parameter NULL.
    /// - Throws: `DatabaseError`.
    init(_ db: Database, sql: String) throws {
        self.db = db
        statement = try db.cachedStatement(sql: sql)
        sqlite3_reset(statement.sqliteStatement)
        sqlite3_clear_bindings(statement.sqliteStatement)
    }

    private var raw: OpaquePointer { statement.sqliteStatement }

    /// Binds TEXT to parameter `index` (1-based), ending the current run first.
    func bind(_ index: Int32, _ text: String) {
        sqlite3_reset(raw)
        var text = text
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                // A nil pointer would bind NULL: the empty string gets a pointer of its own.
                if let base = chars.baseAddress, !chars.isEmpty {
                    _ = sqlite3_bind_text(raw, index, base, Int32(chars.count), Self.transient)
                } else {
                    _ = sqlite3_bind_text(raw, index, "", 0, Self.transient)
                }
            }
        }
    }

    /// Binds an INTEGER, or NULL for `nil`, to parameter `index` (1-based), ending the current run first.
    func bind(_ index: Int32, _ number: Int64?) {
        sqlite3_reset(raw)
        if let number { sqlite3_bind_int64(raw, index, number) } else { sqlite3_bind_null(raw, index) }
    }

    /// Runs the statement to its next row: `true` on a row (read it with ``int64(_:)``), `false` at the end.
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

    /// Runs the statement to its end with the bound parameters.
    /// - Returns: the rows it changed.
    /// - Throws: `DatabaseError`.
    @discardableResult
    func execute() throws -> Int {
        sqlite3_reset(raw)
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
