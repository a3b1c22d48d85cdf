public import GTFS

extension RiderCategory: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind(to row: inout SQLiteRowBinder) {
        row.bind(riderCategoryID)
        row.bind(riderCategoryName)
        row.bind(isDefaultFareCategory)
        row.bind(eligibilityURL)
    }
}
