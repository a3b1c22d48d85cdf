public import GTFS

extension FareRule: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(fareID)
        row.bind(routeID)
        row.bind(originID)
        row.bind(destinationID)
        row.bind(containsID)
    }
}
