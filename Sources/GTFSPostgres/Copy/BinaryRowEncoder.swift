import GTFS

/// Writes records in PostgreSQL's binary `COPY` format: a field count, then each field as its length and
/// its bytes in network order (`-1` for NULL). Text goes as its UTF-8 bytes; integers, dates and reals are
/// converted to the column's type (``PostgresColumnType``) here, so the server parses nothing.
struct BinaryRowEncoder: CopyRowEncoder {
    /// The encoded rows since the last ``takeBytes()``.
    private let bytes = ByteWriter()
    private var columns: CopyColumns
    var overflow: (column: Int, value: Int)? { columns.overflow }
    var unsent: Int? { columns.unsent }
    var filled: [Bool] { columns.filled }

    /// The 19 bytes every binary COPY starts with: the signature, no flags, no header extension.
    static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    /// The field count `-1` that ends a binary COPY.
    static let trailer: [UInt8] = [0xFF, 0xFF]

    init(types: [PostgresColumnType], sent: [Bool]? = nil) {
        columns = CopyColumns(types: types, sent: sent)
    }

    /// Starts a row: its field count and the feed number.
    mutating func beginRow(feed: Int32) {
        append(UInt16(truncatingIfNeeded: columns.sentCount))
        append(UInt32(4))
        append(UInt32(bitPattern: feed))
        columns.startRow()
    }

    /// Hands over the encoded bytes and starts again empty.
    mutating func takeBytes() -> [UInt8] {
        bytes.take()
    }

    mutating func writeNull() {
        guard columns.sendsCurrent else { return columns.skip() }
        append(UInt32(bitPattern: -1))
        columns.skip()
    }

    mutating func writeText(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard columns.sendsCurrent else { return columns.drop() }
        append(UInt32(truncatingIfNeeded: utf8.count))
        bytes.append(utf8)
        columns.fill()
    }

    mutating func write(_ value: Int) {
        guard columns.sendsCurrent else { return columns.drop() }
        switch columns.convert(value) {
        case .bigint(let value):
            append(UInt32(8))
            append(UInt64(bitPattern: Int64(value)))
        case .integer(let value):
            append(UInt32(4))
            append(UInt32(bitPattern: value))
        case .smallint(let value):
            append(UInt32(2))
            append(UInt16(bitPattern: value))
        case .date(let date):
            // Days since 2000-01-01, PostgreSQL's epoch for dates.
            append(UInt32(4))
            append(UInt32(bitPattern: Int32(truncatingIfNeeded: date.daysSince1970 - Self.daysFrom1970To2000)))
        case nil:
            return writeNull()
        }
        columns.fill()
    }

    mutating func write(_ value: Double) {
        guard columns.sendsCurrent else { return columns.drop() }
        append(UInt32(8))
        append(value.bitPattern)
        columns.fill()
    }

    /// Days from 1970-01-01 to 2000-01-01.
    private static let daysFrom1970To2000 = 10957

    @inline(__always)
    private func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append($0.assumingMemoryBound(to: UInt8.self)) }
    }
}
