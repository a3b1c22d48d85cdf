public import GTFS

extension Pathway: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(pathwayID)
        row.bind(fromStopID)
        row.bind(toStopID)
        row.bind(pathwayMode)
        row.bind(isBidirectional)
        row.bind(length)
        row.bind(traversalTime)
        row.bind(stairCount)
        row.bind(maxSlope)
        row.bind(minWidth)
        row.bind(signpostedAs)
        row.bind(reversedSignpostedAs)
    }
}
