public import GTFS

extension Transfer: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(fromStopID)
        row.bind(toStopID)
        row.bind(fromRouteID)
        row.bind(toRouteID)
        row.bind(fromTripID)
        row.bind(toTripID)
        row.bind(transferType)
        row.bind(minTransferTime)
    }
}
