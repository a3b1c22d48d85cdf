public import GTFS

extension Timeframe: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind(to row: inout SQLiteRowBinder) {
        row.bind(timeframeGroupID)
        row.bind(startTime)
        row.bind(endTime)
        row.bind(serviceID)
    }
}
