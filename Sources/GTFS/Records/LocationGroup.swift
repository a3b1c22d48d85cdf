/// A row of `location_groups.txt`: a named group of stops where a demand-responsive service picks up or
/// drops off.
public struct LocationGroup: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.locationGroups

    /// The fields of `location_groups.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `location_groups.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case locationGroupID, locationGroupName

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .locationGroupID: FieldSpec("location_group_id", .id, .required)
            case .locationGroupName: FieldSpec("location_group_name", .text)
            }
        }

        /// The key: `location_group_id`.
        public static let key: [Field] = [.locationGroupID]
    }


    /// `location_group_id`: unique among stop ids, `locations.geojson` ids and location group ids.
    public var locationGroupID: GTFSID
    /// `location_group_name`: the name riders see.
    public var locationGroupName: String?

    /// Decodes a location group.
    /// - Parameter row: one row of `location_groups.txt`.
    /// - Throws: ``GTFSError`` when `location_group_id` is missing.
    public init(row: CSVRow<Field>) throws {
        locationGroupID = try row.requiredID(.locationGroupID)
        locationGroupName = row.text(.locationGroupName)
    }
}

extension LocationGroup {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(locationGroupID)
        sink.write(locationGroupName)
    }
}
