public import GTFS

extension Level: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(levelID)
        row.bind(levelIndex)
        row.bind(levelName)
    }
}
