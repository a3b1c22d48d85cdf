public import GTFS

extension RouteNetwork: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind(to row: inout SQLiteRowBinder) {
        row.bind(networkID)
        row.bind(routeID)
    }
}
