public import GTFS

extension Attribution: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(attributionID)
        row.bind(agencyID)
        row.bind(routeID)
        row.bind(tripID)
        row.bind(organizationName)
        row.bind(isProducer)
        row.bind(isOperator)
        row.bind(isAuthority)
        row.bind(attributionURL)
        row.bind(attributionEmail)
        row.bind(attributionPhone)
    }
}
