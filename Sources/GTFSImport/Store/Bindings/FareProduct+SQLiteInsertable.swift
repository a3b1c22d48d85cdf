public import GTFS

extension FareProduct: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind(to row: inout SQLiteRowBinder) {
        row.bind(fareProductID)
        row.bind(fareProductName)
        row.bind(riderCategoryID)
        row.bind(fareMediaID)
        row.bind(amount)
        row.bind(currency)
    }
}
