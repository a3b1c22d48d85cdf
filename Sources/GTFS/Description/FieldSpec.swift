/// One field of a GTFS file as the reference describes it: its column name, the type of its values, and
/// whether the column and a value must be present.
///
/// ```swift
/// StopTime.Field.stopSequence.spec   // FieldSpec("stop_sequence", .integer, .required)
/// ```
public struct FieldSpec: Sendable, Hashable {
    /// Whether a field must be present, and what an empty cell means.
    public enum Presence: Sendable, Hashable {
        /// The column must be in the header and every row must have a value.
        case required
        /// The column must be in the header; an empty cell reads as the field's default value.
        case requiredOrDefault
        /// The column must be in the header; an empty cell is meaningful (no value: `fare_attributes.transfers`
        /// empty means unlimited transfers).
        case requiredOrEmpty
        /// Required in some rows, forbidden or optional in others (rules the record checks when decoding).
        case conditionallyRequired
        /// The column may be absent; an empty cell is no value.
        case optional
        /// The column may be absent; an empty cell reads as the field's default value (`location_type` 0).
        case defaulted
    }

    /// The column name in the header (`stop_id`).
    public let name: String
    /// The type of the values.
    public let type: FieldType
    /// Whether the field must be present.
    public let presence: Presence

    /// Describes a field.
    ///
    /// - Parameters:
    ///   - name: the column name in the header.
    ///   - type: the type of the values.
    ///   - presence: whether the column and a value must be present; ``Presence-swift.enum/optional`` by default.
    public init(_ name: String, _ type: FieldType, _ presence: Presence = .optional) {
        self.name = name
        self.type = type
        self.presence = presence
    }

    /// Whether a file without this column is rejected.
    public var isRequiredColumn: Bool {
        switch presence {
        case .required, .requiredOrDefault, .requiredOrEmpty: true
        case .conditionallyRequired, .optional, .defaulted: false
        }
    }

    /// Whether a record may hold no value for the field (a store's column then allows NULL).
    public var isNullable: Bool {
        switch presence {
        case .required, .requiredOrDefault, .defaulted: false
        case .requiredOrEmpty, .conditionallyRequired, .optional: true
        }
    }
}
