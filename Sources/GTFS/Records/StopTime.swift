/// A row of `stop_times.txt`: when a trip serves a stop (or a flexible location).
public struct StopTime: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.stopTimes

    /// The fields of `stop_times.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `stop_times.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case tripID, arrivalTime, departureTime, stopID, locationGroupID, locationID, stopSequence, stopHeadsign
        /// A column of `stop_times.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case startPickupDropOffWindow, endPickupDropOffWindow, pickupType, dropOffType, continuousPickup
        /// A column of `stop_times.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case continuousDropOff, shapeDistTraveled, timepoint, pickupBookingRuleID, dropOffBookingRuleID

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .tripID: FieldSpec("trip_id", .id, .required)
            case .arrivalTime: FieldSpec("arrival_time", .time, .conditionallyRequired)
            case .departureTime: FieldSpec("departure_time", .time, .conditionallyRequired)
            case .stopID: FieldSpec("stop_id", .id, .conditionallyRequired)
            case .locationGroupID: FieldSpec("location_group_id", .id)
            case .locationID: FieldSpec("location_id", .id)
            case .stopSequence: FieldSpec("stop_sequence", .integer, .required)
            case .stopHeadsign: FieldSpec("stop_headsign", .text)
            case .startPickupDropOffWindow: FieldSpec("start_pickup_drop_off_window", .time)
            case .endPickupDropOffWindow: FieldSpec("end_pickup_drop_off_window", .time)
            case .pickupType: FieldSpec("pickup_type", .enumeration, .defaulted)
            case .dropOffType: FieldSpec("drop_off_type", .enumeration, .defaulted)
            case .continuousPickup: FieldSpec("continuous_pickup", .enumeration)
            case .continuousDropOff: FieldSpec("continuous_drop_off", .enumeration)
            case .shapeDistTraveled: FieldSpec("shape_dist_traveled", .decimal)
            case .timepoint: FieldSpec("timepoint", .enumeration, .defaulted)
            case .pickupBookingRuleID: FieldSpec("pickup_booking_rule_id", .id)
            case .dropOffBookingRuleID: FieldSpec("drop_off_booking_rule_id", .id)
            }
        }

        /// The key: `trip_id`, `stop_sequence`.
        public static let key: [Field] = [.tripID, .stopSequence]
    }


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
    /// - Parameter row: one row of `stop_times.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: CSVRow<Field>) throws {
        self = try Self.decode(row)
    }

    private static func decode(_ row: CSVRow<Field>) throws -> StopTime {
        let tripID = try row.requiredID(.tripID)
        let arrivalTime = try row.time(.arrivalTime)
        let departureTime = try row.time(.departureTime)
        let stopID = row.id(.stopID)
        let locationGroupID = row.id(.locationGroupID)
        let locationID = row.id(.locationID)
        let stopSequence = try row.requiredNonNegativeInt(.stopSequence)
        let stopHeadsign = row.text(.stopHeadsign)
        let startPickupDropOffWindow = try row.time(.startPickupDropOffWindow)
        let endPickupDropOffWindow = try row.time(.endPickupDropOffWindow)
        let pickupType: PickupDropOffType = try row.enumeration(.pickupType) ?? .regular
        let dropOffType: PickupDropOffType = try row.enumeration(.dropOffType) ?? .regular
        let continuousPickup: ContinuousStopping? = try row.enumeration(.continuousPickup)
        let continuousDropOff: ContinuousStopping? = try row.enumeration(.continuousDropOff)
        let shapeDistTraveled = try row.nonNegativeDouble(.shapeDistTraveled)
        let timepoint: Timepoint = try row.enumeration(.timepoint) ?? .exact
        let pickupBookingRuleID = row.id(.pickupBookingRuleID)
        let dropOffBookingRuleID = row.id(.dropOffBookingRuleID)

        if stopID == nil && locationGroupID == nil && locationID == nil {
            throw row.ruleError(.stopID, "is required when location_group_id and location_id are empty")
        }
        let hasWindow = startPickupDropOffWindow != nil || endPickupDropOffWindow != nil
        if hasWindow && (arrivalTime != nil || departureTime != nil) {
            throw row.ruleError(.arrivalTime, "is forbidden when a pickup/drop-off window is given")
        }
        if case .exact = timepoint, row.hasColumn(.timepoint), row.bytes(.timepoint) != nil {
            if arrivalTime == nil { throw row.ruleError(.arrivalTime, "is required on a timepoint (timepoint 1)") }
            if departureTime == nil { throw row.ruleError(.departureTime, "is required on a timepoint (timepoint 1)") }
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

extension StopTime {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(tripID)
        sink.write(arrivalTime)
        sink.write(departureTime)
        sink.write(stopID)
        sink.write(locationGroupID)
        sink.write(locationID)
        sink.write(stopSequence)
        sink.write(stopHeadsign)
        sink.write(startPickupDropOffWindow)
        sink.write(endPickupDropOffWindow)
        sink.write(pickupType)
        sink.write(dropOffType)
        sink.write(continuousPickup)
        sink.write(continuousDropOff)
        sink.write(shapeDistTraveled)
        sink.write(timepoint)
        sink.write(pickupBookingRuleID)
        sink.write(dropOffBookingRuleID)
    }
}
