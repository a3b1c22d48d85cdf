public import GTFS

extension FareProduct: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(fareProductID)
        row.bind(fareProductName)
        row.bind(riderCategoryID)
        row.bind(fareMediaID)
        row.bind(amount)
        row.bind(currency)
    }
}
