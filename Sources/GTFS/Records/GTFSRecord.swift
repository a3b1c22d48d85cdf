/// A typed row of one GTFS file: every record type of the package conforms.
///
/// A conforming type lists its columns in ``columns`` and decodes itself from a ``Row``:
///
/// ```swift
/// public struct Level: GTFSRecord {
///     public static let file = GTFSFile.levels
///     public static let columns: [ColumnSpec] = [.required("level_id"), .required("level_index"), .optional("level_name")]
///     public var levelID: GTFSID, levelIndex: Double, levelName: String?
///     public init(row: Row) throws {
///         levelID = try row.requiredID(0)
///         levelIndex = try row.requiredDouble(1)
///         levelName = row.text(2)
///     }
/// }
/// ```
public protocol GTFSRecord: Sendable {
    /// The file the records come from.
    static var file: GTFSFile { get }
    /// The columns of the GTFS reference, in reference order; ``Row`` accessors take indexes into it.
    static var columns: [ColumnSpec] { get }
    /// Decodes a record from one CSV row.
    ///
    /// - Throws: ``GTFSError`` naming the file, line, column and text when a value is invalid or a
    ///   required one is missing.
    init(row: Row) throws
}

/// One column a record type reads: its header name and whether the header must contain it.
public struct ColumnSpec: Sendable, Hashable {
    /// The header name, e.g. `stop_id`.
    public let name: String
    /// Whether a file without this column is rejected (GTFS "Required").
    public let isRequired: Bool

    /// A column that must be in the header.
    public static func required(_ name: String) -> ColumnSpec { ColumnSpec(name: name, isRequired: true) }
    /// A column that may be absent (Optional and Conditionally Required fields).
    public static func optional(_ name: String) -> ColumnSpec { ColumnSpec(name: name, isRequired: false) }
}
