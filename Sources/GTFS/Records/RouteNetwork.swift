/// A row of `route_networks.txt`: puts a route in a network.
public struct RouteNetwork: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.routeNetworks

    enum Column: Int {
        case networkID, routeID
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("network_id"), .required("route_id"),
    ]

    /// `network_id`: the network.
    public var networkID: GTFSID
    /// `route_id`: the route; a route belongs to one network at most.
    public var routeID: GTFSID

    /// Decodes a route network.
    /// - Throws: ``GTFSError`` when a value is missing.
    public init(row: Row) throws {
        typealias C = Column
        networkID = try row.requiredID(C.networkID.rawValue)
        routeID = try row.requiredID(C.routeID.rawValue)
    }
}
