public import Foundation
import SwiftProtobuf

extension RealtimeMessage {
    /// The message as GTFS-Realtime protobuf bytes: one `FeedMessage` whose entities are the trip updates,
    /// then the vehicle positions, the alerts and the deleted ids, each in its array's order.
    ///
    /// What ``RealtimeFeed`` decodes from these bytes equals the message, except that latitude, longitude,
    /// bearing and speed pass through the protobuf's 32-bit `float`. A relationship of `SCHEDULED` is not
    /// written (it is the default); `nil` values are not written.
    /// - Throws: ``RealtimeEncodingError`` when a value does not fit its protobuf field (a negative
    ///   timestamp, a stop sequence beyond `uint32`), a name is not one of its enum's, or a position has
    ///   only one of latitude and longitude.
    public func serializedData() throws -> Data {
        var message = TransitRealtime_FeedMessage()
        message.header.gtfsRealtimeVersion = version
        message.header.incrementality = incrementality == .differential ? .differential : .fullDataset
        if let timestamp { message.header.timestamp = try EntityWriter(context: "header").seconds(timestamp, "timestamp") }
        for update in tripUpdates {
            let writer = EntityWriter(context: "trip update \(update.entityID)")
            message.entity.append(try writer.entity(update))
        }
        for vehicle in vehicles {
            let writer = EntityWriter(context: "vehicle \(vehicle.entityID)")
            message.entity.append(try writer.entity(vehicle))
        }
        for alert in alerts {
            let writer = EntityWriter(context: "alert \(alert.entityID)")
            message.entity.append(try writer.entity(alert))
        }
        for id in deletedEntityIDs {
            var entity = TransitRealtime_FeedEntity()
            (entity.id, entity.isDeleted) = (id, true)
            message.entity.append(entity)
        }
        return try message.serializedBytes()
    }
}

/// Why a `RealtimeMessage` could not be written as protobuf.
public struct RealtimeEncodingError: Error, CustomStringConvertible, Sendable, Hashable {
    /// Which entity (or the header) and what does not fit.
    public let description: String
}

/// Builds the protobuf messages of one entity; `context` names it in errors.
struct EntityWriter {
    let context: String

    func entity(_ update: RealtimeTripUpdate) throws(RealtimeEncodingError) -> TransitRealtime_FeedEntity {
        var proto = TransitRealtime_TripUpdate()
        proto.trip = try trip(update.trip)
        if let vehicle = update.vehicle { proto.vehicle = descriptor(vehicle) }
        if let timestamp = update.timestamp { proto.timestamp = try seconds(timestamp, "timestamp") }
        if let delay = update.delay { proto.delay = try int32(delay, "delay") }
        proto.stopTimeUpdate = try update.stopTimeUpdates.map { (stop) throws(RealtimeEncodingError) in try stopTimeUpdate(stop) }
        if update.newTripID != nil || update.newStartDate != nil || update.newStartTime != nil {
            var properties = TransitRealtime_TripUpdate.TripProperties()
            if let id = update.newTripID { properties.tripID = id }
            if let date = update.newStartDate { properties.startDate = date }
            if let time = update.newStartTime { properties.startTime = time }
            proto.tripProperties = properties
        }
        var entity = TransitRealtime_FeedEntity()
        (entity.id, entity.tripUpdate) = (update.entityID, proto)
        return entity
    }

    func entity(_ vehicle: RealtimeVehicle) throws(RealtimeEncodingError) -> TransitRealtime_FeedEntity {
        var proto = TransitRealtime_VehiclePosition()
        if let trip = vehicle.trip { proto.trip = try self.trip(trip) }
        if let descriptor = vehicle.vehicle { proto.vehicle = self.descriptor(descriptor) }
        switch (vehicle.latitude, vehicle.longitude) {
        case (let latitude?, let longitude?):
            (proto.position.latitude, proto.position.longitude) = (Float(latitude), Float(longitude))
            if let bearing = vehicle.bearing { proto.position.bearing = Float(bearing) }
            if let speed = vehicle.speed { proto.position.speed = Float(speed) }
        case (nil, nil):
            // Bearing and speed live in Position, which requires latitude and longitude.
            guard vehicle.bearing == nil, vehicle.speed == nil else { throw fail("a bearing or speed without a position") }
        default:
            throw fail("only one of latitude and longitude")
        }
        if let sequence = vehicle.currentStopSequence { proto.currentStopSequence = try uint32(sequence, "current_stop_sequence") }
        if let stop = vehicle.stopID { proto.stopID = stop }
        if let status = vehicle.stopStatus { proto.currentStatus = try value(named: status, "current_status") }
        if let timestamp = vehicle.timestamp { proto.timestamp = try seconds(timestamp, "timestamp") }
        if let congestion = vehicle.congestion { proto.congestionLevel = try value(named: congestion, "congestion_level") }
        if let occupancy = vehicle.occupancy { proto.occupancyStatus = try value(named: occupancy, "occupancy_status") }
        var entity = TransitRealtime_FeedEntity()
        (entity.id, entity.vehicle) = (vehicle.entityID, proto)
        return entity
    }

    func entity(_ alert: RealtimeAlert) throws(RealtimeEncodingError) -> TransitRealtime_FeedEntity {
        var proto = TransitRealtime_Alert()
        for period in alert.activePeriods {
            var range = TransitRealtime_TimeRange()
            if let start = period.start { range.start = try seconds(start, "active_period.start") }
            if let end = period.end { range.end = try seconds(end, "active_period.end") }
            proto.activePeriod.append(range)
        }
        for informed in alert.informedEntities { proto.informedEntity.append(try selector(informed)) }
        if let cause = alert.cause { proto.cause = try value(named: cause, "cause") }
        if let effect = alert.effect { proto.effect = try value(named: effect, "effect") }
        if let severity = alert.severity { proto.severityLevel = try value(named: severity, "severity_level") }
        if !alert.url.isEmpty { proto.url = translated(alert.url) }
        if !alert.header.isEmpty { proto.headerText = translated(alert.header) }
        if !alert.description.isEmpty { proto.descriptionText = translated(alert.description) }
        var entity = TransitRealtime_FeedEntity()
        (entity.id, entity.alert) = (alert.entityID, proto)
        return entity
    }

    private func trip(_ trip: RealtimeTrip) throws(RealtimeEncodingError) -> TransitRealtime_TripDescriptor {
        var proto = TransitRealtime_TripDescriptor()
        if let id = trip.tripID { proto.tripID = id }
        if let route = trip.routeID { proto.routeID = route }
        if let direction = trip.directionID { proto.directionID = try uint32(direction, "direction_id") }
        if let time = trip.startTime { proto.startTime = time }
        if let date = trip.startDate { proto.startDate = date }
        if trip.relationship != .scheduled { proto.scheduleRelationship = try value(named: trip.relationship.rawValue, "schedule_relationship") }
        return proto
    }

    private func descriptor(_ vehicle: RealtimeVehicleDescriptor) -> TransitRealtime_VehicleDescriptor {
        var proto = TransitRealtime_VehicleDescriptor()
        if let id = vehicle.id { proto.id = id }
        if let label = vehicle.label { proto.label = label }
        if let plate = vehicle.licensePlate { proto.licensePlate = plate }
        return proto
    }

    private func stopTimeUpdate(_ update: RealtimeStopTimeUpdate) throws(RealtimeEncodingError) -> TransitRealtime_TripUpdate.StopTimeUpdate {
        var proto = TransitRealtime_TripUpdate.StopTimeUpdate()
        if let sequence = update.stopSequence { proto.stopSequence = try uint32(sequence, "stop_sequence") }
        if let stop = update.stopID { proto.stopID = stop }
        if let arrival = update.arrival { proto.arrival = try event(arrival) }
        if let departure = update.departure { proto.departure = try event(departure) }
        if update.relationship != .scheduled {
            proto.scheduleRelationship = try value(named: update.relationship.rawValue, "stop schedule_relationship")
        }
        return proto
    }

    private func event(_ event: RealtimeStopTimeEvent) throws(RealtimeEncodingError) -> TransitRealtime_TripUpdate.StopTimeEvent {
        var proto = TransitRealtime_TripUpdate.StopTimeEvent()
        if let delay = event.delay { proto.delay = try int32(delay, "stop delay") }
        if let time = event.time { proto.time = time }
        if let uncertainty = event.uncertainty { proto.uncertainty = try int32(uncertainty, "uncertainty") }
        return proto
    }

    private func selector(_ informed: RealtimeAlert.InformedEntity) throws(RealtimeEncodingError) -> TransitRealtime_EntitySelector {
        var proto = TransitRealtime_EntitySelector()
        if let agency = informed.agencyID { proto.agencyID = agency }
        if let route = informed.routeID { proto.routeID = route }
        if let type = informed.routeType { proto.routeType = try int32(type, "route_type") }
        if let direction = informed.directionID { proto.directionID = try uint32(direction, "direction_id") }
        if let trip = informed.tripID { proto.trip.tripID = trip }
        if let stop = informed.stopID { proto.stopID = stop }
        return proto
    }

    private func translated(_ texts: [RealtimeAlert.Text]) -> TransitRealtime_TranslatedString {
        var proto = TransitRealtime_TranslatedString()
        proto.translation = texts.map { text in
            var translation = TransitRealtime_TranslatedString.Translation()
            translation.text = text.text
            if let language = text.language { translation.language = language }
            return translation
        }
        return proto
    }

    // MARK: Numbers and names

    func fail(_ reason: String) -> RealtimeEncodingError { RealtimeEncodingError(description: "\(context): \(reason)") }

    func seconds(_ value: Int64, _ field: String) throws(RealtimeEncodingError) -> UInt64 {
        guard let seconds = UInt64(exactly: value) else { throw fail("\(field) \(value) is negative") }
        return seconds
    }

    private func uint32(_ value: Int, _ field: String) throws(RealtimeEncodingError) -> UInt32 {
        guard let result = UInt32(exactly: value) else { throw fail("\(field) \(value) is outside uint32") }
        return result
    }

    private func int32(_ value: Int, _ field: String) throws(RealtimeEncodingError) -> Int32 {
        guard let result = Int32(exactly: value) else { throw fail("\(field) \(value) is outside int32") }
        return result
    }

    private func value<Value: ProtoNamed>(named name: String, _ field: String) throws(RealtimeEncodingError) -> Value {
        guard let value = Value(protoName: name) else { throw fail("\(field) \(name) is not one of its values") }
        return value
    }
}

// MARK: - Enum value names

/// A protobuf enum whose values the model carries by their names in the definition (`STRIKE`,
/// `NO_SERVICE`). The names are spelled out per enum, in exhaustive switches, so that a value added to the
/// definition fails to compile until it has its name; a test checks them against the generated name maps.
protocol ProtoNamed: CaseIterable {
    /// The value's name in gtfs-realtime.proto.
    var protoName: String { get }
}

extension ProtoNamed {
    /// The value of a name, `nil` when the enum has no such value.
    init?(protoName: String) {
        guard let value = Self.allCases.first(where: { $0.protoName == protoName }) else { return nil }
        self = value
    }
}

extension TransitRealtime_FeedHeader.Incrementality: ProtoNamed {
    var protoName: String {
        switch self {
        case .fullDataset: "FULL_DATASET"
        case .differential: "DIFFERENTIAL"
        }
    }
}

extension TransitRealtime_TripDescriptor.ScheduleRelationship: ProtoNamed {
    var protoName: String {
        switch self {
        case .scheduled: "SCHEDULED"
        case .added: "ADDED"
        case .unscheduled: "UNSCHEDULED"
        case .canceled: "CANCELED"
        case .replacement: "REPLACEMENT"
        case .duplicated: "DUPLICATED"
        case .deleted: "DELETED"
        case .new: "NEW"
        }
    }
}

extension TransitRealtime_TripUpdate.StopTimeUpdate.ScheduleRelationship: ProtoNamed {
    var protoName: String {
        switch self {
        case .scheduled: "SCHEDULED"
        case .skipped: "SKIPPED"
        case .noData: "NO_DATA"
        case .unscheduled: "UNSCHEDULED"
        }
    }
}

extension TransitRealtime_VehiclePosition.VehicleStopStatus: ProtoNamed {
    var protoName: String {
        switch self {
        case .incomingAt: "INCOMING_AT"
        case .stoppedAt: "STOPPED_AT"
        case .inTransitTo: "IN_TRANSIT_TO"
        }
    }
}

extension TransitRealtime_VehiclePosition.CongestionLevel: ProtoNamed {
    var protoName: String {
        switch self {
        case .unknownCongestionLevel: "UNKNOWN_CONGESTION_LEVEL"
        case .runningSmoothly: "RUNNING_SMOOTHLY"
        case .stopAndGo: "STOP_AND_GO"
        case .congestion: "CONGESTION"
        case .severeCongestion: "SEVERE_CONGESTION"
        }
    }
}

extension TransitRealtime_VehiclePosition.OccupancyStatus: ProtoNamed {
    var protoName: String {
        switch self {
        case .empty: "EMPTY"
        case .manySeatsAvailable: "MANY_SEATS_AVAILABLE"
        case .fewSeatsAvailable: "FEW_SEATS_AVAILABLE"
        case .standingRoomOnly: "STANDING_ROOM_ONLY"
        case .crushedStandingRoomOnly: "CRUSHED_STANDING_ROOM_ONLY"
        case .full: "FULL"
        case .notAcceptingPassengers: "NOT_ACCEPTING_PASSENGERS"
        case .noDataAvailable: "NO_DATA_AVAILABLE"
        case .notBoardable: "NOT_BOARDABLE"
        }
    }
}

extension TransitRealtime_Alert.Cause: ProtoNamed {
    var protoName: String {
        switch self {
        case .unknownCause: "UNKNOWN_CAUSE"
        case .otherCause: "OTHER_CAUSE"
        case .technicalProblem: "TECHNICAL_PROBLEM"
        case .strike: "STRIKE"
        case .demonstration: "DEMONSTRATION"
        case .accident: "ACCIDENT"
        case .holiday: "HOLIDAY"
        case .weather: "WEATHER"
        case .maintenance: "MAINTENANCE"
        case .construction: "CONSTRUCTION"
        case .policeActivity: "POLICE_ACTIVITY"
        case .medicalEmergency: "MEDICAL_EMERGENCY"
        case .specialEvent: "SPECIAL_EVENT"
        }
    }
}

extension TransitRealtime_Alert.Effect: ProtoNamed {
    var protoName: String {
        switch self {
        case .noService: "NO_SERVICE"
        case .reducedService: "REDUCED_SERVICE"
        case .significantDelays: "SIGNIFICANT_DELAYS"
        case .detour: "DETOUR"
        case .additionalService: "ADDITIONAL_SERVICE"
        case .modifiedService: "MODIFIED_SERVICE"
        case .otherEffect: "OTHER_EFFECT"
        case .unknownEffect: "UNKNOWN_EFFECT"
        case .stopMoved: "STOP_MOVED"
        case .noEffect: "NO_EFFECT"
        case .accessibilityIssue: "ACCESSIBILITY_ISSUE"
        }
    }
}

extension TransitRealtime_Alert.SeverityLevel: ProtoNamed {
    var protoName: String {
        switch self {
        case .unknownSeverity: "UNKNOWN_SEVERITY"
        case .info: "INFO"
        case .warning: "WARNING"
        case .severe: "SEVERE"
        }
    }
}
