/// A row of `shapes.txt`: one point of the path a vehicle travels.
public struct ShapePoint: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.shapes

    enum Column: Int {
        case shapeID, shapePtLat, shapePtLon, shapePtSequence, shapeDistTraveled
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("shape_id"), .required("shape_pt_lat"), .required("shape_pt_lon"), .required("shape_pt_sequence"),
        .optional("shape_dist_traveled"),
    ]

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
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: Row) throws {
        typealias C = Column
        shapeID = try row.requiredID(C.shapeID.rawValue)
        latitude = try row.requiredLatitude(C.shapePtLat.rawValue)
        longitude = try row.requiredLongitude(C.shapePtLon.rawValue)
        sequence = try row.requiredNonNegativeInt(C.shapePtSequence.rawValue)
        shapeDistTraveled = try row.nonNegativeDouble(C.shapeDistTraveled.rawValue)
    }
}
