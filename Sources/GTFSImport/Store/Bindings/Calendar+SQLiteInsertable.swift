public import GTFS

extension Calendar: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(serviceID)
        row.bind(monday)
        row.bind(tuesday)
        row.bind(wednesday)
        row.bind(thursday)
        row.bind(friday)
        row.bind(saturday)
        row.bind(sunday)
        row.bind(startDate)
        row.bind(endDate)
    }
}
