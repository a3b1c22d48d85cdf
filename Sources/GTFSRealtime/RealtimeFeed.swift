public import Foundation
import GTFS
import SwiftProtobuf
import Synchronization

/// A GTFS-Realtime `FeedMessage` read from its protobuf bytes an entity at a time: the store applies it in
/// the memory of one entity, never of the whole decoded message.
///
/// The initializer checks the message's framing (every top-level field, without decoding the entities) and
/// decodes the header; ``forEachEntity(_:)`` then decodes each `FeedEntity` from its own bytes, turns it into
/// the store-neutral values of GTFSStoreCore and passes it on with the SHA-256 of those bytes.
///
/// ```swift
/// let feed = try RealtimeFeed(data: try Data(contentsOf: url))
/// try feed.forEachEntity { entity, digest in print(entity.id, digest) }
/// print(feed.skipped)   // entities passed over, and values left out, each with why
/// ```
///
/// What is read: trip updates, vehicle positions and alerts, and entities marked `is_deleted`. An entity
/// without an id, without any of the three, or with a trip update that names no trip is passed over (see
/// ``skipped``). An enum value the definition does not know (a producer on a newer version) is left out
/// with a note where it only describes (congestion, occupancy, cause, effect, severity, stop status); where
/// it decides what the store does (a trip's or a stop's schedule relationship) the entity is passed over.
/// A `uint64` timestamp beyond the signed 64-bit range passes the entity over; an alert period's bound
/// beyond it is left open, with a note.
public struct RealtimeFeed: RealtimeEntitySource, Sendable {
    /// The largest message read by default: 32 MiB, far above what publishers serve (a city's trip updates
    /// are a few MB) and small enough that a wrong URL does not exhaust memory.
    public static let defaultMaxBytes = 32 << 20

    /// The message's header, decoded by the initializer.
    public let header: RealtimeHeader
    /// The SHA-256 of the message's bytes, as 64 lowercase hex digits.
    public let messageDigest: String
    /// How many `entity` fields the message has, counting those ``forEachEntity(_:)`` passes over.
    public let entityFieldCount: Int

    private let data: Data
    private let headerNotes: [String]
    private let notes = NoteBox()

    /// Notes of the last ``forEachEntity(_:)`` pass (of this value or of a copy: copies share them), after
    /// any about the header: each entity passed over and each value left out, with why.
    public var skipped: [String] { headerNotes + notes.all }

    /// Checks a message's framing and decodes its header.
    /// - Parameters:
    ///   - data: the bytes of one `FeedMessage`, as served.
    ///   - maxBytes: the largest message accepted; a larger one is refused before any byte is read.
    /// - Throws: ``RealtimeDecodingError`` when the message is too large, a top-level field is cut short or
    ///   garbled, or the header is missing, undecodable, without `gtfs_realtime_version`, or has an
    ///   incrementality the definition lacks or a timestamp beyond Int64.
    public init(data: Data, maxBytes: Int = RealtimeFeed.defaultMaxBytes) throws(RealtimeDecodingError) {
        guard data.count <= maxBytes else { throw .tooLarge(size: data.count, limit: maxBytes) }
        var headerFields: [WireField] = []
        var entities = 0
        var scanner = WireScanner(data)
        while let field = try scanner.nextTopLevelField() {
            if field.number == FeedField.header { headerFields.append(field) }
            if field.number == FeedField.entity { entities += 1 }
        }
        (header, headerNotes) = try Self.decodeHeader(headerFields, in: data)
        (self.data, entityFieldCount) = (data, entities)
        let hasher = ContentHasher()
        data.withUnsafeBytes { hasher.update($0) }
        messageDigest = hasher.finish() ?? ""
    }

    /// Decodes each entity in the message's order and calls `body` with it and the SHA-256 of its bytes
    /// (the same bytes give the same digest, so an unchanged entity is recognised).
    ///
    /// Entities passed over are noted in ``skipped``, which this pass starts afresh. A protobuf error in an
    /// entity throws before `body` sees it; the entities before it have been delivered, so apply a message
    /// in a transaction (the stores do) to refuse it whole.
    /// - Throws: what `body` throws, or ``RealtimeDecodingError/entity(index:offset:reason:)``.
    public func forEachEntity(_ body: (RealtimeEntity, _ digest: String) throws -> Void) throws {
        notes.reset()
        var scanner = WireScanner(data)
        var index = 0
        while let field = try scanner.nextTopLevelField() {
            guard field.number == FeedField.entity, let payload = field.payload else { continue }
            defer { index += 1 }
            let bytes = data[payload]
            let decoded: TransitRealtime_FeedEntity
            do {
                // partial: the required fields (id, trip, latitude…) are checked below, so that one entity
                // without them is passed over instead of refusing the message.
                decoded = try TransitRealtime_FeedEntity(serializedBytes: bytes, partial: true)
            } catch {
                throw RealtimeDecodingError.entity(index: index, offset: field.offset, reason: protobufErrorText(error))
            }
            var reader = EntityReader(index: index, offset: field.offset)
            let entity = reader.read(decoded)
            notes.append(reader.notes)
            if let entity { try body(entity, Self.digest(bytes)) }
        }
    }

    private static func digest(_ bytes: Data) -> String {
        let hasher = ContentHasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finish() ?? ""
    }

    /// Merges the header's occurrences (a repeated non-repeated field merges, as protobuf reads it) and
    /// checks what the stores rely on.
    private static func decodeHeader(
        _ fields: [WireField], in data: Data
    ) throws(RealtimeDecodingError) -> (RealtimeHeader, [String]) {
        guard let first = fields.first else { throw .header(offset: nil, reason: "the message has no header (field 1)") }
        var header = TransitRealtime_FeedHeader()
        for field in fields {
            guard let payload = field.payload else { continue }
            do {
                try header.merge(serializedBytes: data[payload], partial: true)
            } catch {
                throw .header(offset: field.offset, reason: protobufErrorText(error))
            }
        }
        let fail = { (reason: String) in RealtimeDecodingError.header(offset: first.offset, reason: reason) }
        guard header.hasGtfsRealtimeVersion else { throw fail("no gtfs_realtime_version") }
        // An unknown incrementality decides whether entities missing from the message are deleted: refused
        // rather than guessed.
        if let unknown = unknownEnumValue(field: 2, in: header) { throw fail("incrementality \(unknown) is not a known value") }
        var timestamp: Int64?
        if header.hasTimestamp {
            guard let seconds = Int64(exactly: header.timestamp) else { throw fail("timestamp \(header.timestamp) is beyond Int64") }
            timestamp = seconds
        }
        let incrementality: RealtimeMessage.Incrementality = header.incrementality == .differential ? .differential : .fullDataset
        var notes: [String] = []
        if fields.count > 1 { notes.append("the header is given \(fields.count) times; merged") }
        return (RealtimeHeader(version: header.gtfsRealtimeVersion, incrementality: incrementality, timestamp: timestamp), notes)
    }
}

/// Why a message was refused.
public enum RealtimeDecodingError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The message is larger than the limit it was read with; nothing was decoded.
    case tooLarge(size: Int, limit: Int)
    /// A top-level field is cut short or garbled at `offset` (counted from the message's first byte).
    case malformed(offset: Int, reason: String)
    /// The header is missing (`offset` `nil`), undecodable or incomplete.
    case header(offset: Int?, reason: String)
    /// An entity does not decode: the `index`th `entity` field (from 0), whose tag is at byte `offset`.
    case entity(index: Int, offset: Int, reason: String)

    /// One line: what is wrong and where, never the bytes themselves.
    public var description: String {
        switch self {
        case .tooLarge(let size, let limit): "message is \(size) bytes, more than the \(limit) allowed"
        case .malformed(let offset, let reason): "bytes \(offset)…: \(reason)"
        case .header(nil, let reason): "header: \(reason)"
        case .header(let offset?, let reason): "header (at byte \(offset)): \(reason)"
        case .entity(let index, let offset, let reason): "entity \(index) (at byte \(offset)): \(reason)"
        }
    }
}

/// The field numbers of `FeedMessage`.
enum FeedField {
    static let header: UInt64 = 1
    static let entity: UInt64 = 2
}

extension WireScanner {
    /// The next top-level field of a `FeedMessage`, its framing checked; `nil` at the end.
    mutating func nextTopLevelField() throws(RealtimeDecodingError) -> WireField? {
        let field: WireField?
        do {
            field = try next()
        } catch {
            throw .malformed(offset: error.offset, reason: error.reason)
        }
        guard let field else { return nil }
        if field.number == FeedField.header || field.number == FeedField.entity, field.payload == nil {
            let name = field.number == FeedField.header ? "header" : "entity"
            throw .malformed(offset: field.offset, reason: "field \(field.number) (\(name)) has wire type \(field.wireType), not length-delimited")
        }
        return field
    }
}

/// Notes gathered during a pass over entities: read after the pass, so a reference shared by the value's
/// copies.
final class NoteBox: Sendable {
    private let notes = Mutex<[String]>([])

    var all: [String] { notes.withLock { $0 } }

    func reset() { notes.withLock { $0.removeAll() } }

    func append(_ more: [String]) {
        guard !more.isEmpty else { return }
        notes.withLock { $0.append(contentsOf: more) }
    }
}

/// A protobuf error in words.
func protobufErrorText(_ error: any Error) -> String {
    switch error as? BinaryDecodingError {
    case .truncated?: "truncated: a field runs past the end"
    case .malformedProtobuf?: "not valid protobuf"
    case .invalidUTF8?: "a string is not valid UTF-8"
    case .messageDepthLimit?: "messages nested too deep"
    case .trailingGarbage?: "bytes after the end"
    case .missingRequiredFields?: "required fields missing"
    default: String(describing: error)
    }
}

/// The value of an enum field that protobuf kept as an unknown field because the definition does not list it
/// (proto2 enums are closed), or `nil` when there is none.
func unknownEnumValue(field number: UInt64, in message: some SwiftProtobuf.Message) -> Int32? {
    let unknown = message.unknownFields.data
    guard !unknown.isEmpty else { return nil }
    var scanner = WireScanner(unknown)
    var found: Int32?
    // The library wrote these bytes itself, so they are well-formed; a failure just ends the search.
    while let field = try? scanner.next() {
        if field.number == number, let value = field.varint { found = Int32(truncatingIfNeeded: value) }
    }
    return found
}

// MARK: - The wire format

/// One field as the protobuf wire format frames it.
struct WireField {
    /// The field number.
    let number: UInt64
    /// The wire type: 0 varint, 1 fixed64, 2 length-delimited, 3 group, 5 fixed32.
    let wireType: UInt64
    /// The offset of its tag from the scanned bytes' first byte.
    let offset: Int
    /// The indices of a length-delimited field's content in the scanned `Data`.
    let payload: Range<Int>?
    /// A varint field's value.
    let varint: UInt64?
}

/// A framing error: where (from the first byte) and what.
struct WireError: Error {
    let offset: Int
    let reason: String
}

/// Walks the fields of protobuf bytes without decoding them: their number, wire type and extent. Every
/// length and varint is checked against the bytes left, so garbled input ends in a `WireError`, never in a
/// read past the end.
struct WireScanner {
    /// The largest field number protobuf allows (2^29 − 1).
    static let maxFieldNumber: UInt64 = (1 << 29) - 1
    /// How deeply groups may nest while skipped: what swift-protobuf allows messages.
    static let maxGroupDepth = 100

    private let data: Data
    private var index: Int

    init(_ data: Data) {
        self.data = data
        index = data.startIndex
    }

    /// The next field, its value skipped; `nil` at the end of the bytes.
    mutating func next() throws(WireError) -> WireField? {
        guard index < data.endIndex else { return nil }
        let start = index
        let (number, wireType) = try key()
        guard wireType != 4 else { throw WireError(offset: offset(start), reason: "end of group \(number) without its start") }
        let (payload, varint) = try skipValue(number: number, wireType: wireType, start: start, depth: 0)
        return WireField(number: number, wireType: wireType, offset: offset(start), payload: payload, varint: varint)
    }

    private func offset(_ position: Int) -> Int { position - data.startIndex }

    private mutating func key() throws(WireError) -> (number: UInt64, wireType: UInt64) {
        let start = index
        let key = try varint()
        let number = key >> 3
        guard number >= 1, number <= Self.maxFieldNumber else {
            throw WireError(offset: offset(start), reason: "field number \(number) is outside 1…\(Self.maxFieldNumber)")
        }
        return (number, key & 7)
    }

    /// Skips a field's value; returns a length-delimited field's content or a varint's value.
    private mutating func skipValue(
        number: UInt64, wireType: UInt64, start: Int, depth: Int
    ) throws(WireError) -> (payload: Range<Int>?, varint: UInt64?) {
        switch wireType {
        case 0:
            return (nil, try varint())
        case 1, 5:
            try skip(wireType == 1 ? 8 : 4, start: start)
        case 2:
            let length = try varint()
            let left = data.endIndex - index
            // Compared as UInt64 first: a declared length of 2^62 must not be turned into an Int and added.
            guard length <= UInt64(left) else {
                throw WireError(offset: offset(start), reason: "field \(number) declares \(length) bytes, only \(left) follow")
            }
            let payload = index ..< index + Int(length)
            index = payload.upperBound
            return (payload, nil)
        case 3:
            try skipGroup(number: number, start: start, depth: depth + 1)
        default:
            throw WireError(offset: offset(start), reason: "field \(number) has wire type \(wireType), which does not exist")
        }
        return (nil, nil)
    }

    private mutating func skip(_ count: Int, start: Int) throws(WireError) {
        guard data.endIndex - index >= count else { throw WireError(offset: offset(start), reason: "truncated field") }
        index += count
    }

    /// Skips the fields of a group up to its end tag (same number).
    private mutating func skipGroup(number: UInt64, start: Int, depth: Int) throws(WireError) {
        guard depth <= Self.maxGroupDepth else { throw WireError(offset: offset(start), reason: "groups nested too deep") }
        while true {
            guard index < data.endIndex else { throw WireError(offset: offset(start), reason: "group \(number) is not closed") }
            let fieldStart = index
            let (inner, wireType) = try key()
            if wireType == 4 {
                guard inner == number else {
                    throw WireError(offset: offset(fieldStart), reason: "group \(number) closed as group \(inner)")
                }
                return
            }
            _ = try skipValue(number: inner, wireType: wireType, start: fieldStart, depth: depth)
        }
    }

    /// A base-128 varint of at most 10 bytes whose value fits 64 bits.
    private mutating func varint() throws(WireError) -> UInt64 {
        let start = index
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < data.endIndex else { throw WireError(offset: offset(start), reason: "truncated varint") }
            let byte = data[index]
            index += 1
            // The tenth byte holds the 64th bit only: anything more is not a 64-bit varint.
            guard shift < 63 || byte <= 1 else { throw WireError(offset: offset(start), reason: "varint longer than 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }
}

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
