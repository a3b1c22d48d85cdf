public import GTFS

extension StopArea: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind(to row: inout SQLiteRowBinder) {
        row.bind(areaID)
        row.bind(stopID)
    }
}
