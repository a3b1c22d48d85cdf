public import GTFS

/// The PostgreSQL type of a GTFS field: what queries want there, where SQLite has only three.
///
/// | GTFS field type | PostgreSQL | SQLite store |
/// |---|---|---|
/// | id | `text COLLATE "C"` | `TEXT` |
/// | text, color, currency amount | `text` | `TEXT` |
/// | integer | `bigint` | `INTEGER` |
/// | time | `integer` (seconds since noon minus 12 hours) | `INTEGER` |
/// | date | `date` | `INTEGER` (`YYYYMMDD`) |
/// | enumeration, boolean | `smallint` | `INTEGER` |
/// | decimal | `double precision` | `REAL` |
public enum PostgresColumnType: String, Sendable, Hashable {
    case text
    case bigint
    case integer
    case smallint
    case date
    case doublePrecision = "double precision"

    /// The type that holds a field of `type`.
    /// - Parameter type: the field's GTFS type.
    public init(_ type: FieldType) {
        switch type {
        case .id, .text, .color, .currencyAmount: self = .text
        case .integer: self = .bigint
        case .time: self = .integer
        case .date: self = .date
        case .enumeration, .boolean: self = .smallint
        case .decimal: self = .doublePrecision
        }
    }

    /// The type's name in SQL.
    public var sql: String { rawValue }
}
