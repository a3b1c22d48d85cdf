/// A row of `trips.txt`: one journey of a vehicle along a route, on the days of a service.
public struct Trip: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.trips

    /// The fields of `trips.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `trips.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case routeID, serviceID, tripID, tripHeadsign, tripShortName, directionID, blockID, shapeID
        /// A column of `trips.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case wheelchairAccessible, bikesAllowed, carsAllowed, safeDurationFactor, safeDurationOffset

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .routeID: FieldSpec("route_id", .id, .required)
            case .serviceID: FieldSpec("service_id", .id, .required)
            case .tripID: FieldSpec("trip_id", .id, .required)
            case .tripHeadsign: FieldSpec("trip_headsign", .text)
            case .tripShortName: FieldSpec("trip_short_name", .text)
            case .directionID: FieldSpec("direction_id", .enumeration)
            case .blockID: FieldSpec("block_id", .id)
            case .shapeID: FieldSpec("shape_id", .id)
            case .wheelchairAccessible: FieldSpec("wheelchair_accessible", .enumeration, .defaulted)
            case .bikesAllowed: FieldSpec("bikes_allowed", .enumeration, .defaulted)
            case .carsAllowed: FieldSpec("cars_allowed", .enumeration, .defaulted)
            case .safeDurationFactor: FieldSpec("safe_duration_factor", .decimal)
            case .safeDurationOffset: FieldSpec("safe_duration_offset", .decimal)
            }
        }

        /// The key: `trip_id`.
        public static let key: [Field] = [.tripID]
    }


    /// `route_id`.
    public var routeID: GTFSID
    /// `service_id`: the days the trip runs (calendar or calendar_dates).
    public var serviceID: GTFSID
    /// `trip_id`.
    public var tripID: GTFSID
    /// `trip_headsign`: the destination shown to riders.
    public var tripHeadsign: String?
    /// `trip_short_name`, e.g. a train number.
    public var tripShortName: String?
    /// `direction_id`; `nil` when empty (the reference gives empty no meaning).
    public var directionID: DirectionID?
    /// `block_id`: trips run in turn by the same vehicle.
    public var blockID: GTFSID?
    /// `shape_id`: required when the trip has continuous pickup or drop-off (a check across files, not made here).
    public var shapeID: GTFSID?
    /// `wheelchair_accessible`; empty reads as ``Accessibility/noInformation``.
    public var wheelchairAccessible: Accessibility
    /// `bikes_allowed`; empty reads as ``Accessibility/noInformation``.
    public var bikesAllowed: Accessibility
    /// `cars_allowed`; empty reads as ``Accessibility/noInformation``.
    public var carsAllowed: Accessibility
    /// `safe_duration_factor`: the multiplier applied to travel-time estimates of on-demand trips.
    public var safeDurationFactor: Double?
    /// `safe_duration_offset`: the offset in seconds added to travel-time estimates of on-demand trips.
    public var safeDurationOffset: Double?

    /// Decodes a trip.
    /// - Parameter row: one row of `trips.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: CSVRow<Field>) throws {
        routeID = try row.requiredID(.routeID)
        serviceID = try row.requiredID(.serviceID)
        tripID = try row.requiredID(.tripID)
        tripHeadsign = row.text(.tripHeadsign)
        tripShortName = row.text(.tripShortName)
        directionID = try row.enumeration(.directionID)
        blockID = row.id(.blockID)
        shapeID = row.id(.shapeID)
        wheelchairAccessible = try row.enumeration(.wheelchairAccessible) ?? .noInformation
        bikesAllowed = try row.enumeration(.bikesAllowed) ?? .noInformation
        carsAllowed = try row.enumeration(.carsAllowed) ?? .noInformation
        safeDurationFactor = try row.double(.safeDurationFactor)
        safeDurationOffset = try row.double(.safeDurationOffset)
    }
}

extension Trip {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(routeID)
        sink.write(serviceID)
        sink.write(tripID)
        sink.write(tripHeadsign)
        sink.write(tripShortName)
        sink.write(directionID)
        sink.write(blockID)
        sink.write(shapeID)
        sink.write(wheelchairAccessible)
        sink.write(bikesAllowed)
        sink.write(carsAllowed)
        sink.write(safeDurationFactor)
        sink.write(safeDurationOffset)
    }
}
