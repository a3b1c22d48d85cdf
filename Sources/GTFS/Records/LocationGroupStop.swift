/// A row of `location_group_stops.txt`: puts a stop in a location group.
public struct LocationGroupStop: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.locationGroupStops

    enum Column: Int {
        case locationGroupID, stopID
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("location_group_id"), .required("stop_id"),
    ]

    /// `location_group_id`: the location group.
    public var locationGroupID: GTFSID
    /// `stop_id`: the stop.
    public var stopID: GTFSID

    /// Decodes a location group stop.
    /// - Throws: ``GTFSError`` when a value is missing.
    public init(row: Row) throws {
        typealias C = Column
        locationGroupID = try row.requiredID(C.locationGroupID.rawValue)
        stopID = try row.requiredID(C.stopID.rawValue)
    }
}
