import Foundation

/// One GTFS-Realtime `FeedMessage` as the stores apply it: its header and its entities, decoded (module
/// `GTFSRealtime` decodes the protobuf bytes into it) and independent of any protobuf library.
public struct RealtimeMessage: Sendable, Hashable {
    /// Whether a message is the whole state of its source or changes to it (the header's `incrementality`).
    public enum Incrementality: String, Sendable, Hashable {
        /// The message replaces everything its source said before.
        case fullDataset = "FULL_DATASET"
        /// The message changes some entities; the specification leaves its rules unsettled.
        case differential = "DIFFERENTIAL"
    }

    /// The header's `gtfs_realtime_version` (`2.0`).
    public var version: String
    /// Whole state or changes.
    public var incrementality: Incrementality
    /// The header's `timestamp`: when the content was created, in seconds since 1970.
    public var timestamp: Int64?
    /// The entities that carry a trip update.
    public var tripUpdates: [RealtimeTripUpdate]
    /// The entities that carry a vehicle position.
    public var vehicles: [RealtimeVehicle]
    /// The entities that carry an alert.
    public var alerts: [RealtimeAlert]
    /// The ids of entities marked `is_deleted` (meaningful in a differential message).
    public var deletedEntityIDs: [String]

    /// A message; empty entities by default.
    public init(
        version: String = "2.0", incrementality: Incrementality = .fullDataset, timestamp: Int64? = nil,
        tripUpdates: [RealtimeTripUpdate] = [], vehicles: [RealtimeVehicle] = [], alerts: [RealtimeAlert] = [],
        deletedEntityIDs: [String] = []
    ) {
        (self.version, self.incrementality, self.timestamp) = (version, incrementality, timestamp)
        (self.tripUpdates, self.vehicles, self.alerts, self.deletedEntityIDs) = (tripUpdates, vehicles, alerts, deletedEntityIDs)
    }
}

/// A `TripDescriptor`: which trip (instance) an entity is about.
public struct RealtimeTrip: Sendable, Hashable {
    /// The trip's relation to the static timetable (`TripDescriptor.ScheduleRelationship`).
    public enum Relationship: String, Sendable, Hashable {
        case scheduled = "SCHEDULED", added = "ADDED", unscheduled = "UNSCHEDULED", canceled = "CANCELED"
        case replacement = "REPLACEMENT", duplicated = "DUPLICATED", deleted = "DELETED", new = "NEW"
    }

    /// `trip_id` of the static feed, when given.
    public var tripID: String?
    /// `route_id`, when given.
    public var routeID: String?
    /// `direction_id` (0 or 1), when given.
    public var directionID: Int?
    /// `start_time` in GTFS form (`25:10:00` past midnight), when given.
    public var startTime: String?
    /// `start_date`, `YYYYMMDD`, when given.
    public var startDate: String?
    /// The relation to the timetable; `scheduled` when not given.
    public var relationship: Relationship

    /// A descriptor.
    public init(
        tripID: String? = nil, routeID: String? = nil, directionID: Int? = nil, startTime: String? = nil, startDate: String? = nil,
        relationship: Relationship = .scheduled
    ) {
        (self.tripID, self.routeID, self.directionID, self.startTime, self.startDate) = (tripID, routeID, directionID, startTime, startDate)
        self.relationship = relationship
    }
}

/// A `VehicleDescriptor`.
public struct RealtimeVehicleDescriptor: Sendable, Hashable {
    /// The vehicle's internal id.
    public var id: String?
    /// What riders see (a number on the vehicle).
    public var label: String?
    /// The licence plate.
    public var licensePlate: String?

    /// A descriptor.
    public init(id: String? = nil, label: String? = nil, licensePlate: String? = nil) {
        (self.id, self.label, self.licensePlate) = (id, label, licensePlate)
    }
}

/// A `StopTimeEvent`: a predicted arrival or departure, as a delay, an absolute time or both.
public struct RealtimeStopTimeEvent: Sendable, Hashable {
    /// Seconds late (negative: early) against the schedule.
    public var delay: Int?
    /// The predicted instant, in seconds since 1970; it wins over ``delay`` when both are given.
    public var time: Int64?
    /// The expected error, in seconds (0: certain).
    public var uncertainty: Int?

    /// An event.
    public init(delay: Int? = nil, time: Int64? = nil, uncertainty: Int? = nil) {
        (self.delay, self.time, self.uncertainty) = (delay, time, uncertainty)
    }

    /// Whether the event says anything about the time.
    public var hasData: Bool { delay != nil || time != nil }
}

/// A `StopTimeUpdate`: news of one stop of a trip.
public struct RealtimeStopTimeUpdate: Sendable, Hashable {
    /// `StopTimeUpdate.ScheduleRelationship`.
    public enum Relationship: String, Sendable, Hashable {
        case scheduled = "SCHEDULED", skipped = "SKIPPED", noData = "NO_DATA", unscheduled = "UNSCHEDULED"
    }

    /// The stop's `stop_sequence`, which identifies it when given.
    public var stopSequence: Int?
    /// The stop's `stop_id`, which identifies it when ``stopSequence`` is not given.
    public var stopID: String?
    /// The predicted arrival.
    public var arrival: RealtimeStopTimeEvent?
    /// The predicted departure.
    public var departure: RealtimeStopTimeEvent?
    /// What happens at the stop; `scheduled` when not given.
    public var relationship: Relationship

    /// An update.
    public init(
        stopSequence: Int? = nil, stopID: String? = nil, arrival: RealtimeStopTimeEvent? = nil, departure: RealtimeStopTimeEvent? = nil,
        relationship: Relationship = .scheduled
    ) {
        (self.stopSequence, self.stopID, self.arrival, self.departure, self.relationship) = (stopSequence, stopID, arrival, departure, relationship)
    }
}

/// A `TripUpdate` entity.
public struct RealtimeTripUpdate: Sendable, Hashable {
    /// The entity's id, unique in its message.
    public var entityID: String
    /// The trip (instance) it is about.
    public var trip: RealtimeTrip
    /// The vehicle serving it, when given.
    public var vehicle: RealtimeVehicleDescriptor?
    /// When the prediction was made, in seconds since 1970; the header's timestamp counts when `nil`.
    public var timestamp: Int64?
    /// The trip's current delay in seconds (experimental in the specification), when given.
    public var delay: Int?
    /// The news of each stop, in stop order.
    public var stopTimeUpdates: [RealtimeStopTimeUpdate]
    /// For a `DUPLICATED` trip: the new trip's id, start date and start time (`TripProperties`).
    public var newTripID: String?, newStartDate: String?, newStartTime: String?

    /// An update.
    public init(
        entityID: String, trip: RealtimeTrip, vehicle: RealtimeVehicleDescriptor? = nil, timestamp: Int64? = nil, delay: Int? = nil,
        stopTimeUpdates: [RealtimeStopTimeUpdate] = [], newTripID: String? = nil, newStartDate: String? = nil, newStartTime: String? = nil
    ) {
        (self.entityID, self.trip, self.vehicle, self.timestamp, self.delay) = (entityID, trip, vehicle, timestamp, delay)
        (self.stopTimeUpdates, self.newTripID, self.newStartDate, self.newStartTime) = (stopTimeUpdates, newTripID, newStartDate, newStartTime)
    }
}

/// A `VehiclePosition` entity.
public struct RealtimeVehicle: Sendable, Hashable {
    /// The entity's id.
    public var entityID: String
    /// The trip the vehicle serves, when given.
    public var trip: RealtimeTrip?
    /// The vehicle.
    public var vehicle: RealtimeVehicleDescriptor?
    /// WGS 84 latitude and longitude, when a position is given.
    public var latitude: Double?, longitude: Double?
    /// Degrees clockwise from north, when given.
    public var bearing: Double?
    /// Metres per second, when given.
    public var speed: Double?
    /// The `stop_sequence` of the stop it is at or heading to.
    public var currentStopSequence: Int?
    /// The stop it is at or heading to.
    public var stopID: String?
    /// `VehicleStopStatus` (`IN_TRANSIT_TO`, `STOPPED_AT`, `INCOMING_AT`), when given.
    public var stopStatus: String?
    /// When the position was measured, in seconds since 1970.
    public var timestamp: Int64?
    /// `CongestionLevel` and `OccupancyStatus` names, when given.
    public var congestion: String?, occupancy: String?

    /// A position.
    public init(
        entityID: String, trip: RealtimeTrip? = nil, vehicle: RealtimeVehicleDescriptor? = nil, latitude: Double? = nil,
        longitude: Double? = nil, bearing: Double? = nil, speed: Double? = nil, currentStopSequence: Int? = nil, stopID: String? = nil,
        stopStatus: String? = nil, timestamp: Int64? = nil, congestion: String? = nil, occupancy: String? = nil
    ) {
        (self.entityID, self.trip, self.vehicle, self.latitude, self.longitude) = (entityID, trip, vehicle, latitude, longitude)
        (self.bearing, self.speed, self.currentStopSequence, self.stopID, self.stopStatus) = (bearing, speed, currentStopSequence, stopID, stopStatus)
        (self.timestamp, self.congestion, self.occupancy) = (timestamp, congestion, occupancy)
    }
}

/// An `Alert` entity.
public struct RealtimeAlert: Sendable, Hashable {
    /// A `TimeRange`: open at either end when a bound is `nil`.
    public struct Period: Sendable, Hashable {
        public var start: Int64?, end: Int64?
        public init(start: Int64? = nil, end: Int64? = nil) { (self.start, self.end) = (start, end) }
    }

    /// An `EntitySelector`: what the alert is about.
    public struct InformedEntity: Sendable, Hashable {
        public var agencyID: String?, routeID: String?, routeType: Int?, directionID: Int?, tripID: String?, stopID: String?
        public init(
            agencyID: String? = nil, routeID: String? = nil, routeType: Int? = nil, directionID: Int? = nil, tripID: String? = nil,
            stopID: String? = nil
        ) {
            (self.agencyID, self.routeID, self.routeType, self.directionID, self.tripID, self.stopID) =
                (agencyID, routeID, routeType, directionID, tripID, stopID)
        }
    }

    /// A text in one language (`TranslatedString.Translation`); `language` `nil` when not given.
    public struct Text: Sendable, Hashable {
        public var text: String, language: String?
        public init(_ text: String, language: String? = nil) { (self.text, self.language) = (text, language) }
    }

    /// The entity's id.
    public var entityID: String
    /// When the alert is shown; always when empty.
    public var activePeriods: [Period]
    /// What it is about.
    public var informedEntities: [InformedEntity]
    /// `Cause`, `Effect` and `SeverityLevel` names (`STRIKE`, `NO_SERVICE`, `WARNING`), when given.
    public var cause: String?, effect: String?, severity: String?
    /// The texts, each in its translations.
    public var url: [Text], header: [Text], description: [Text]

    /// An alert.
    public init(
        entityID: String, activePeriods: [Period] = [], informedEntities: [InformedEntity] = [], cause: String? = nil,
        effect: String? = nil, severity: String? = nil, url: [Text] = [], header: [Text] = [], description: [Text] = []
    ) {
        (self.entityID, self.activePeriods, self.informedEntities) = (entityID, activePeriods, informedEntities)
        (self.cause, self.effect, self.severity, self.url, self.header, self.description) = (cause, effect, severity, url, header, description)
    }
}
