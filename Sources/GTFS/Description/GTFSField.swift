/// The fields of one GTFS file: an `Int`-backed enumeration with a case per column, in reference order, that
/// describes each one (``spec``) and names the table's key.
///
/// Every record type declares its fields this way (`Stop.Field`, `StopTime.Field`, …); the record decodes
/// itself by field (`row.requiredID(.stopID)`) and writes its values in field order. The CSV column map,
/// the parser's checks and a store's columns and keys all derive from these cases.
///
/// ```swift
/// public enum Field: Int, GTFSField {
///     case levelID, levelIndex, levelName
///     public var spec: FieldSpec {
///         switch self {
///         case .levelID: FieldSpec("level_id", .id, .required)
///         case .levelIndex: FieldSpec("level_index", .decimal, .required)
///         case .levelName: FieldSpec("level_name", .text)
///         }
///     }
///     public static let key: [Field] = [.levelID]
/// }
/// ```
public protocol GTFSField: RawRepresentable<Int>, CaseIterable, Sendable, Hashable where AllCases == [Self] {
    /// The field's name, type and presence.
    var spec: FieldSpec { get }
    /// The fields that identify a row among the file's rows, in order; empty when rows have no key
    /// (`feed_info.txt`). A key field that may be empty compares as the empty text.
    static var key: [Self] { get }
}
