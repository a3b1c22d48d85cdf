public import GTFS

/// One row an import inserted, updated or deleted, named by its table, feed and key.
///
/// An incremental import reports the rows that differ between the stored version of the feed and the
/// new one; a full import, every stored row it removes and every row it stores. Ask for them with
/// ``ImportOptions/changeHandler``:
///
/// ```swift
/// var options = ImportOptions()
/// options.changeHandler = { change in print(change) }   // stop_times ("T1", 3): update departure_time 28800 → 28860
/// ```
///
/// Values are as the store holds them: times in seconds (`25:03:00` is 90180), dates as the integer
/// `YYYYMMDD`, enumerations as their codes.
public struct RowChange: Sendable, Hashable, CustomStringConvertible {
    /// What happened to the row.
    public enum Kind: String, Sendable, Hashable {
        /// A row whose key the store did not hold.
        case insert
        /// A row whose key the store held with other values.
        case update
        /// A stored row whose key the new version lacks.
        case delete
    }

    /// A stored value.
    public enum Value: Sendable, Hashable, CustomStringConvertible {
        /// No value (an empty field).
        case null
        /// An INTEGER: a number, a code, a time in seconds, a date as `YYYYMMDD`.
        case integer(Int64)
        /// A REAL: a coordinate or a distance.
        case real(Double)
        /// TEXT: an identifier, a name, a color.
        case text(String)

        /// The value as SQL writes it: `NULL`, `90180`, `"S+U Alexanderplatz"` (control characters escaped).
        public var description: String {
            switch self {
            case .null: "NULL"
            case .integer(let value): String(value)
            case .real(let value): String(value)
            case .text(let value): "\"" + GTFSError.displayable(value) + "\""
            }
        }
    }

    /// A column and its value.
    public struct Field: Sendable, Hashable {
        /// The column's name (`stop_id`).
        public let column: String
        /// Its value.
        public let value: Value

        /// A column and its value.
        ///
        /// - Parameters:
        ///   - column: the column's name.
        ///   - value: its value.
        public init(column: String, value: Value) {
            self.column = column
            self.value = value
        }
    }

    /// A column an update changed, with its old and new value.
    public struct Update: Sendable, Hashable {
        /// The column's name (`departure_time`).
        public let column: String
        /// The stored value.
        public let old: Value
        /// The new version's value.
        public let new: Value

        /// A column's old and new value.
        ///
        /// - Parameters:
        ///   - column: the column's name.
        ///   - old: the stored value.
        ///   - new: the new version's value.
        public init(column: String, old: Value, new: Value) {
            self.column = column
            self.old = old
            self.new = new
        }
    }

    /// What happened to the row.
    public let kind: Kind
    /// The file whose table holds the row.
    public let file: GTFSFile
    /// The feed's name.
    public let feed: String
    /// The row's key columns and values (`trip_id`, `stop_sequence`); every column for a table without a
    /// key (`feed_info`, `attributions`).
    public let key: [Field]
    /// For an update, the columns that changed; empty otherwise.
    public let updates: [Update]

    /// A change of the row `key` of `file`'s table in `feed`.
    ///
    /// - Parameters:
    ///   - kind: insert, update or delete.
    ///   - file: the file whose table holds the row.
    ///   - feed: the feed's name.
    ///   - key: the row's key columns and values.
    ///   - updates: for an update, the columns that changed.
    public init(kind: Kind, file: GTFSFile, feed: String, key: [Field], updates: [Update] = []) {
        self.kind = kind
        self.file = file
        self.feed = feed
        self.key = key
        self.updates = updates
    }

    /// `stop_times ("T1", 3): update departure_time 28800 → 28860`.
    public var description: String {
        var text = "\(file.rawValue) (\(key.map(\.value.description).joined(separator: ", "))): \(kind.rawValue)"
        for update in updates { text += " \(update.column) \(update.old) → \(update.new)" }
        return text
    }
}
