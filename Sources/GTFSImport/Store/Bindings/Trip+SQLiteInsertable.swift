public import GTFS

extension Trip: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(routeID)
        row.bind(serviceID)
        row.bind(tripID)
        row.bind(tripHeadsign)
        row.bind(tripShortName)
        row.bind(directionID)
        row.bind(blockID)
        row.bind(shapeID)
        row.bind(wheelchairAccessible)
        row.bind(bikesAllowed)
        row.bind(carsAllowed)
        row.bind(safeDurationFactor)
        row.bind(safeDurationOffset)
    }
}
