/// A row of `stop_areas.txt`: puts a stop in an area. A station puts its platforms in the area too.
public struct StopArea: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.stopAreas

    /// The fields of `stop_areas.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `stop_areas.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case areaID, stopID

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .areaID: FieldSpec("area_id", .id, .required)
            case .stopID: FieldSpec("stop_id", .id, .required)
            }
        }

        /// The key: `area_id`, `stop_id`.
        public static let key: [Field] = [.areaID, .stopID]
    }


    /// `area_id`: the area.
    public var areaID: GTFSID
    /// `stop_id`: the stop, or a station standing for its platforms.
    public var stopID: GTFSID

    /// Decodes a stop area.
    /// - Parameter row: one row of `stop_areas.txt`.
    /// - Throws: ``GTFSError`` when a value is missing.
    public init(row: CSVRow<Field>) throws {
        areaID = try row.requiredID(.areaID)
        stopID = try row.requiredID(.stopID)
    }
}

extension StopArea {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(areaID)
        sink.write(stopID)
    }
}
