/// A row of `location_groups.txt`: a named group of stops where a demand-responsive service picks up or
/// drops off.
public struct LocationGroup: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.locationGroups

    enum Column: Int {
        case locationGroupID, locationGroupName
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("location_group_id"), .optional("location_group_name"),
    ]

    /// `location_group_id`: unique among stop ids, `locations.geojson` ids and location group ids.
    public var locationGroupID: GTFSID
    /// `location_group_name`: the name riders see.
    public var locationGroupName: String?

    /// Decodes a location group.
    /// - Throws: ``GTFSError`` when `location_group_id` is missing.
    public init(row: Row) throws {
        typealias C = Column
        locationGroupID = try row.requiredID(C.locationGroupID.rawValue)
        locationGroupName = row.text(C.locationGroupName.rawValue)
    }
}
