/// A row of `frequencies.txt`: a trip repeated at a headway over a span of time.
public struct Frequency: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.frequencies

    enum Column: Int {
        case tripID, startTime, endTime, headwaySecs, exactTimes
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("trip_id"), .required("start_time"), .required("end_time"), .required("headway_secs"),
        .optional("exact_times"),
    ]

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
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: Row) throws {
        typealias C = Column
        tripID = try row.requiredID(C.tripID.rawValue)
        startTime = try row.requiredTime(C.startTime.rawValue)
        endTime = try row.requiredTime(C.endTime.rawValue)
        headwaySeconds = try row.requiredPositiveInt(C.headwaySecs.rawValue)
        exactTimes = try row.enumeration(C.exactTimes.rawValue) ?? .frequencyBased
    }
}
