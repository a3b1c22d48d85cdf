public import GTFS

extension Frequency: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(tripID)
        row.bind(startTime)
        row.bind(endTime)
        row.bind(headwaySeconds)
        row.bind(exactTimes)
    }
}
