/// A row of `trips.txt`: one journey of a vehicle along a route, on the days of a service.
public struct Trip: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.trips

    enum Column: Int {
        case routeID, serviceID, tripID, tripHeadsign, tripShortName, directionID, blockID, shapeID
        case wheelchairAccessible, bikesAllowed, carsAllowed, safeDurationFactor, safeDurationOffset
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("route_id"), .required("service_id"), .required("trip_id"), .optional("trip_headsign"),
        .optional("trip_short_name"), .optional("direction_id"), .optional("block_id"), .optional("shape_id"),
        .optional("wheelchair_accessible"), .optional("bikes_allowed"), .optional("cars_allowed"),
        .optional("safe_duration_factor"), .optional("safe_duration_offset"),
    ]

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
    /// - Throws: ``GTFSError`` for an invalid value or a missing required one.
    public init(row: Row) throws {
        typealias C = Column
        routeID = try row.requiredID(C.routeID.rawValue)
        serviceID = try row.requiredID(C.serviceID.rawValue)
        tripID = try row.requiredID(C.tripID.rawValue)
        tripHeadsign = row.text(C.tripHeadsign.rawValue)
        tripShortName = row.text(C.tripShortName.rawValue)
        directionID = try row.enumeration(C.directionID.rawValue)
        blockID = row.id(C.blockID.rawValue)
        shapeID = row.id(C.shapeID.rawValue)
        wheelchairAccessible = try row.enumeration(C.wheelchairAccessible.rawValue) ?? .noInformation
        bikesAllowed = try row.enumeration(C.bikesAllowed.rawValue) ?? .noInformation
        carsAllowed = try row.enumeration(C.carsAllowed.rawValue) ?? .noInformation
        safeDurationFactor = try row.double(C.safeDurationFactor.rawValue)
        safeDurationOffset = try row.double(C.safeDurationOffset.rawValue)
    }
}
