public import GTFS

extension FareLegJoinRule: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(fromNetworkID)
        row.bind(toNetworkID)
        row.bind(fromStopID)
        row.bind(toStopID)
    }
}
