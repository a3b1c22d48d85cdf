public import GTFS

extension Translation: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(tableName)
        row.bind(fieldName)
        row.bind(language)
        row.bind(translation)
        row.bind(recordID)
        row.bind(recordSubID)
        row.bind(fieldValue)
    }
}
