public import GTFS

extension FareTransferRule: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(fromLegGroupID)
        row.bind(toLegGroupID)
        row.bind(transferCount)
        row.bind(durationLimit)
        row.bind(durationLimitType)
        row.bind(fareTransferType)
        row.bind(fareProductID)
    }
}
