/// A row of `fare_rules.txt` (Fares v1): when a fare of `fare_attributes.txt` applies.
public struct FareRule: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareRules

    /// The fields of `fare_rules.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `fare_rules.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case fareID, routeID, originID, destinationID, containsID

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .fareID: FieldSpec("fare_id", .id, .required)
            case .routeID: FieldSpec("route_id", .id)
            case .originID: FieldSpec("origin_id", .id)
            case .destinationID: FieldSpec("destination_id", .id)
            case .containsID: FieldSpec("contains_id", .id)
            }
        }

        /// The key: `fare_id`, `route_id`, `origin_id`, `destination_id`, `contains_id`.
        public static let key: [Field] = [.fareID, .routeID, .originID, .destinationID, .containsID]
    }


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
    /// - Parameter row: one row of `fare_rules.txt`.
    /// - Throws: ``GTFSError`` when `fare_id` is missing.
    public init(row: CSVRow<Field>) throws {
        fareID = try row.requiredID(.fareID)
        routeID = row.id(.routeID)
        originID = row.id(.originID)
        destinationID = row.id(.destinationID)
        containsID = row.id(.containsID)
    }
}

extension FareRule {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(fareID)
        sink.write(routeID)
        sink.write(originID)
        sink.write(destinationID)
        sink.write(containsID)
    }
}
