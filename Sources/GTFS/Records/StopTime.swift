/// A row of `stop_times.txt`: when a trip serves a stop (or a flexible location).
public struct StopTime: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.stopTimes

    enum Column: Int {
        case tripID, arrivalTime, departureTime, stopID, locationGroupID, locationID, stopSequence, stopHeadsign
        case startPickupDropOffWindow, endPickupDropOffWindow, pickupType, dropOffType, continuousPickup
        case continuousDropOff, shapeDistTraveled, timepoint, pickupBookingRuleID, dropOffBookingRuleID
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("trip_id"), .optional("arrival_time"), .optional("departure_time"), .optional("stop_id"),
        .optional("location_group_id"), .optional("location_id"), .required("stop_sequence"), .optional("stop_headsign"),
        .optional("start_pickup_drop_off_window"), .optional("end_pickup_drop_off_window"), .optional("pickup_type"),
        .optional("drop_off_type"), .optional("continuous_pickup"), .optional("continuous_drop_off"),
        .optional("shape_dist_traveled"), .optional("timepoint"), .optional("pickup_booking_rule_id"),
        .optional("drop_off_booking_rule_id"),
    ]

    /// `trip_id`.
    public var tripID: GTFSID
    /// `arrival_time`; required on timepoints.
    public var arrivalTime: GTFSTime?
    /// `departure_time`; required on timepoints.
    public var departureTime: GTFSTime?
    /// `stop_id`; required unless a location group or location is given.
    public var stopID: GTFSID?
    /// `stop_sequence`: increases along the trip.
    public var stopSequence: Int
    /// `stop_headsign`.
    public var stopHeadsign: String?
    /// `pickup_type`; empty reads as ``PickupDropOffType/regular``.
    public var pickupType: PickupDropOffType
    /// `drop_off_type`; empty reads as ``PickupDropOffType/regular``.
    public var dropOffType: PickupDropOffType
    /// `shape_dist_traveled`.
    public var shapeDistTraveled: Double?
    /// `timepoint`; empty reads as ``Timepoint/exact``.
    public var timepoint: Timepoint
    /// The GTFS-Flex, continuous-stopping and booking fields, out of line and `nil` when all are empty (as in
    /// nearly every row of a timetable): a record is 160 bytes instead of 337, which every copy of a batch
    /// pays for.
    private var flex: StopTimeFlexFields.Box?

    /// `location_group_id`.
    public var locationGroupID: GTFSID? {
        get { flex?.fields.locationGroupID }
        set { updateFlex { $0.locationGroupID = newValue } }
    }
    /// `location_id` (an id in `locations.geojson`).
    public var locationID: GTFSID? {
        get { flex?.fields.locationID }
        set { updateFlex { $0.locationID = newValue } }
    }
    /// `start_pickup_drop_off_window`.
    public var startPickupDropOffWindow: GTFSTime? {
        get { flex?.fields.startPickupDropOffWindow }
        set { updateFlex { $0.startPickupDropOffWindow = newValue } }
    }
    /// `end_pickup_drop_off_window`.
    public var endPickupDropOffWindow: GTFSTime? {
        get { flex?.fields.endPickupDropOffWindow }
        set { updateFlex { $0.endPickupDropOffWindow = newValue } }
    }
    /// `continuous_pickup`; `nil` when empty (the route's value applies).
    public var continuousPickup: ContinuousStopping? {
        get { flex?.fields.continuousPickup }
        set { updateFlex { $0.continuousPickup = newValue } }
    }
    /// `continuous_drop_off`; `nil` when empty (the route's value applies).
    public var continuousDropOff: ContinuousStopping? {
        get { flex?.fields.continuousDropOff }
        set { updateFlex { $0.continuousDropOff = newValue } }
    }
    /// `pickup_booking_rule_id`.
    public var pickupBookingRuleID: GTFSID? {
        get { flex?.fields.pickupBookingRuleID }
        set { updateFlex { $0.pickupBookingRuleID = newValue } }
    }
    /// `drop_off_booking_rule_id`.
    public var dropOffBookingRuleID: GTFSID? {
        get { flex?.fields.dropOffBookingRuleID }
        set { updateFlex { $0.dropOffBookingRuleID = newValue } }
    }

    /// Changes the out-of-line fields (a new box: records share boxes, so one is never mutated).
    private mutating func updateFlex(_ change: (inout StopTimeFlexFields) -> Void) {
        var fields = flex?.fields ?? StopTimeFlexFields()
        change(&fields)
        flex = StopTimeFlexFields.Box.make(fields)
    }
}

extension StopTime {
    /// Decodes a stop time and checks the conditionally required fields.
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: Row) throws {
        self = try Self.decode(row)
    }

    private static func decode(_ row: Row) throws -> StopTime {
        typealias C = Column
        let tripID = try row.requiredID(C.tripID.rawValue)
        let arrivalTime = try row.time(C.arrivalTime.rawValue)
        let departureTime = try row.time(C.departureTime.rawValue)
        let stopID = row.id(C.stopID.rawValue)
        let locationGroupID = row.id(C.locationGroupID.rawValue)
        let locationID = row.id(C.locationID.rawValue)
        let stopSequence = try row.requiredNonNegativeInt(C.stopSequence.rawValue)
        let stopHeadsign = row.text(C.stopHeadsign.rawValue)
        let startPickupDropOffWindow = try row.time(C.startPickupDropOffWindow.rawValue)
        let endPickupDropOffWindow = try row.time(C.endPickupDropOffWindow.rawValue)
        let pickupType: PickupDropOffType = try row.enumeration(C.pickupType.rawValue) ?? .regular
        let dropOffType: PickupDropOffType = try row.enumeration(C.dropOffType.rawValue) ?? .regular
        let continuousPickup: ContinuousStopping? = try row.enumeration(C.continuousPickup.rawValue)
        let continuousDropOff: ContinuousStopping? = try row.enumeration(C.continuousDropOff.rawValue)
        let shapeDistTraveled = try row.nonNegativeDouble(C.shapeDistTraveled.rawValue)
        let timepoint: Timepoint = try row.enumeration(C.timepoint.rawValue) ?? .exact
        let pickupBookingRuleID = row.id(C.pickupBookingRuleID.rawValue)
        let dropOffBookingRuleID = row.id(C.dropOffBookingRuleID.rawValue)

        if stopID == nil && locationGroupID == nil && locationID == nil {
            throw row.ruleError(C.stopID.rawValue, "is required when location_group_id and location_id are empty")
        }
        let hasWindow = startPickupDropOffWindow != nil || endPickupDropOffWindow != nil
        if hasWindow && (arrivalTime != nil || departureTime != nil) {
            throw row.ruleError(C.arrivalTime.rawValue, "is forbidden when a pickup/drop-off window is given")
        }
        if case .exact = timepoint, row.hasColumn(C.timepoint.rawValue), row.bytes(C.timepoint.rawValue) != nil {
            if arrivalTime == nil { throw row.ruleError(C.arrivalTime.rawValue, "is required on a timepoint (timepoint 1)") }
            if departureTime == nil { throw row.ruleError(C.departureTime.rawValue, "is required on a timepoint (timepoint 1)") }
        }
        let flex = StopTimeFlexFields.Box.make(
            locationGroupID: locationGroupID, locationID: locationID, startPickupDropOffWindow: startPickupDropOffWindow,
            endPickupDropOffWindow: endPickupDropOffWindow, continuousPickup: continuousPickup,
            continuousDropOff: continuousDropOff, pickupBookingRuleID: pickupBookingRuleID,
            dropOffBookingRuleID: dropOffBookingRuleID)
        // The memberwise initialiser Swift synthesises builds the record as one value. A hand-written `init`
        // assigning `self.field = …` made the optimiser copy the whole record and destroy the original (a
        // value-witness copy per row, seen in `perf`), so `init(row:)` lives in this extension.
        return StopTime(
            tripID: tripID, arrivalTime: arrivalTime, departureTime: departureTime, stopID: stopID,
            stopSequence: stopSequence, stopHeadsign: stopHeadsign, pickupType: pickupType, dropOffType: dropOffType,
            shapeDistTraveled: shapeDistTraveled, timepoint: timepoint, flex: flex)
    }
}
