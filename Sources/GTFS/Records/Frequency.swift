/// A row of `frequencies.txt`: a trip repeated at a headway over a span of time.
public struct Frequency: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.frequencies

    /// The fields of `frequencies.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `frequencies.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case tripID, startTime, endTime, headwaySecs, exactTimes

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .tripID: FieldSpec("trip_id", .id, .required)
            case .startTime: FieldSpec("start_time", .time, .required)
            case .endTime: FieldSpec("end_time", .time, .required)
            case .headwaySecs: FieldSpec("headway_secs", .integer, .required)
            case .exactTimes: FieldSpec("exact_times", .enumeration, .defaulted)
            }
        }

        /// The key: `trip_id`, `start_time`.
        public static let key: [Field] = [.tripID, .startTime]
    }


    /// `trip_id`: the trip whose times are the template.
    public var tripID: GTFSID
    /// `start_time`: when the first vehicle leaves the first stop.
    public var startTime: GTFSTime
    /// `end_time`: when the service changes or ends.
    public var endTime: GTFSTime
    /// `headway_secs`: seconds between departures from the same stop.
    public var headwaySeconds: Int
    /// `exact_times`; empty reads as ``ExactTimes/frequencyBased``.
    public var exactTimes: ExactTimes

    /// Decodes a frequency.
    /// - Parameter row: one row of `frequencies.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: CSVRow<Field>) throws {
        tripID = try row.requiredID(.tripID)
        startTime = try row.requiredTime(.startTime)
        endTime = try row.requiredTime(.endTime)
        headwaySeconds = try row.requiredPositiveInt(.headwaySecs)
        exactTimes = try row.enumeration(.exactTimes) ?? .frequencyBased
    }
}

extension Frequency {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(tripID)
        sink.write(startTime)
        sink.write(endTime)
        sink.write(headwaySeconds)
        sink.write(exactTimes)
    }
}
