public import GTFS

extension FareAttribute: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(fareID)
        row.bind(price)
        row.bind(currencyType)
        row.bind(paymentMethod)
        row.bind(transfers)
        row.bind(agencyID)
        row.bind(transferDuration)
    }
}
