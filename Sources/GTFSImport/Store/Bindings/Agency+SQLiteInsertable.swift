public import GTFS

extension Agency: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(agencyID)
        row.bind(agencyName)
        row.bind(agencyURL)
        row.bind(agencyTimezone)
        row.bind(agencyLang)
        row.bind(agencyPhone)
        row.bind(agencyFareURL)
        row.bind(agencyEmail)
        row.bind(cemvSupport)
    }
}
