/// A row of `calendar.txt`: the weekdays a service runs on between two dates.
///
/// The name matches Foundation's `Calendar`; in a file that imports both, write `GTFS.Calendar`.
public struct Calendar: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.calendar

    enum Column: Int {
        case serviceID, monday, tuesday, wednesday, thursday, friday, saturday, sunday, startDate, endDate
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("service_id"), .required("monday"), .required("tuesday"), .required("wednesday"),
        .required("thursday"), .required("friday"), .required("saturday"), .required("sunday"),
        .required("start_date"), .required("end_date"),
    ]

    /// `service_id`.
    public var serviceID: GTFSID
    /// `monday`: `1` (true) when the service runs on every Monday of the range, `0` (false) on none.
    public var monday: Bool
    /// `tuesday`: whether the service runs on every Tuesday of the range.
    public var tuesday: Bool
    /// `wednesday`: whether the service runs on every Wednesday of the range.
    public var wednesday: Bool
    /// `thursday`: whether the service runs on every Thursday of the range.
    public var thursday: Bool
    /// `friday`: whether the service runs on every Friday of the range.
    public var friday: Bool
    /// `saturday`: whether the service runs on every Saturday of the range.
    public var saturday: Bool
    /// `sunday`: whether the service runs on every Sunday of the range.
    public var sunday: Bool
    /// `start_date`: the first day of the range.
    public var startDate: GTFSDate
    /// `end_date`: the last day of the range (included).
    public var endDate: GTFSDate

    /// Decodes a calendar row.
    /// - Throws: ``GTFSError`` for an invalid value (a weekday other than `0` or `1`, a bad date) or a
    ///   missing required one.
    public init(row: Row) throws {
        typealias C = Column
        serviceID = try row.requiredID(C.serviceID.rawValue)
        monday = try row.requiredZeroOrOne(C.monday.rawValue)
        tuesday = try row.requiredZeroOrOne(C.tuesday.rawValue)
        wednesday = try row.requiredZeroOrOne(C.wednesday.rawValue)
        thursday = try row.requiredZeroOrOne(C.thursday.rawValue)
        friday = try row.requiredZeroOrOne(C.friday.rawValue)
        saturday = try row.requiredZeroOrOne(C.saturday.rawValue)
        sunday = try row.requiredZeroOrOne(C.sunday.rawValue)
        startDate = try row.requiredDate(C.startDate.rawValue)
        endDate = try row.requiredDate(C.endDate.rawValue)
    }
}
