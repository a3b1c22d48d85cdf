/// A row of `location_group_stops.txt`: puts a stop in a location group.
public struct LocationGroupStop: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.locationGroupStops

    /// The fields of `location_group_stops.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `location_group_stops.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case locationGroupID, stopID

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .locationGroupID: FieldSpec("location_group_id", .id, .required)
            case .stopID: FieldSpec("stop_id", .id, .required)
            }
        }

        /// The key: `location_group_id`, `stop_id`.
        public static let key: [Field] = [.locationGroupID, .stopID]
    }


    /// `location_group_id`: the location group.
    public var locationGroupID: GTFSID
    /// `stop_id`: the stop.
    public var stopID: GTFSID

    /// Decodes a location group stop.
    /// - Parameter row: one row of `location_group_stops.txt`.
    /// - Throws: ``GTFSError`` when a value is missing.
    public init(row: CSVRow<Field>) throws {
        locationGroupID = try row.requiredID(.locationGroupID)
        stopID = try row.requiredID(.stopID)
    }
}

extension LocationGroupStop {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(locationGroupID)
        sink.write(stopID)
    }
}
