public import GTFS

extension Stop: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(stopID)
        row.bind(stopCode)
        row.bind(stopName)
        row.bind(ttsStopName)
        row.bind(stopDescription)
        row.bind(latitude)
        row.bind(longitude)
        row.bind(zoneID)
        row.bind(stopURL)
        row.bind(locationType)
        row.bind(parentStation)
        row.bind(stopTimezone)
        row.bind(wheelchairBoarding)
        row.bind(levelID)
        row.bind(platformCode)
        row.bind(stopAccess)
    }
}
