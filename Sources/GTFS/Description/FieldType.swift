/// The type of a field's values, as the GTFS reference defines them.
///
/// Each type has one primitive form, in which records write their values (see ``FieldSink``) and stores
/// keep them: identifiers and texts as text, integers, decimals as doubles, times as seconds since the
/// start of the service day, dates as the integer `YYYYMMDD`, enumerations as their integer code, booleans
/// as 0 or 1, colors as six hex digits, currency amounts as the exact decimal text.
public enum FieldType: String, Sendable, Hashable, CaseIterable {
    /// An identifier (`stop_id`, `trip_id`, …): text.
    case id
    /// Text: a name, a description, a URL, an email, a phone number, a time zone, a language or currency code.
    case text
    /// An integer (`stop_sequence`, `headway_secs`).
    case integer
    /// A decimal number (coordinates, distances).
    case decimal
    /// A service time (`25:03:00`): seconds since "noon minus 12 h" of the service day.
    case time
    /// A date (`20250602`): the integer `YYYYMMDD`.
    case date
    /// An enumeration (`route_type`, `pickup_type`): its integer code.
    case enumeration
    /// A `0`/`1` flag (the weekdays of `calendar.txt`).
    case boolean
    /// A color: six hex digits.
    case color
    /// A currency amount: the exact decimal text.
    case currencyAmount

    /// The primitive value the type writes.
    public var primitive: FieldPrimitive {
        switch self {
        case .id, .text, .color, .currencyAmount: .text
        case .integer, .time, .date, .enumeration, .boolean: .integer
        case .decimal: .real
        }
    }
}

/// The kinds of value a ``FieldSink`` receives.
public enum FieldPrimitive: String, Sendable, Hashable {
    /// UTF-8 text.
    case text
    /// A 64-bit integer.
    case integer
    /// A double.
    case real
}
