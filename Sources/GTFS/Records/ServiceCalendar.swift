/// A row of `calendar.txt`: the weekdays a service runs on between two dates. (Named for what it holds, and
/// so that it does not clash with Foundation's `Calendar`.)
public struct ServiceCalendar: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.calendar

    /// The fields of `calendar.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `calendar.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case serviceID, monday, tuesday, wednesday, thursday, friday, saturday, sunday, startDate, endDate

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .serviceID: FieldSpec("service_id", .id, .required)
            case .monday: FieldSpec("monday", .boolean, .required)
            case .tuesday: FieldSpec("tuesday", .boolean, .required)
            case .wednesday: FieldSpec("wednesday", .boolean, .required)
            case .thursday: FieldSpec("thursday", .boolean, .required)
            case .friday: FieldSpec("friday", .boolean, .required)
            case .saturday: FieldSpec("saturday", .boolean, .required)
            case .sunday: FieldSpec("sunday", .boolean, .required)
            case .startDate: FieldSpec("start_date", .date, .required)
            case .endDate: FieldSpec("end_date", .date, .required)
            }
        }

        /// The key: `service_id`.
        public static let key: [Field] = [.serviceID]
    }


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
    /// - Parameter row: one row of `calendar.txt`.
    /// - Throws: ``GTFSError`` for an invalid value (a weekday other than `0` or `1`, a bad date) or a
    ///   missing required one.
    public init(row: CSVRow<Field>) throws {
        serviceID = try row.requiredID(.serviceID)
        monday = try row.requiredZeroOrOne(.monday)
        tuesday = try row.requiredZeroOrOne(.tuesday)
        wednesday = try row.requiredZeroOrOne(.wednesday)
        thursday = try row.requiredZeroOrOne(.thursday)
        friday = try row.requiredZeroOrOne(.friday)
        saturday = try row.requiredZeroOrOne(.saturday)
        sunday = try row.requiredZeroOrOne(.sunday)
        startDate = try row.requiredDate(.startDate)
        endDate = try row.requiredDate(.endDate)
    }
}

extension ServiceCalendar {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(serviceID)
        sink.write(monday)
        sink.write(tuesday)
        sink.write(wednesday)
        sink.write(thursday)
        sink.write(friday)
        sink.write(saturday)
        sink.write(sunday)
        sink.write(startDate)
        sink.write(endDate)
    }
}
