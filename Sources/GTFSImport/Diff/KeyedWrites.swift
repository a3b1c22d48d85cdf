import GRDB

/// The single-row statements that write a diff into a store table: a delete and an update by the whole
/// key, and an insert. The key's values are parameters `?1`…`?k`; column `i` of the table is `?(k+i+1)`
/// in the update and `?(i+1)` in the insert.
///
/// One statement per row, not `DELETE … IN (SELECT …)` or `INSERT OR REPLACE … SELECT`: a statement that
/// writes several rows and may fail halfway keeps a statement journal, the old content of every page it
/// changes, and a 1 % change of stop_times changes most of the table's pages. A single-row `INSERT`, or
/// a `DELETE` or `UPDATE` by the whole key, needs none.
struct KeyedWrites {
    let delete: RawStatement
    /// `nil` when every column is part of the key.
    let update: RawStatement?
    let insert: RawStatement
    /// The columns the update sets, as positions: every column but the plain key columns (a key
    /// expression's column, `ifnull(agency_id, '')`, may still change from NULL to '').
    let setColumns: [Int]

    /// Prepares the statements for `table` of `feed`.
    /// - Parameters:
    ///   - columns: the table's columns without `feed`.
    ///   - key: the key expressions.
    /// - Throws: `DatabaseError`.
    init(_ db: Database, table: String, feed: Int64, columns: [String], key: [String]) throws {
        let keyCondition = (["feed = \(feed)"] + key.enumerated().map { "\($1) = ?\($0 + 1)" }).joined(separator: " AND ")
        delete = try RawStatement(db, sql: "DELETE FROM main.\(table) WHERE \(keyCondition)", cached: false)
        setColumns = columns.indices.filter { !key.contains(columns[$0]) }
        let setList = setColumns.map { "\(columns[$0]) = ?\(key.count + $0 + 1)" }.joined(separator: ", ")
        update = setColumns.isEmpty
            ? nil : try RawStatement(db, sql: "UPDATE main.\(table) SET \(setList) WHERE \(keyCondition)", cached: false)
        insert = try RawStatement(
            db,
            sql: "INSERT INTO main.\(table) (feed, \(columns.joined(separator: ", "))) VALUES (\(feed), \(columns.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))",
            cached: false)
    }
}
