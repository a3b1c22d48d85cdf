import GTFS

/// Writes records in PostgreSQL's text `COPY` format: fields separated by tabs, rows ended by newlines,
/// `\N` for NULL, and backslash, tab, newline and carriage return escaped in text. Integers, dates and reals
/// are converted to the column's type (``PostgresColumnType``) here and written as the server reads them.
/// Used for tables without `double precision` columns (``CopyFormat``).
struct TextRowEncoder: CopyRowEncoder {
    /// The encoded rows since the last ``takeBytes()``.
    private let bytes = ByteWriter()
    private var columns: CopyColumns
    var overflow: (column: Int, value: Int)? { columns.overflow }
    var unsent: Int? { columns.unsent }
    var filled: [Bool] { columns.filled }

    init(types: [PostgresColumnType], sent: [Bool]? = nil) {
        columns = CopyColumns(types: types, sent: sent)
    }

    /// Starts a row with the feed number (ending the row before, if any).
    mutating func beginRow(feed: Int32) {
        if bytes.count > 0 { bytes.append(UInt8(ascii: "\n")) }
        appendDigits(Int(feed))
        columns.startRow()
    }

    /// Hands over the encoded rows, each ended by a newline, and starts again empty.
    mutating func takeBytes() -> [UInt8] {
        if bytes.count > 0 { bytes.append(UInt8(ascii: "\n")) }
        return bytes.take()
    }

    mutating func writeNull() {
        guard columns.sendsCurrent else { return columns.skip() }
        bytes.reserve(3)
        bytes.put(UInt8(ascii: "\t"), at: 0)
        bytes.put(UInt8(ascii: "\\"), at: 1)
        bytes.put(UInt8(ascii: "N"), at: 2)
        bytes.advance(by: 3)
        columns.skip()
    }

    mutating func writeText(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard columns.sendsCurrent else { return columns.drop() }
        bytes.append(UInt8(ascii: "\t"))
        var start = 0
        for index in utf8.indices {
            let escaped: UInt8
            switch utf8[index] {
            case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
            case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
            case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): escaped = UInt8(ascii: "r")
            default: continue
            }
            bytes.append(UnsafeBufferPointer(rebasing: utf8[start ..< index]))
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(escaped)
            start = index + 1
        }
        bytes.append(UnsafeBufferPointer(rebasing: utf8[start...]))
        columns.fill()
    }

    mutating func write(_ value: Int) {
        guard columns.sendsCurrent else { return columns.drop() }
        guard let converted = columns.convert(value) else { return writeNull() }
        bytes.append(UInt8(ascii: "\t"))
        switch converted {
        case .bigint(let value): appendDigits(value)
        case .integer(let value): appendDigits(Int(value))
        case .smallint(let value): appendDigits(Int(value))
        case .date(let date):
            // ISO 8601, which the server reads whatever its DateStyle.
            appendFixed(date.year, width: 4)
            bytes.append(UInt8(ascii: "-"))
            appendFixed(date.month, width: 2)
            bytes.append(UInt8(ascii: "-"))
            appendFixed(date.day, width: 2)
        }
        columns.fill()
    }

    mutating func write(_ value: Double) {
        guard columns.sendsCurrent else { return columns.drop() }
        bytes.append(UInt8(ascii: "\t"))
        // Swift's description is the shortest text that reads back as the same double.
        var text = value.description
        text.withUTF8 { bytes.append($0) }
        columns.fill()
    }

    /// `value` in decimal.
    @inline(__always)
    private func appendDigits(_ value: Int) {
        // A sign and at most 19 digits.
        bytes.reserve(20)
        var magnitude = value.magnitude
        var digits = 0
        var probe = magnitude
        repeat {
            digits += 1
            probe /= 10
        } while probe > 0
        let sign = value < 0 ? 1 : 0
        if sign == 1 { bytes.put(UInt8(ascii: "-"), at: 0) }
        var index = sign + digits
        repeat {
            index -= 1
            bytes.put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10), at: index)
            magnitude /= 10
        } while magnitude > 0
        bytes.advance(by: sign + digits)
    }

    /// `value` (0 or more) in decimal with leading zeros to `width` digits.
    private func appendFixed(_ value: Int, width: Int) {
        bytes.reserve(width)
        var rest = value
        for index in stride(from: width - 1, through: 0, by: -1) {
            bytes.put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10), at: index)
            rest /= 10
        }
        bytes.advance(by: width)
    }
}
