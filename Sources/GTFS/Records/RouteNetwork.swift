/// A row of `route_networks.txt`: puts a route in a network.
public struct RouteNetwork: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.routeNetworks

    /// The fields of `route_networks.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `route_networks.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case networkID, routeID

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .networkID: FieldSpec("network_id", .id, .required)
            case .routeID: FieldSpec("route_id", .id, .required)
            }
        }

        /// The key: `route_id`.
        public static let key: [Field] = [.routeID]
    }


    /// `network_id`: the network.
    public var networkID: GTFSID
    /// `route_id`: the route; a route belongs to one network at most.
    public var routeID: GTFSID

    /// Decodes a route network.
    /// - Parameter row: one row of `route_networks.txt`.
    /// - Throws: ``GTFSError`` when a value is missing.
    public init(row: CSVRow<Field>) throws {
        networkID = try row.requiredID(.networkID)
        routeID = try row.requiredID(.routeID)
    }
}

extension RouteNetwork {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(networkID)
        sink.write(routeID)
    }
}
