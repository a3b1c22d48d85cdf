public import GTFS

/// Receives one record's values, left to right, in the store's representation.
///
/// ``SQLiteInsertable/bind(to:)`` writes a record into any `StoreRowWriter`: ``SQLiteRowBinder`` binds
/// the values to a prepared INSERT, `RowHasher` hashes them for the group digests of an incremental
/// import. A conforming type implements the four primitives; this extension maps every GTFS value type
/// onto them, once for all writers: strings as TEXT, times as INTEGER seconds, dates as INTEGER
/// `YYYYMMDD`, enums as INTEGER codes, booleans as 0/1, doubles as REAL, colors as TEXT `RRGGBB`,
/// currency amounts as TEXT with the exact decimal, `nil` as NULL.
///
/// ```swift
/// extension Level: SQLiteInsertable {
///     public func bind<Row: StoreRowWriter>(to row: inout Row) {
///         row.bind(levelID); row.bind(levelIndex); row.bind(levelName)
///     }
/// }
/// ```
public protocol StoreRowWriter {
    /// Writes NULL.
    mutating func bindNull()
    /// Writes TEXT: UTF-8 bytes, read only during the call.
    mutating func bindText(_ utf8: UnsafeBufferPointer<UInt8>)
    /// Writes an INTEGER.
    mutating func bind(_ value: Int)
    /// Writes a REAL.
    mutating func bind(_ value: Double)
}

extension StoreRowWriter {
    /// Writes TEXT.
    @inline(__always)
    public mutating func bind(_ value: String) {
        if let done: Void = value.utf8.withContiguousStorageIfAvailable({ bindText($0) }) { return done }
        var value = value
        value.withUTF8 { bindText($0) }
    }

    /// Writes an identifier as TEXT.
    @inline(__always)
    public mutating func bind(_ value: GTFSID) {
        value.withUTF8 { bindText($0) }
    }

    /// Writes an identifier as TEXT, or NULL for `nil`.
    @inline(__always)
    public mutating func bind(_ value: GTFSID?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Writes TEXT, or NULL for `nil`.
    @inline(__always)
    public mutating func bind(_ value: String?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Writes an INTEGER, or NULL for `nil`.
    @inline(__always)
    public mutating func bind(_ value: Int?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Writes a REAL, or NULL for `nil`.
    @inline(__always)
    public mutating func bind(_ value: Double?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Writes 1 for `true`, 0 for `false`.
    @inline(__always)
    public mutating func bind(_ value: Bool) {
        bind(value ? 1 : 0)
    }

    /// Writes a time as INTEGER seconds since the start of the service day (`25:03:00` is 90180).
    @inline(__always)
    public mutating func bind(_ value: GTFSTime) {
        bind(Int(value.seconds))
    }

    /// Writes a time as INTEGER seconds, or NULL for `nil`.
    @inline(__always)
    public mutating func bind(_ value: GTFSTime?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Writes a date as the INTEGER `YYYYMMDD` (``GTFS/GTFSDate/integerValue``).
    @inline(__always)
    public mutating func bind(_ value: GTFSDate) {
        bind(value.integerValue)
    }

    /// Writes a date as INTEGER `YYYYMMDD`, or NULL for `nil`.
    @inline(__always)
    public mutating func bind(_ value: GTFSDate?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Writes an enumeration as its INTEGER code (unknown codes as they were read).
    @inline(__always)
    public mutating func bind<E: GTFSEnum>(_ value: E) {
        bind(value.code)
    }

    /// Writes an enumeration's INTEGER code, or NULL for `nil`.
    @inline(__always)
    public mutating func bind<E: GTFSEnum>(_ value: E?) {
        if let value { bind(value.code) } else { bindNull() }
    }

    /// Writes a color as TEXT, six upper-case hex digits (`FFD800`).
    public mutating func bind(_ value: GTFSColor) {
        bind(value.description)
    }

    /// Writes a currency amount as TEXT holding the exact decimal (`2.50`), never a binary REAL.
    public mutating func bind(_ value: CurrencyAmount) {
        bind(value.description)
    }
}
