public import GTFS

extension LocationGroup: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind(to row: inout SQLiteRowBinder) {
        row.bind(locationGroupID)
        row.bind(locationGroupName)
    }
}
