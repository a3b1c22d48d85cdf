public import GTFS

extension StopArea: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(areaID)
        row.bind(stopID)
    }
}
