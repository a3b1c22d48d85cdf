public import GTFS

extension BookingRule: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(bookingRuleID)
        row.bind(bookingType)
        row.bind(priorNoticeDurationMin)
        row.bind(priorNoticeDurationMax)
        row.bind(priorNoticeLastDay)
        row.bind(priorNoticeLastTime)
        row.bind(priorNoticeStartDay)
        row.bind(priorNoticeStartTime)
        row.bind(priorNoticeServiceID)
        row.bind(message)
        row.bind(pickupMessage)
        row.bind(dropOffMessage)
        row.bind(phoneNumber)
        row.bind(infoURL)
        row.bind(bookingURL)
    }
}
