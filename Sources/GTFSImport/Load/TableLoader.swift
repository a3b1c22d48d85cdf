import GRDB
import GTFS

/// How the rows of one table reach the store; an import uses one loader per table, chosen by the writer
/// (see ``ImportWriter``):
/// - ``StoreLoader``: straight into the store, as a full import does (also, in an incremental import, a
///   table the stored feed has no rows in);
/// - ``DiffLoader``: into a staging copy, compared with the stored rows by key and applied as a diff, or,
///   for a grouped table whose groups the store knows, only the groups whose digest changed.
protocol TableLoader {
    /// Stores one batch of the table, with its group runs when the table is grouped.
    mutating func store(_ batch: ParsedBatch, _ db: Database, _ writer: inout WriterState) throws

    /// Ends the table after its last batch.
    /// - Returns: what the table's diff changed; `nil` when the rows were loaded, not compared.
    mutating func finish(_ db: Database, _ writer: inout WriterState) throws -> TableChanges?
}
