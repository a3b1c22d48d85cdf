/// A typed row of one GTFS file: every record type of the package conforms.
///
/// A conforming type describes its file's fields in ``Field``, decodes itself from a ``CSVRow`` by field,
/// and writes its values back in field order; the column map, a store's columns and keys, and the checks
/// that decoding and writing agree all derive from ``Field``:
///
/// ```swift
/// public struct Level: GTFSRecord {
///     public static let file = GTFSFile.levels
///     public enum Field: Int, GTFSField {
///         case levelID, levelIndex, levelName
///         public var spec: FieldSpec {
///             switch self {
///             case .levelID: FieldSpec("level_id", .id, .required)
///             case .levelIndex: FieldSpec("level_index", .decimal, .required)
///             case .levelName: FieldSpec("level_name", .text)
///             }
///         }
///         public static let key: [Field] = [.levelID]
///     }
///     public var levelID: GTFSID, levelIndex: Double, levelName: String?
///     public init(row: CSVRow<Field>) throws {
///         levelID = try row.requiredID(.levelID)
///         levelIndex = try row.requiredDouble(.levelIndex)
///         levelName = row.text(.levelName)
///     }
///     public func write<Sink: FieldSink>(to sink: inout Sink) {
///         sink.write(levelID); sink.write(levelIndex); sink.write(levelName)
///     }
/// }
/// ```
public protocol GTFSRecord: Sendable {
    /// The file's fields, in reference order.
    associatedtype Field: GTFSField
    /// The file the records come from.
    static var file: GTFSFile { get }
    /// Decodes a record from one CSV row.
    ///
    /// - Parameter row: the row, read by ``Field``; valid only during the call.
    /// - Throws: ``GTFSError`` naming the file, line, column and text when a value is invalid or a
    ///   required one is missing.
    init(row: CSVRow<Field>) throws
    /// Writes exactly one value per field, in ``Field`` order, in their primitive form.
    ///
    /// - Parameter sink: receives the values.
    func write<Sink: FieldSink>(to sink: inout Sink)
}

extension GTFSRecord {
    /// The description of the record's file: its fields and key.
    public static var table: TableDescription { TableDescription(Self.self) }
}
