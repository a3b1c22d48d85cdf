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
    public var fareID: GTFSID
    /// `route_id`: the route the fare applies to.
    public var routeID: GTFSID?
    /// `origin_id`: the fare zone (a `stops.zone_id`) of the origin.
    public var originID: GTFSID?
    /// `destination_id`: the fare zone (a `stops.zone_id`) of the destination.
    public var destinationID: GTFSID?
    /// `contains_id`: a fare zone (a `stops.zone_id`) the itinerary passes through.
    public var containsID: GTFSID?

    /// Decodes a fare rule.
    /// - Throws: ``GTFSError`` when `fare_id` is missing.
    public init(row: Row) throws {
        typealias C = Column
        fareID = try row.requiredID(C.fareID.rawValue)
        routeID = row.id(C.routeID.rawValue)
        originID = row.id(C.originID.rawValue)
        destinationID = row.id(C.destinationID.rawValue)
        containsID = row.id(C.containsID.rawValue)
    }
}
