public import GTFS
import GRDBSQLite

/// Binds one record's values, left to right, to the positional parameters of a prepared INSERT.
///
/// ``TableInserter`` hands one to ``SQLiteInsertable/bind(to:)`` for every row; each `bind` call fills the
/// next parameter with the store's representation of the value: strings as TEXT, times as INTEGER
/// seconds, dates as INTEGER `YYYYMMDD`, enums as INTEGER codes, booleans as 0/1, doubles as REAL, colors
/// as TEXT `RRGGBB`, currency amounts as TEXT with the exact decimal, `nil` as NULL.
///
/// ```swift
/// extension Level: SQLiteInsertable {
///     public func bind(to row: inout SQLiteRowBinder) {
///         row.bind(levelID); row.bind(levelIndex); row.bind(levelName)
///     }
/// }
/// ```
///
/// Values are bound with `sqlite3_bind_*` straight into the statement, with no intermediate `DatabaseValue`
/// or `StatementArguments`; text is copied once into buffers SQLite reads in place, and a parameter that
/// already holds NULL is not bound again.
public struct SQLiteRowBinder {
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
    public mutating func bindNull() {
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
    public mutating func bind(_ value: String) {
        let buffers = self.buffers
        let text =
            value.utf8.withContiguousStorageIfAvailable { (buffer: UnsafeBufferPointer<UInt8>) in
                (buffers.copy(buffer), buffer.count)
            } ?? {
                var value = value
                return value.withUTF8 { (buffer: UnsafeBufferPointer<UInt8>) in (buffers.copy(buffer), buffer.count) }
            }()
        // SQLITE_STATIC (a nil destructor): SQLite reads the copy in place; it lives until the next execution.
        next { sqlite3_bind_text64($0, $1, text.0, UInt64(text.1), nil, UInt8(SQLITE_UTF8)) }
    }

    /// Binds TEXT, or NULL for `nil`.
    public mutating func bind(_ value: String?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Binds an INTEGER.
    public mutating func bind(_ value: Int) {
        next { sqlite3_bind_int64($0, $1, Int64(value)) }
    }

    /// Binds an INTEGER, or NULL for `nil`.
    public mutating func bind(_ value: Int?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Binds a REAL.
    public mutating func bind(_ value: Double) {
        next { sqlite3_bind_double($0, $1, value) }
    }

    /// Binds a REAL, or NULL for `nil`.
    public mutating func bind(_ value: Double?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Binds 1 for `true`, 0 for `false`.
    public mutating func bind(_ value: Bool) {
        bind(value ? 1 : 0)
    }

    /// Binds a time as INTEGER seconds since the start of the service day (`25:03:00` is 90180).
    public mutating func bind(_ value: GTFSTime) {
        bind(Int(value.seconds))
    }

    /// Binds a time as INTEGER seconds, or NULL for `nil`.
    public mutating func bind(_ value: GTFSTime?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Binds a date as the INTEGER `YYYYMMDD` (``GTFS/GTFSDate/integerValue``).
    public mutating func bind(_ value: GTFSDate) {
        bind(value.integerValue)
    }

    /// Binds a date as INTEGER `YYYYMMDD`, or NULL for `nil`.
    public mutating func bind(_ value: GTFSDate?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Binds an enumeration as its INTEGER code (unknown codes as they were read).
    public mutating func bind<E: GTFSEnum>(_ value: E) {
        bind(value.code)
    }

    /// Binds an enumeration's INTEGER code, or NULL for `nil`.
    public mutating func bind<E: GTFSEnum>(_ value: E?) {
        if let value { bind(value.code) } else { bindNull() }
    }

    /// Binds a color as TEXT, six upper-case hex digits (`FFD800`).
    public mutating func bind(_ value: GTFSColor) {
        bind(value.description)
    }

    /// Binds a currency amount as TEXT holding the exact decimal (`2.50`), never a binary REAL.
    public mutating func bind(_ value: CurrencyAmount) {
        bind(value.description)
    }
}
