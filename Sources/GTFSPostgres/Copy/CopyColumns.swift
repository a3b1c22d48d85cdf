import GTFS

/// What both `COPY` encoders keep of a batch: the column a row is at, which columns are sent and which
/// held a value, the first value that did not fit, and the conversion of an integer to its column's type.
struct CopyColumns {
    /// The types of the columns after `feed`, in the record's field order.
    let types: [PostgresColumnType]
    /// For each column, whether the `COPY` names it (``PostgresTable/sentColumns(inHeader:)``); the server
    /// fills the others with NULL, without reading them.
    let sent: [Bool]
    /// The number of columns sent, `feed` included.
    let sentCount: Int
    /// The next column of the row being written.
    private var column = 0
    /// The first value that did not fit its column, kept until the batch is checked.
    private(set) var overflow: (column: Int, value: Int)?
    /// The first column that held a value although it is not sent, kept until the batch is checked.
    private(set) var unsent: Int?
    /// For each column, whether a row held a value in it (not NULL): a column without values needs no
    /// reference check.
    private(set) var filled: [Bool]

    /// An integer converted to its column's type.
    enum Converted {
        case bigint(Int)
        case integer(Int32)
        case smallint(Int16)
        case date(GTFSDate)
    }

    /// - Parameter sent: for each column, whether it is sent; `nil` for all.
    init(types: [PostgresColumnType], sent: [Bool]? = nil) {
        self.types = types
        self.sent = sent ?? Array(repeating: true, count: types.count)
        sentCount = self.sent.count { $0 } + 1
        filled = Array(repeating: false, count: types.count)
    }

    /// Starts a row at its first column.
    mutating func startRow() { column = 0 }

    /// Whether the current column is sent. When it is not, the encoder writes nothing for it and calls
    /// ``skip()`` for a NULL, ``drop()`` for a value.
    @inline(__always)
    var sendsCurrent: Bool { column >= sent.count || sent[column] }

    /// Moves past a value in a column that is not sent, recording it: it would be lost.
    mutating func drop() {
        if unsent == nil { unsent = column }
        column += 1
    }

    /// Moves past a NULL.
    @inline(__always)
    mutating func skip() { column += 1 }

    /// Moves past a value.
    @inline(__always)
    mutating func fill() {
        if column < filled.count { filled[column] = true }
        column += 1
    }

    /// `value` as the current column holds it, or `nil` when it does not fit (recorded in ``overflow``;
    /// the encoder writes NULL in its place and the batch is refused). Dates are `YYYYMMDD`, years 1 to 9999.
    mutating func convert(_ value: Int) -> Converted? {
        let converted: Converted?
        switch column < types.count ? types[column] : .bigint {
        case .bigint, .text, .doublePrecision: converted = .bigint(value)
        case .integer: converted = Int32(exactly: value).map { .integer($0) }
        case .smallint: converted = Int16(exactly: value).map { .smallint($0) }
        case .date:
            let date = GTFSDate(year: value / 10000, month: value / 100 % 100, day: value % 100)
            converted = date.flatMap { (1 ... 9999).contains($0.year) ? .date($0) : nil }
        }
        if converted == nil && overflow == nil { overflow = (column, value) }
        return converted
    }
}
