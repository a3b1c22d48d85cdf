public import GTFS

extension Timeframe: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(timeframeGroupID)
        row.bind(startTime)
        row.bind(endTime)
        row.bind(serviceID)
    }
}
