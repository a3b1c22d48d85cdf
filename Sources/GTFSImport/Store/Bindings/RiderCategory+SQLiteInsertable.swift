public import GTFS

extension RiderCategory: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(riderCategoryID)
        row.bind(riderCategoryName)
        row.bind(isDefaultFareCategory)
        row.bind(eligibilityURL)
    }
}
