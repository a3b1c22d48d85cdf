import Foundation
import GTFS
import SwiftProtobuf
import Synchronization

// MARK: - Entities to values

/// Why an entity is passed over.
struct SkipEntity: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Turns one decoded `FeedEntity` into a ``RealtimeEntity`` and gathers the notes on it: an entity that
/// cannot be read whole is passed over with a note, a descriptive value that cannot be read is left out with
/// one.
struct EntityReader {
    let index: Int
    let offset: Int
    private(set) var notes: [String] = []
    private var id: String?

    init(index: Int, offset: Int) { (self.index, self.offset) = (index, offset) }

    /// The entity, or `nil` when it is passed over.
    mutating func read(_ entity: TransitRealtime_FeedEntity) -> RealtimeEntity? {
        id = entity.hasID ? entity.id : nil
        do throws(SkipEntity) {
            return try value(of: entity)
        } catch {
            notes.append("\(label) skipped: \(error.reason)")
            return nil
        }
    }

    /// The entity as notes name it; a long id is cut, so that a note stays a line.
    private var label: String {
        guard let id else { return "entity \(index) (at byte \(offset))" }
        let shown = id.count > 64 ? String(id.prefix(64)) + "…" : id
        return "entity \(index) (at byte \(offset), id \(shown))"
    }

    private mutating func note(_ text: String) { notes.append("\(label): \(text)") }

    private mutating func value(of entity: TransitRealtime_FeedEntity) throws(SkipEntity) -> RealtimeEntity {
        guard entity.hasID else { throw SkipEntity("no id") }
        if entity.isDeleted { return .deleted(entity.id) }
        let payloads = [(entity.hasTripUpdate, "trip_update"), (entity.hasVehicle, "vehicle"), (entity.hasAlert, "alert")]
        let present = payloads.filter(\.0).map(\.1)
        if present.count > 1 {
            // The stores keep one row set per entity id; the specification allows only one of them.
            note("carries \(present.joined(separator: ", ")); only its \(present[0]) is read")
        }
        if entity.hasTripUpdate { return .tripUpdate(try tripUpdate(entity.tripUpdate, id: entity.id)) }
        if entity.hasVehicle { return .vehicle(try vehicle(entity.vehicle, id: entity.id)) }
        if entity.hasAlert { return .alert(alert(entity.alert, id: entity.id)) }
        let others = [(entity.hasShape, "shape"), (entity.hasStop, "stop"), (entity.hasTripModifications, "trip_modifications")]
            .filter(\.0).map(\.1)
        if others.isEmpty { throw SkipEntity("none of trip_update, vehicle, alert") }
        throw SkipEntity("carries only \(others.joined(separator: ", ")), which is not read")
    }

    // MARK: Trip updates

    private mutating func tripUpdate(_ update: TransitRealtime_TripUpdate, id: String) throws(SkipEntity) -> RealtimeTripUpdate {
        guard update.hasTrip else { throw SkipEntity("trip update without a trip descriptor") }
        var result = RealtimeTripUpdate(entityID: id, trip: try trip(update.trip))
        if update.hasVehicle { result.vehicle = vehicleDescriptor(update.vehicle) }
        if update.hasTimestamp { result.timestamp = try seconds(update.timestamp, "TripUpdate.timestamp") }
        if update.hasDelay { result.delay = Int(update.delay) }
        result.stopTimeUpdates = try update.stopTimeUpdate.map { (stop) throws(SkipEntity) in try stopTimeUpdate(stop) }
        if update.hasTripProperties {
            let properties = update.tripProperties
            if properties.hasTripID { result.newTripID = properties.tripID }
            if properties.hasStartDate { result.newStartDate = properties.startDate }
            if properties.hasStartTime { result.newStartTime = properties.startTime }
        }
        return result
    }

    private func trip(_ descriptor: TransitRealtime_TripDescriptor) throws(SkipEntity) -> RealtimeTrip {
        var trip = RealtimeTrip()
        if descriptor.hasTripID { trip.tripID = descriptor.tripID }
        if descriptor.hasRouteID { trip.routeID = descriptor.routeID }
        if descriptor.hasDirectionID { trip.directionID = try int(descriptor.directionID, "TripDescriptor.direction_id") }
        if descriptor.hasStartTime { trip.startTime = descriptor.startTime }
        if descriptor.hasStartDate { trip.startDate = descriptor.startDate }
        // The relationship decides whether the trip runs, is added or is cancelled: an unknown one is not
        // read as SCHEDULED.
        if let unknown = unknownEnumValue(field: 4, in: descriptor) {
            throw SkipEntity("TripDescriptor.schedule_relationship \(unknown) is not a known value")
        }
        if descriptor.hasScheduleRelationship {
            guard let relationship = RealtimeTrip.Relationship(rawValue: descriptor.scheduleRelationship.protoName) else {
                throw SkipEntity("TripDescriptor.schedule_relationship \(descriptor.scheduleRelationship.protoName) is not read")
            }
            trip.relationship = relationship
        }
        return trip
    }

    private func vehicleDescriptor(_ descriptor: TransitRealtime_VehicleDescriptor) -> RealtimeVehicleDescriptor {
        RealtimeVehicleDescriptor(
            id: descriptor.hasID ? descriptor.id : nil, label: descriptor.hasLabel ? descriptor.label : nil,
            licensePlate: descriptor.hasLicensePlate ? descriptor.licensePlate : nil)
    }

    private func stopTimeUpdate(_ update: TransitRealtime_TripUpdate.StopTimeUpdate) throws(SkipEntity) -> RealtimeStopTimeUpdate {
        var result = RealtimeStopTimeUpdate()
        if update.hasStopSequence { result.stopSequence = try int(update.stopSequence, "StopTimeUpdate.stop_sequence") }
        if update.hasStopID { result.stopID = update.stopID }
        if update.hasArrival { result.arrival = event(update.arrival) }
        if update.hasDeparture { result.departure = event(update.departure) }
        // SKIPPED or NO_DATA change what the store predicts: an unknown relationship is not read as SCHEDULED.
        if let unknown = unknownEnumValue(field: 5, in: update) {
            throw SkipEntity("StopTimeUpdate.schedule_relationship \(unknown) is not a known value")
        }
        if update.hasScheduleRelationship {
            guard let relationship = RealtimeStopTimeUpdate.Relationship(rawValue: update.scheduleRelationship.protoName) else {
                throw SkipEntity("StopTimeUpdate.schedule_relationship \(update.scheduleRelationship.protoName) is not read")
            }
            result.relationship = relationship
        }
        return result
    }

    private func event(_ event: TransitRealtime_TripUpdate.StopTimeEvent) -> RealtimeStopTimeEvent {
        RealtimeStopTimeEvent(
            delay: event.hasDelay ? Int(event.delay) : nil, time: event.hasTime ? event.time : nil,
            uncertainty: event.hasUncertainty ? Int(event.uncertainty) : nil)
    }

    // MARK: Vehicle positions

    private mutating func vehicle(_ position: TransitRealtime_VehiclePosition, id: String) throws(SkipEntity) -> RealtimeVehicle {
        var result = RealtimeVehicle(entityID: id)
        if position.hasTrip { result.trip = try trip(position.trip) }
        if position.hasVehicle { result.vehicle = vehicleDescriptor(position.vehicle) }
        if position.hasPosition {
            let point = position.position
            result.latitude = finite(point.hasLatitude, point.latitude, "Position.latitude")
            result.longitude = finite(point.hasLongitude, point.longitude, "Position.longitude")
            result.bearing = finite(point.hasBearing, point.bearing, "Position.bearing")
            result.speed = finite(point.hasSpeed, point.speed, "Position.speed")
        }
        if position.hasCurrentStopSequence {
            result.currentStopSequence = try int(position.currentStopSequence, "VehiclePosition.current_stop_sequence")
        }
        if position.hasStopID { result.stopID = position.stopID }
        if position.hasTimestamp { result.timestamp = try seconds(position.timestamp, "VehiclePosition.timestamp") }
        result.stopStatus = name(position.hasCurrentStatus, position.currentStatus, field: 4, of: position, "VehiclePosition.current_status")
        result.congestion = name(
            position.hasCongestionLevel, position.congestionLevel, field: 6, of: position, "VehiclePosition.congestion_level")
        result.occupancy = name(
            position.hasOccupancyStatus, position.occupancyStatus, field: 9, of: position, "VehiclePosition.occupancy_status")
        return result
    }

    /// A float as a Double, or `nil` (with a note when given but not finite: NaN is no coordinate).
    private mutating func finite(_ given: Bool, _ value: Float, _ field: String) -> Double? {
        guard given else { return nil }
        guard value.isFinite else {
            note("\(field) \(value) is not a number; left out")
            return nil
        }
        return Double(value)
    }

    /// An enum's proto name when given, `nil` with a note when the value is one the definition lacks.
    private mutating func name<Value: ProtoNamed>(
        _ given: Bool, _ value: Value, field: UInt64, of message: some SwiftProtobuf.Message, _ label: String
    ) -> String? {
        if let unknown = unknownEnumValue(field: field, in: message) {
            note("\(label) \(unknown) is not a known value; left out")
            return nil
        }
        return given ? value.protoName : nil
    }

    // MARK: Alerts

    private mutating func alert(_ alert: TransitRealtime_Alert, id: String) -> RealtimeAlert {
        var result = RealtimeAlert(entityID: id)
        // `active_period` is deprecated for `communication_period` (when riders are told), which a board shows by.
        let periods = alert.activePeriod.isEmpty ? alert.communicationPeriod : alert.activePeriod
        result.activePeriods = periods.map { period(in: $0) }
        result.informedEntities = alert.informedEntity.map { selector in
            RealtimeAlert.InformedEntity(
                agencyID: selector.hasAgencyID ? selector.agencyID : nil, routeID: selector.hasRouteID ? selector.routeID : nil,
                routeType: selector.hasRouteType ? Int(selector.routeType) : nil,
                directionID: selector.hasDirectionID ? directionID(selector.directionID) : nil,
                tripID: selector.hasTrip && selector.trip.hasTripID ? selector.trip.tripID : nil,
                stopID: selector.hasStopID ? selector.stopID : nil)
        }
        result.cause = name(alert.hasCause, alert.cause, field: 6, of: alert, "Alert.cause")
        result.effect = name(alert.hasEffect, alert.effect, field: 7, of: alert, "Alert.effect")
        result.severity = name(alert.hasSeverityLevel, alert.severityLevel, field: 14, of: alert, "Alert.severity_level")
        if alert.hasURL { result.url = texts(alert.url, "Alert.url") }
        if alert.hasHeaderText { result.header = texts(alert.headerText, "Alert.header_text") }
        if alert.hasDescriptionText { result.description = texts(alert.descriptionText, "Alert.description_text") }
        return result
    }

    /// A period; a bound beyond Int64 is left open (producers write UInt64.max for "no end") with a note.
    private mutating func period(in range: TransitRealtime_TimeRange) -> RealtimeAlert.Period {
        var period = RealtimeAlert.Period()
        if range.hasStart { period.start = bound(range.start, "TimeRange.start") }
        if range.hasEnd { period.end = bound(range.end, "TimeRange.end") }
        return period
    }

    private mutating func bound(_ value: UInt64, _ field: String) -> Int64? {
        guard let seconds = Int64(exactly: value) else {
            note("\(field) \(value) is beyond Int64; left open")
            return nil
        }
        return seconds
    }

    private mutating func directionID(_ value: UInt32) -> Int? {
        guard let direction = Int(exactly: value) else {
            note("EntitySelector.direction_id \(value) does not fit an Int; left out")
            return nil
        }
        return direction
    }

    /// The translations; one without its (required) text is left out with a note.
    private mutating func texts(_ string: TransitRealtime_TranslatedString, _ field: String) -> [RealtimeAlert.Text] {
        string.translation.compactMap { translation in
            guard translation.hasText else {
                note("a translation of \(field) has no text; left out")
                return nil
            }
            return RealtimeAlert.Text(translation.text, language: translation.hasLanguage ? translation.language : nil)
        }
    }

    // MARK: Numbers

    private func seconds(_ value: UInt64, _ field: String) throws(SkipEntity) -> Int64 {
        guard let seconds = Int64(exactly: value) else { throw SkipEntity("\(field) \(value) is beyond Int64") }
        return seconds
    }

    private func int(_ value: UInt32, _ field: String) throws(SkipEntity) -> Int {
        guard let result = Int(exactly: value) else { throw SkipEntity("\(field) \(value) does not fit an Int") }
        return result
    }
}
