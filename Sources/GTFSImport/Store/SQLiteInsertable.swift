public import GTFS

/// A record the store can insert: its table, its columns, and a method that binds its values in column order.
///
/// Every record type of the GTFS reference conforms (see `Store/Bindings/`). The table is named like the
/// file and the columns are the GTFS field names in reference order, so the defaults come from
/// ``GTFS/GTFSRecord``; a conforming type only writes ``bind(to:)``:
///
/// ```swift
/// extension Level: SQLiteInsertable {
///     public func bind<Row: StoreRowWriter>(to row: inout Row) {
///         row.bind(levelID); row.bind(levelIndex); row.bind(levelName)
///     }
/// }
/// ```
public protocol SQLiteInsertable: GTFSRecord {
    /// The table the records go to.
    static var tableName: String { get }
    /// The table's columns, in the order ``bind(to:)`` binds them.
    static var columnNames: [String] { get }
    /// Writes exactly one value per column of ``columnNames``, in that order: to a prepared INSERT
    /// (``SQLiteRowBinder``) or to a hash (`RowHasher`).
    func bind<Row: StoreRowWriter>(to row: inout Row)
}

extension SQLiteInsertable {
    /// The file's name without `.txt` (`stop_times`).
    public static var tableName: String { GTFSSchema.tableName(for: file) }
    /// The GTFS field names of ``GTFS/GTFSRecord/columns``, in reference order.
    public static var columnNames: [String] { columns.map(\.name) }
}
