/// Receives one record's values, field by field in ``GTFSRecord/Field`` order, in their primitive form
/// (see ``FieldType``).
///
/// A record's ``GTFSRecord/write(to:)`` writes into any sink: a store binding the values to a prepared
/// insert, a hasher computing a digest of the row, a CSV writer. A sink implements the four primitives;
/// this extension maps every GTFS value type onto them, once for all sinks: identifiers and strings as text,
/// times as integer seconds, dates as the integer `YYYYMMDD`, enumerations as their codes, booleans as 0 or 1,
/// colors as six hex digits, currency amounts as the exact decimal text, `nil` as null.
///
/// ```swift
/// struct Counter: FieldSink {
///     var nulls = 0, values = 0
///     mutating func writeNull() { nulls += 1 }
///     mutating func writeText(_ utf8: UnsafeBufferPointer<UInt8>) { values += 1 }
///     mutating func write(_ value: Int) { values += 1 }
///     mutating func write(_ value: Double) { values += 1 }
/// }
/// var counter = Counter()
/// stop.write(to: &counter)
/// ```
public protocol FieldSink {
    /// Receives no value.
    mutating func writeNull()
    /// Receives text: UTF-8 bytes, readable only during the call.
    /// - Parameter utf8: the UTF-8 bytes of the text.
    mutating func writeText(_ utf8: UnsafeBufferPointer<UInt8>)
    /// Receives an integer.
    /// - Parameter value: the integer.
    mutating func write(_ value: Int)
    /// Receives a double.
    /// - Parameter value: the number.
    mutating func write(_ value: Double)
}

extension FieldSink {
    /// Writes text.
    /// - Parameter value: the text.
    @inline(__always)
    public mutating func write(_ value: String) {
        if let done: Void = value.utf8.withContiguousStorageIfAvailable({ writeText($0) }) { return done }
        var value = value
        value.withUTF8 { writeText($0) }
    }

    /// Writes an identifier as text.
    /// - Parameter value: the identifier.
    @inline(__always)
    public mutating func write(_ value: GTFSID) {
        value.withUTF8 { writeText($0) }
    }

    /// Writes an identifier as text, or null for `nil`.
    /// - Parameter value: the identifier, or `nil`.
    @inline(__always)
    public mutating func write(_ value: GTFSID?) {
        if let value { write(value) } else { writeNull() }
    }

    /// Writes text, or null for `nil`.
    /// - Parameter value: the text, or `nil`.
    @inline(__always)
    public mutating func write(_ value: String?) {
        if let value { write(value) } else { writeNull() }
    }

    /// Writes an integer, or null for `nil`.
    /// - Parameter value: the integer, or `nil`.
    @inline(__always)
    public mutating func write(_ value: Int?) {
        if let value { write(value) } else { writeNull() }
    }

    /// Writes a double, or null for `nil`.
    /// - Parameter value: the number, or `nil`.
    @inline(__always)
    public mutating func write(_ value: Double?) {
        if let value { write(value) } else { writeNull() }
    }

    /// Writes 1 for `true`, 0 for `false`.
    /// - Parameter value: the flag.
    @inline(__always)
    public mutating func write(_ value: Bool) {
        write(value ? 1 : 0)
    }

    /// Writes a time as integer seconds since the start of the service day (`25:03:00` is 90180).
    /// - Parameter value: the time.
    @inline(__always)
    public mutating func write(_ value: GTFSTime) {
        write(Int(value.seconds))
    }

    /// Writes a time as integer seconds, or null for `nil`.
    /// - Parameter value: the time, or `nil`.
    @inline(__always)
    public mutating func write(_ value: GTFSTime?) {
        if let value { write(value) } else { writeNull() }
    }

    /// Writes a date as the integer `YYYYMMDD` (``GTFSDate/integerValue``).
    /// - Parameter value: the date.
    @inline(__always)
    public mutating func write(_ value: GTFSDate) {
        write(value.integerValue)
    }

    /// Writes a date as the integer `YYYYMMDD`, or null for `nil`.
    /// - Parameter value: the date, or `nil`.
    @inline(__always)
    public mutating func write(_ value: GTFSDate?) {
        if let value { write(value) } else { writeNull() }
    }

    /// Writes an enumeration as its integer code (unknown codes as they were read).
    /// - Parameter value: the enumeration value.
    @inline(__always)
    public mutating func write<E: GTFSEnum>(_ value: E) {
        write(value.code)
    }

    /// Writes an enumeration's integer code, or null for `nil`.
    /// - Parameter value: the enumeration value, or `nil`.
    @inline(__always)
    public mutating func write<E: GTFSEnum>(_ value: E?) {
        if let value { write(value.code) } else { writeNull() }
    }

    /// Writes a color as six upper-case hex digits (`FFD800`).
    /// - Parameter value: the color.
    public mutating func write(_ value: GTFSColor) {
        write(value.description)
    }

    /// Writes a currency amount as the exact decimal text (`2.50`), never a binary double.
    /// - Parameter value: the amount.
    public mutating func write(_ value: CurrencyAmount) {
        write(value.description)
    }
}
