/// A row of `stop_areas.txt`: puts a stop in an area. A station puts its platforms in the area too.
public struct StopArea: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.stopAreas

    enum Column: Int {
        case areaID, stopID
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("area_id"), .required("stop_id"),
    ]

    /// `area_id`: the area.
    public var areaID: GTFSID
    /// `stop_id`: the stop, or a station standing for its platforms.
    public var stopID: GTFSID

    /// Decodes a stop area.
    /// - Throws: ``GTFSError`` when a value is missing.
    public init(row: Row) throws {
        typealias C = Column
        areaID = try row.requiredID(C.areaID.rawValue)
        stopID = try row.requiredID(C.stopID.rawValue)
    }
}
