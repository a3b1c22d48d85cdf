/// A row of `timeframes.txt`: a time-of-day interval on the days of a service, which fare leg rules can
/// refer to by its group.
public struct Timeframe: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.timeframes

    enum Column: Int {
        case timeframeGroupID, startTime, endTime, serviceID
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("timeframe_group_id"), .optional("start_time"), .optional("end_time"), .required("service_id"),
    ]

    /// `timeframe_group_id`: the group the timeframe belongs to (not unique).
    public var timeframeGroupID: GTFSID
    /// `start_time`: the local time the interval starts, included; empty reads as 00:00:00.
    public var startTime: GTFSTime
    /// `end_time`: the local time the interval ends, excluded; empty reads as 24:00:00.
    public var endTime: GTFSTime
    /// `service_id`: the service whose days the timeframe covers.
    public var serviceID: GTFSID

    /// Decodes a timeframe and checks that `start_time` and `end_time` are given together.
    /// - Throws: ``GTFSError`` for an invalid value (a time past 24:00:00, say) or a broken rule.
    public init(row: Row) throws {
        typealias C = Column
        timeframeGroupID = try row.requiredID(C.timeframeGroupID.rawValue)
        let start = try row.localTime(C.startTime.rawValue)
        let end = try row.localTime(C.endTime.rawValue)
        startTime = start ?? GTFSTime(seconds: 0)
        endTime = end ?? GTFSTime(seconds: 86_400)
        serviceID = try row.requiredID(C.serviceID.rawValue)

        if start != nil && end == nil { throw row.ruleError(C.endTime.rawValue, "is required when start_time is given") }
        if end != nil && start == nil { throw row.ruleError(C.startTime.rawValue, "is required when end_time is given") }
    }
}
