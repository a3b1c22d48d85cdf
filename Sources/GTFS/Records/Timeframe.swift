/// A row of `timeframes.txt`: a time-of-day interval on the days of a service, which fare leg rules can
/// refer to by its group.
public struct Timeframe: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.timeframes

    /// The fields of `timeframes.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `timeframes.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case timeframeGroupID, startTime, endTime, serviceID

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .timeframeGroupID: FieldSpec("timeframe_group_id", .id, .required)
            case .startTime: FieldSpec("start_time", .time, .defaulted)
            case .endTime: FieldSpec("end_time", .time, .defaulted)
            case .serviceID: FieldSpec("service_id", .id, .required)
            }
        }

        /// The key: `timeframe_group_id`, `start_time`, `end_time`, `service_id`.
        public static let key: [Field] = [.timeframeGroupID, .startTime, .endTime, .serviceID]
    }


    /// `timeframe_group_id`: the group the timeframe belongs to (not unique).
    public var timeframeGroupID: GTFSID
    /// `start_time`: the local time the interval starts, included; empty reads as 00:00:00.
    public var startTime: GTFSTime
    /// `end_time`: the local time the interval ends, excluded; empty reads as 24:00:00.
    public var endTime: GTFSTime
    /// `service_id`: the service whose days the timeframe covers.
    public var serviceID: GTFSID

    /// Decodes a timeframe and checks that `start_time` and `end_time` are given together.
    /// - Parameter row: one row of `timeframes.txt`.
    /// - Throws: ``GTFSError`` for an invalid value (a time past 24:00:00, say) or a broken rule.
    public init(row: CSVRow<Field>) throws {
        timeframeGroupID = try row.requiredID(.timeframeGroupID)
        let start = try row.localTime(.startTime)
        let end = try row.localTime(.endTime)
        startTime = start ?? GTFSTime(seconds: 0)
        endTime = end ?? GTFSTime(seconds: 86_400)
        serviceID = try row.requiredID(.serviceID)

        if start != nil && end == nil { throw row.ruleError(.endTime, "is required when start_time is given") }
        if end != nil && start == nil { throw row.ruleError(.startTime, "is required when end_time is given") }
    }
}

extension Timeframe {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(timeframeGroupID)
        sink.write(startTime)
        sink.write(endTime)
        sink.write(serviceID)
    }
}
