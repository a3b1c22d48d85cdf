public import GTFS

extension LocationGroup: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(locationGroupID)
        row.bind(locationGroupName)
    }
}
