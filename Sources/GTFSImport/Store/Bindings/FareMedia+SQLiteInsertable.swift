public import GTFS

extension FareMedia: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(fareMediaID)
        row.bind(fareMediaName)
        row.bind(fareMediaType)
    }
}
