/// A row of `calendar_dates.txt`: a date on which a service is added or removed.
public struct CalendarDate: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.calendarDates

    /// The fields of `calendar_dates.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `calendar_dates.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case serviceID, date, exceptionType

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .serviceID: FieldSpec("service_id", .id, .required)
            case .date: FieldSpec("date", .date, .required)
            case .exceptionType: FieldSpec("exception_type", .enumeration, .required)
            }
        }

        /// The key: `service_id`, `date`.
        public static let key: [Field] = [.serviceID, .date]
    }


    /// `service_id`: a `calendar.txt` service, or a service defined only by its dates here.
    public var serviceID: GTFSID
    /// `date`.
    public var date: GTFSDate
    /// `exception_type`: whether the service runs on the date or not.
    public var exceptionType: ExceptionType

    /// Decodes a calendar date.
    /// - Parameter row: one row of `calendar_dates.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: CSVRow<Field>) throws {
        serviceID = try row.requiredID(.serviceID)
        date = try row.requiredDate(.date)
        exceptionType = try row.requiredEnumeration(.exceptionType)
    }
}

extension CalendarDate {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(serviceID)
        sink.write(date)
        sink.write(exceptionType)
    }
}
