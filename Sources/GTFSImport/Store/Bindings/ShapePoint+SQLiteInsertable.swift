public import GTFS

extension ShapePoint: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(shapeID)
        row.bind(latitude)
        row.bind(longitude)
        row.bind(sequence)
        row.bind(shapeDistTraveled)
    }
}
