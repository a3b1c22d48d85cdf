import GRDB
import GRDBSQLite

/// A prepared statement used through SQLite's C API: the one wrapper for the statements an import runs
/// hundreds of thousands of times (group lookups, the diff's key lists, the merge walk's reads), where
/// GRDB's argument and row handling would dominate.
///
/// Parameters keep their values across runs, so constant ones are bound once. Text is bound
/// `SQLITE_TRANSIENT` (SQLite copies it), so no binding outlives its `String`. Rows are read in place,
/// column by column.
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

    /// Prepares `sql` on `db` (kept in GRDB's statement cache unless `cached` is `false`) with every
    /// parameter NULL.
    /// - Throws: `DatabaseError`.
    init(_ db: Database, sql: String, cached: Bool = true) throws {
        self.db = db
        statement = cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        sqlite3_reset(statement.sqliteStatement)
        sqlite3_clear_bindings(statement.sqliteStatement)
    }

    /// The SQLite statement.
    var raw: OpaquePointer { statement.sqliteStatement }

    // MARK: Binding

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

    /// Binds the value of column `column` of `source`'s current row to parameter `index` (1-based), ending
    /// the current run first.
    func bind(_ index: Int32, valueOf column: Int32, in source: RawStatement) {
        sqlite3_reset(raw)
        sqlite3_bind_value(raw, index, sqlite3_column_value(source.raw, column))
    }

    // MARK: Running

    /// Runs the statement to its next row: `true` on a row (read it with the column accessors), `false` at
    /// the end.
    /// - Throws: `DatabaseError`.
    @inline(__always)
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

    /// Ends the current run (releases read locks, keeps the bindings).
    func reset() { sqlite3_reset(raw) }

    // MARK: Reading the current row

    /// The storage class of column `column` (`SQLITE_NULL`, `SQLITE_INTEGER`, `SQLITE_FLOAT`, `SQLITE_TEXT`, `SQLITE_BLOB`).
    @inline(__always)
    func type(_ column: Int32) -> Int32 { sqlite3_column_type(raw, column) }

    /// The INTEGER in column `column`, or `nil` when it is NULL.
    func int64(_ column: Int32) -> Int64? {
        type(column) == SQLITE_NULL ? nil : sqlite3_column_int64(raw, column)
    }

    /// Column `column` as an integer (0 for NULL).
    @inline(__always)
    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(raw, column) }

    /// Column `column` as a double (0 for NULL).
    @inline(__always)
    func double(_ column: Int32) -> Double { sqlite3_column_double(raw, column) }

    /// The bytes of a TEXT or BLOB column, read in place (valid until the next step).
    @inline(__always)
    func bytes(_ column: Int32, text: Bool) -> UnsafeRawBufferPointer {
        let pointer = text ? sqlite3_column_text(raw, column).map(UnsafeRawPointer.init) : sqlite3_column_blob(raw, column)
        return UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(raw, column)))
    }

    /// Column `column` as a value of its storage class (a BLOB, which the store never writes, as text).
    func value(_ column: Int32) -> RowChange.Value {
        switch type(column) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .integer(integer(column))
        case SQLITE_FLOAT: .real(double(column))
        default: .text(String(decoding: bytes(column, text: true), as: UTF8.self))
        }
    }

    /// SQLite's `SQLITE_TRANSIENT` destructor: copy the bound bytes.
    static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
