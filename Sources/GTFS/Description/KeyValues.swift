/// The values of some fields of one record, usually its key, compared as a store compares a key: an absent
/// value equals the empty text (see ``GTFSField/key``). Errors about a repeated key quote them.
///
/// ```swift
/// let key = KeyValues(of: stopTime, fields: StopTime.Field.key.map(\.rawValue))
/// key.text    // ("608433", 0)
/// ```
package struct KeyValues: Hashable, Sendable {
    /// One value, in its primitive form (see ``FieldSink``) except times, which keep their type so that
    /// they are shown as the feed writes them.
    package enum Value: Hashable, Sendable {
        /// Text (an identifier, a name, a color); an absent value of any type is the empty text.
        case text(String)
        /// An integer, a date (`YYYYMMDD`), an enumeration's code or a flag.
        case integer(Int)
        /// A service time, in seconds.
        case time(Int)
        /// A decimal number.
        case real(Double)
    }

    /// The values, in the order of the fields asked for.
    package let values: [Value]

    /// The values given.
    init(values: [Value]) { self.values = values }

    /// The values as a tuple, `("608433", 0)`: text in double quotes (a quote in it doubled, as CSV does,
    /// and cut after ``GTFSError/quotedLength`` bytes), numbers and dates as they are, times as `HH:MM:SS`.
    /// Control characters are left as they are: ``GTFSError/description`` escapes them.
    package var text: String {
        "(" + values.map(\.text).joined(separator: ", ") + ")"
    }

    /// Receives a record's fields and keeps the wanted ones.
    struct Capture: FieldSink {
        let fields: [Int]
        /// Whether each wanted field is a time.
        let times: [Bool]
        var values: [Value]
        /// The position of the field written next.
        var position = 0

        /// Where the field written now goes among the wanted ones, if it is wanted.
        private mutating func slot() -> Int? {
            defer { position += 1 }
            return fields.firstIndex(of: position)
        }

        mutating func writeNull() {
            if let slot = slot() { values[slot] = .text("") }
        }

        mutating func writeText(_ utf8: UnsafeBufferPointer<UInt8>) {
            if let slot = slot() { values[slot] = .text(String(decoding: utf8, as: UTF8.self)) }
        }

        mutating func write(_ value: Int) {
            if let slot = slot() { values[slot] = times[slot] ? .time(value) : .integer(value) }
        }

        mutating func write(_ value: Double) {
            if let slot = slot() { values[slot] = .real(value) }
        }
    }
}

extension KeyValues.Value {
    /// The value as ``KeyValues/text`` shows it.
    var text: String {
        switch self {
        case .text(var text):
            let excerpt = text.withUTF8 { GTFSError.excerpt(UnsafeRawBufferPointer($0)) }
            return "\"" + excerpt.replacing("\"", with: "\"\"") + "\""
        case .integer(let value): return String(value)
        case .time(let seconds): return GTFSTime(seconds: Int32(clamping: seconds)).description
        case .real(let value): return String(value)
        }
    }
}
