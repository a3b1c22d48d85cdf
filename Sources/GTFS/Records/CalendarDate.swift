/// A row of `calendar_dates.txt`: a date on which a service is added or removed.
public struct CalendarDate: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.calendarDates

    enum Column: Int {
        case serviceID, date, exceptionType
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("service_id"), .required("date"), .required("exception_type"),
    ]

    /// `service_id`: a `calendar.txt` service, or a service defined only by its dates here.
    public var serviceID: GTFSID
    /// `date`.
    public var date: GTFSDate
    /// `exception_type`: whether the service runs on the date or not.
    public var exceptionType: ExceptionType

    /// Decodes a calendar date.
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: Row) throws {
        typealias C = Column
        serviceID = try row.requiredID(C.serviceID.rawValue)
        date = try row.requiredDate(C.date.rawValue)
        exceptionType = try row.requiredEnumeration(C.exceptionType.rawValue)
    }
}
