public import GTFS

extension CalendarDate: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(serviceID)
        row.bind(date)
        row.bind(exceptionType)
    }
}
