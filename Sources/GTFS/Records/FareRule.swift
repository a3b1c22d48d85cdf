/// A row of `fare_rules.txt` (Fares v1): when a fare of `fare_attributes.txt` applies.
public struct FareRule: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareRules

    enum Column: Int {
        case fareID, routeID, originID, destinationID, containsID
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("fare_id"), .optional("route_id"), .optional("origin_id"), .optional("destination_id"),
        .optional("contains_id"),
    ]

    /// `fare_id`: the fare (in `fare_attributes.txt`) the rule applies to.
    public var fareID: String
    /// `route_id`: the route the fare applies to.
    public var routeID: String?
    /// `origin_id`: the fare zone (a `stops.zone_id`) of the origin.
    public var originID: String?
    /// `destination_id`: the fare zone (a `stops.zone_id`) of the destination.
    public var destinationID: String?
    /// `contains_id`: a fare zone (a `stops.zone_id`) the itinerary passes through.
    public var containsID: String?

    /// Decodes a fare rule.
    /// - Throws: ``GTFSError`` when `fare_id` is missing.
    public init(row: Row) throws {
        typealias C = Column
        fareID = try row.requiredText(C.fareID.rawValue)
        routeID = row.text(C.routeID.rawValue)
        originID = row.text(C.originID.rawValue)
        destinationID = row.text(C.destinationID.rawValue)
        containsID = row.text(C.containsID.rawValue)
    }
}
