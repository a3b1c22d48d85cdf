public import GTFS

extension FeedInfo: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(feedPublisherName)
        row.bind(feedPublisherURL)
        row.bind(feedLang)
        row.bind(defaultLang)
        row.bind(feedStartDate)
        row.bind(feedEndDate)
        row.bind(feedVersion)
        row.bind(feedContactEmail)
        row.bind(feedContactURL)
    }
}
