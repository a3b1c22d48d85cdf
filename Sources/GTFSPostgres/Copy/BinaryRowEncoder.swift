import GTFS

/// Writes records in PostgreSQL's binary `COPY` format: a field count, then each field as its length and
/// its bytes in network order (`-1` for NULL). Text goes as its UTF-8 bytes; integers, dates and reals are
/// converted to the column's type (``PostgresColumnType``) here, so the server parses nothing.
struct BinaryRowEncoder: CopyRowEncoder {
    /// The encoded rows since the last ``takeBytes()``.
    private let bytes = ByteWriter()
    /// The types of the columns after `feed`, in the record's field order.
    let types: [PostgresColumnType]
    /// The next column of the row being written.
    private var column = 0
    /// The first value that did not fit its column, kept until the batch is checked.
    private(set) var overflow: (column: Int, value: Int)?
    /// For each column, whether a row held a value in it (not NULL): a column without values needs no
    /// reference check.
    private(set) var filled: [Bool]

    /// The 19 bytes every binary COPY starts with: the signature, no flags, no header extension.
    static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    /// The field count `-1` that ends a binary COPY.
    static let trailer: [UInt8] = [0xFF, 0xFF]

    init(types: [PostgresColumnType]) {
        self.types = types
        filled = Array(repeating: false, count: types.count)
    }

    /// Starts a row: its field count and the feed number.
    mutating func beginRow(feed: Int32) {
        append(UInt16(types.count + 1))
        append(UInt32(4))
        append(UInt32(bitPattern: feed))
        column = 0
    }

    /// Hands over the encoded bytes and starts again empty.
    mutating func takeBytes() -> [UInt8] {
        bytes.take()
    }

    mutating func writeNull() {
        append(UInt32(bitPattern: -1))
        column += 1
    }

    mutating func writeText(_ utf8: UnsafeBufferPointer<UInt8>) {
        append(UInt32(truncatingIfNeeded: utf8.count))
        bytes.append(utf8)
        fill()
    }

    mutating func write(_ value: Int) {
        let type = column < types.count ? types[column] : .bigint
        switch type {
        case .bigint, .text, .doublePrecision:
            append(UInt32(8))
            append(UInt64(bitPattern: Int64(value)))
        case .integer:
            guard let narrow = Int32(exactly: value) else { return fail(value) }
            append(UInt32(4))
            append(UInt32(bitPattern: narrow))
        case .smallint:
            guard let narrow = Int16(exactly: value) else { return fail(value) }
            append(UInt32(2))
            append(UInt16(bitPattern: narrow))
        case .date:
            // YYYYMMDD to days since 2000-01-01, PostgreSQL's epoch for dates.
            guard let date = GTFSDate(year: value / 10000, month: value / 100 % 100, day: value % 100) else { return fail(value) }
            append(UInt32(4))
            append(UInt32(bitPattern: Int32(truncatingIfNeeded: date.daysSince1970 - Self.daysFrom1970To2000)))
        }
        fill()
    }

    mutating func write(_ value: Double) {
        append(UInt32(8))
        append(value.bitPattern)
        fill()
    }

    /// Moves to the next column, the current one holding a value.
    @inline(__always)
    private mutating func fill() {
        if column < filled.count { filled[column] = true }
        column += 1
    }

    /// Days from 1970-01-01 to 2000-01-01.
    private static let daysFrom1970To2000 = 10957

    /// Records a value its column cannot hold, and writes NULL in its place (the batch is refused).
    private mutating func fail(_ value: Int) {
        if overflow == nil { overflow = (column, value) }
        writeNull()
    }

    @inline(__always)
    private func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append($0.assumingMemoryBound(to: UInt8.self)) }
    }
}
