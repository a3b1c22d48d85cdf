/// A row of `shapes.txt`: one point of the path a vehicle travels.
public struct ShapePoint: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.shapes

    /// The fields of `shapes.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `shapes.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case shapeID, shapePtLat, shapePtLon, shapePtSequence, shapeDistTraveled

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .shapeID: FieldSpec("shape_id", .id, .required)
            case .shapePtLat: FieldSpec("shape_pt_lat", .decimal, .required)
            case .shapePtLon: FieldSpec("shape_pt_lon", .decimal, .required)
            case .shapePtSequence: FieldSpec("shape_pt_sequence", .integer, .required)
            case .shapeDistTraveled: FieldSpec("shape_dist_traveled", .decimal)
            }
        }

        /// The key: `shape_id`, `shape_pt_sequence`.
        public static let key: [Field] = [.shapeID, .shapePtSequence]
    }


    /// `shape_id`: the shape the point belongs to.
    public var shapeID: GTFSID
    /// `shape_pt_lat`.
    public var latitude: Double
    /// `shape_pt_lon`.
    public var longitude: Double
    /// `shape_pt_sequence`: increases along the shape.
    public var sequence: Int
    /// `shape_dist_traveled`: the distance from the first point, in the feed's units.
    public var shapeDistTraveled: Double?

    /// Decodes a shape point.
    /// - Parameter row: one row of `shapes.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: CSVRow<Field>) throws {
        shapeID = try row.requiredID(.shapeID)
        latitude = try row.requiredLatitude(.shapePtLat)
        longitude = try row.requiredLongitude(.shapePtLon)
        sequence = try row.requiredNonNegativeInt(.shapePtSequence)
        shapeDistTraveled = try row.nonNegativeDouble(.shapeDistTraveled)
    }
}

extension ShapePoint {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(shapeID)
        sink.write(latitude)
        sink.write(longitude)
        sink.write(sequence)
        sink.write(shapeDistTraveled)
    }
}
