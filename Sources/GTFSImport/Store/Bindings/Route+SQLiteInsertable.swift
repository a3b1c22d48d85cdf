public import GTFS

extension Route: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(routeID)
        row.bind(agencyID)
        row.bind(routeShortName)
        row.bind(routeLongName)
        row.bind(routeDescription)
        row.bind(routeType)
        row.bind(routeURL)
        row.bind(routeColor)
        row.bind(routeTextColor)
        row.bind(routeSortOrder)
        row.bind(continuousPickup)
        row.bind(continuousDropOff)
        row.bind(networkID)
        row.bind(cemvSupport)
    }
}
