import GRDBSQLite
import GTFS

/// Binds one record's values, left to right, to the positional parameters of a prepared INSERT.
///
/// ``TableInserter`` hands one to a record's `write(to:)` for every row; each value fills the next
/// parameter in its primitive form (``GTFS/FieldSink`` maps the GTFS value types onto the four primitives
/// this type binds).
///
/// Values are bound with `sqlite3_bind_*` straight into the statement, with no intermediate `DatabaseValue`
/// or `StatementArguments`; text is copied once into buffers SQLite reads in place, and a parameter that
/// already holds NULL is not bound again.
struct SQLiteRowBinder: FieldSink {
    /// The raw statement.
    private let statement: OpaquePointer
    /// Text copies and the NULL mask of the statement's parameters.
    private let buffers: BindingBuffers
    /// The number of parameters of the statement.
    private let parameterCount: Int32
    /// The last parameter bound (SQLite parameters are 1-based).
    private(set) var index: Int32 = 0
    /// The first SQLite error code returned by a bind, or `SQLITE_OK`.
    private(set) var status: Int32 = SQLITE_OK

    /// Starts binding at the first parameter of `statement`.
    init(statement: OpaquePointer, buffers: BindingBuffers) {
        self.statement = statement
        self.buffers = buffers
        self.parameterCount = Int32(buffers.parameterCount)
    }

    /// Moves to the next parameter, binds a non-NULL value there, and remembers the first failure.
    @inline(__always)
    private mutating func next(_ bind: (OpaquePointer, Int32) -> Int32) {
        index += 1
        guard index <= parameterCount else {
            status = SQLITE_RANGE
            return
        }
        let code = bind(statement, index)
        if code != SQLITE_OK && status == SQLITE_OK { status = code }
        let bit = Int(index &- 1)
        buffers.nonNull[bit &>> 6] |= 1 &<< UInt64(bit & 63)
    }

    /// Binds NULL.
    mutating func writeNull() {
        index += 1
        guard index <= parameterCount else {
            status = SQLITE_RANGE
            return
        }
        let bit = Int(index &- 1)
        let mask: UInt64 = 1 &<< UInt64(bit & 63)
        // Already NULL: nothing to do (a column the file lacks costs nothing after the first execution).
        guard buffers.nonNull[bit &>> 6] & mask != 0 else { return }
        let code = sqlite3_bind_null(statement, index)
        guard code == SQLITE_OK else {
            if status == SQLITE_OK { status = code }
            return
        }
        buffers.nonNull[bit &>> 6] &= ~mask
    }

    /// Binds TEXT.
    mutating func writeText(_ utf8: UnsafeBufferPointer<UInt8>) {
        let text = buffers.copy(utf8)
        // SQLITE_STATIC (a nil destructor): SQLite reads the copy in place; it lives until the next execution.
        next { sqlite3_bind_text64($0, $1, text, UInt64(utf8.count), nil, UInt8(SQLITE_UTF8)) }
    }

    /// Binds an INTEGER.
    mutating func write(_ value: Int) {
        next { sqlite3_bind_int64($0, $1, Int64(value)) }
    }

    /// Binds a REAL.
    mutating func write(_ value: Double) {
        next { sqlite3_bind_double($0, $1, value) }
    }
}
