import Foundation
@testable import GTFSRealtime
import TestSupport
import Testing

/// RealtimeFeed and RealtimeMessage.serializedData(): values through protobuf and back, the fixtures the
/// Python bindings wrote (Fixtures/make-fixtures.py), and bytes that are not a message.
@Suite struct RealtimeFeedTests {
    /// The fixtures' reference time, as make-fixtures.py has it.
    static let t0: Int64 = 1_764_000_000

    // MARK: Round trips

    @Test func everyFieldSurvivesARoundTrip() throws {
        let message = Self.fullMessage()
        let decoded = try Self.decode(try message.serializedData())
        #expect(decoded.message == message)
        #expect(decoded.skipped.isEmpty)
    }

    @Test func seededRandomMessagesSurviveARoundTrip() throws {
        var random = SeededRandom(seed: 20_251_124)
        for _ in 0 ..< 300 {
            let message = RandomMessages.message(&random)
            let decoded = try Self.decode(try message.serializedData())
            #expect(decoded.message == message)
        }
    }

    @Test func headerAndDigests() throws {
        let data = try Self.fullMessage().serializedData()
        let feed = try RealtimeFeed(data: data)
        #expect(feed.header == RealtimeHeader(version: "2.0", incrementality: .fullDataset, timestamp: Self.t0))
        #expect(feed.messageDigest.count == 64)
        #expect(try RealtimeFeed(data: data).messageDigest == feed.messageDigest)
        var digests: [String: String] = [:]
        try feed.forEachEntity { entity, digest in digests[entity.id] = digest }
        #expect(Set(digests.values).count == digests.count)
        #expect(digests.values.allSatisfy { $0.count == 64 })

        // One entity changed: its digest changes, the others' stay.
        var changed = Self.fullMessage()
        changed.vehicles[0].speed = 3.5
        var after: [String: String] = [:]
        try RealtimeFeed(data: try changed.serializedData()).forEachEntity { entity, digest in after[entity.id] = digest }
        #expect(after["vp-full"] != digests["vp-full"])
        #expect(after.filter { $0.key != "vp-full" } == digests.filter { $0.key != "vp-full" })
    }

    @Test func aSliceWithAnOffsetReadsTheSame() throws {
        let data = try Self.fullMessage().serializedData()
        let padded = Data([0xFF, 0xFF, 0xFF]) + data
        let slice = padded[3...]
        #expect(slice.startIndex == 3)
        #expect(try Self.decode(slice).message == Self.fullMessage())
    }

    @Test func skippedNotesStartAfreshEachPass() throws {
        let feed = try RealtimeFeed(data: try Self.fixture("unknown-values.pb"))
        try feed.forEachEntity { _, _ in }
        let first = feed.skipped
        try feed.forEachEntity { _, _ in }
        #expect(feed.skipped == first)
        #expect(!first.isEmpty)
    }

    @Test func whatTheBodyThrowsPassesThrough() throws {
        struct Stop: Error {}
        let feed = try RealtimeFeed(data: try Self.fixture("trip-updates.pb"))
        var seen = 0
        #expect(throws: Stop.self) {
            try feed.forEachEntity { _, _ in
                seen += 1
                throw Stop()
            }
        }
        #expect(seen == 1)
    }

    // MARK: Encoding refusals

    @Test func valuesThatDoNotFitAreRefused() throws {
        let trip = RealtimeTrip(tripID: "T")
        let cases: [(RealtimeMessage, String)] = [
            (RealtimeMessage(timestamp: -1), "header: timestamp -1 is negative"),
            (
                RealtimeMessage(tripUpdates: [
                    RealtimeTripUpdate(entityID: "a", trip: trip, stopTimeUpdates: [RealtimeStopTimeUpdate(stopSequence: -1)])
                ]),
                "trip update a: stop_sequence -1 is outside uint32"
            ),
            (RealtimeMessage(alerts: [RealtimeAlert(entityID: "b", cause: "BAD_LUCK")]), "alert b: cause BAD_LUCK is not one of its values"),
            (RealtimeMessage(vehicles: [RealtimeVehicle(entityID: "c", latitude: 52)]), "vehicle c: only one of latitude and longitude"),
            (RealtimeMessage(vehicles: [RealtimeVehicle(entityID: "d", speed: 3)]), "vehicle d: a bearing or speed without a position"),
            (RealtimeMessage(vehicles: [RealtimeVehicle(entityID: "e", timestamp: -5)]), "vehicle e: timestamp -5 is negative"),
            (
                RealtimeMessage(tripUpdates: [RealtimeTripUpdate(entityID: "f", trip: trip, delay: Int(Int32.max) + 1)]),
                "trip update f: delay 2147483648 is outside int32"
            ),
        ]
        for (message, text) in cases {
            #expect {
                _ = try message.serializedData()
            } throws: { error in
                (error as? RealtimeEncodingError)?.description == text
            }
        }
    }

    /// Each enum's names and numbers, against the definition's text: the switches of RealtimeEncoding.swift
    /// are written by hand.
    @Test func enumNamesMatchTheDefinition() throws {
        let proto = try String(contentsOf: Self.sourceRoot.appending(path: "Sources/GTFSRealtime/Proto/gtfs-realtime.proto"), encoding: .utf8)
        func check<Value: ProtoNamed & RawRepresentable>(_ type: Value.Type, _ name: String) where Value.RawValue == Int {
            let defined = Self.enumValues(named: name, in: proto)
            let ours = Dictionary(uniqueKeysWithValues: Value.allCases.map { ($0.protoName, $0.rawValue) })
            #expect(!defined.isEmpty)
            #expect(ours == defined, "enum \(name)")
            for value in Value.allCases { #expect(Value(protoName: value.protoName)?.rawValue == value.rawValue) }
        }
        check(TransitRealtime_FeedHeader.Incrementality.self, "Incrementality")
        check(TransitRealtime_TripDescriptor.ScheduleRelationship.self, "ScheduleRelationship#TripDescriptor")
        check(TransitRealtime_TripUpdate.StopTimeUpdate.ScheduleRelationship.self, "ScheduleRelationship#StopTimeUpdate")
        check(TransitRealtime_VehiclePosition.VehicleStopStatus.self, "VehicleStopStatus")
        check(TransitRealtime_VehiclePosition.CongestionLevel.self, "CongestionLevel")
        check(TransitRealtime_VehiclePosition.OccupancyStatus.self, "OccupancyStatus")
        check(TransitRealtime_Alert.Cause.self, "Cause")
        check(TransitRealtime_Alert.Effect.self, "Effect")
        check(TransitRealtime_Alert.SeverityLevel.self, "SeverityLevel")
    }

    /// The values of `enum Name { … }` in the .proto text; `Name#Message` picks the one declared inside
    /// `message Message` when several share the name.
    static func enumValues(named spec: String, in proto: String) -> [String: Int] {
        let parts = spec.split(separator: "#").map(String.init)
        var text = Substring(proto)
        if parts.count == 2, let message = text.range(of: "message \(parts[1]) {") { text = text[message.upperBound...] }
        guard let start = text.range(of: "enum \(parts[0]) {"), let end = text[start.upperBound...].firstIndex(of: "}") else { return [:] }
        var values: [String: Int] = [:]
        for line in text[start.upperBound ..< end].split(separator: "\n") {
            let words = line.split(whereSeparator: { " =;".contains($0) })
            if words.count >= 2, let number = Int(words[1]) { values[String(words[0])] = number }
        }
        return values
    }

    // MARK: Helpers

    /// Everything a source delivers, gathered back into a message, with the notes.
    static func decode(_ data: Data) throws -> (message: RealtimeMessage, skipped: [String]) {
        let feed = try RealtimeFeed(data: data)
        var message = RealtimeMessage(version: feed.header.version, incrementality: feed.header.incrementality, timestamp: feed.header.timestamp)
        try feed.forEachEntity { entity, _ in
            switch entity {
            case .tripUpdate(let update): message.tripUpdates.append(update)
            case .vehicle(let vehicle): message.vehicles.append(vehicle)
            case .alert(let alert): message.alerts.append(alert)
            case .deleted(let id): message.deletedEntityIDs.append(id)
            }
        }
        return (message, feed.skipped)
    }

    /// The package's root folder, from this file's place in it.
    static let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fixture's bytes: from the test bundle, else from the source tree.
    static func fixture(_ name: String) throws -> Data {
        if let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") { return try Data(contentsOf: url) }
        return try Data(contentsOf: sourceRoot.appending(path: "Tests/GTFSRealtimeTests/Fixtures/\(name)"))
    }

    /// A message with every field of the model set, exactly representable where protobuf has a float.
    static func fullMessage() -> RealtimeMessage {
        let vehicle = RealtimeVehicleDescriptor(id: "V1", label: "4711", licensePlate: "B-XY 123")
        let stops = [
            RealtimeStopTimeUpdate(
                stopSequence: 1, stopID: "S1", arrival: RealtimeStopTimeEvent(delay: -30, time: t0 + 100, uncertainty: 10),
                departure: RealtimeStopTimeEvent(delay: 0, time: t0 + 160, uncertainty: 0)),
            RealtimeStopTimeUpdate(stopSequence: 2, stopID: "S2", relationship: .skipped),
            RealtimeStopTimeUpdate(stopSequence: 3, relationship: .noData),
            RealtimeStopTimeUpdate(stopID: "S4", arrival: RealtimeStopTimeEvent(time: Int64.max), relationship: .unscheduled),
            RealtimeStopTimeUpdate(stopSequence: Int(UInt32.max), departure: RealtimeStopTimeEvent(delay: Int(Int32.min), time: Int64.min)),
        ]
        var updates = [
            RealtimeTripUpdate(
                entityID: "tu-full",
                trip: RealtimeTrip(tripID: "T1", routeID: "R1", directionID: 1, startTime: "25:10:00", startDate: "20251124", relationship: .added),
                vehicle: vehicle, timestamp: t0 + 10, delay: 120, stopTimeUpdates: stops),
            RealtimeTripUpdate(
                entityID: "tu-dup", trip: RealtimeTrip(tripID: "T2", startTime: "08:00:00", startDate: "20251124", relationship: .duplicated),
                vehicle: RealtimeVehicleDescriptor(), newTripID: "T2-new", newStartDate: "20251125", newStartTime: "08:15:00"),
        ]
        let relationships: [RealtimeTrip.Relationship] = [.scheduled, .unscheduled, .canceled, .replacement, .deleted, .new]
        for relationship in relationships {
            let name = relationship.rawValue
            updates.append(RealtimeTripUpdate(entityID: "tu-\(name)", trip: RealtimeTrip(tripID: "T-\(name)", relationship: relationship)))
        }
        let vehicles = [
            RealtimeVehicle(
                entityID: "vp-full", trip: RealtimeTrip(tripID: "T1", directionID: 0, relationship: .scheduled), vehicle: vehicle, latitude: 52.5,
                longitude: 13.375, bearing: 270.25, speed: 8.5, currentStopSequence: 7, stopID: "S7", stopStatus: "INCOMING_AT", timestamp: t0 + 3,
                congestion: "SEVERE_CONGESTION", occupancy: "NOT_BOARDABLE"),
            RealtimeVehicle(entityID: "vp-bare"),
        ]
        let alerts = [
            RealtimeAlert(
                entityID: "al-full", activePeriods: [.init(start: t0, end: t0 + 60), .init(start: t0 + 120), .init(end: t0 + 300), .init()],
                informedEntities: [
                    .init(agencyID: "A1"), .init(routeID: "R1", routeType: 700, directionID: 1), .init(tripID: "T1", stopID: "S1"), .init(),
                ],
                cause: "MEDICAL_EMERGENCY", effect: "ACCESSIBILITY_ISSUE", severity: "SEVERE", url: [.init("https://example.org")],
                header: [.init("Störung", language: "de"), .init("Disruption", language: "en")],
                description: [.init(""), .init("…", language: "x")]),
            RealtimeAlert(entityID: "al-bare"),
        ]
        return RealtimeMessage(
            version: "2.0", incrementality: .fullDataset, timestamp: t0, tripUpdates: updates, vehicles: vehicles, alerts: alerts,
            deletedEntityIDs: ["gone-1", "gone-2"])
    }
}

/// Random messages from a seed: every value the model has, within what protobuf can carry.
private enum RandomMessages {
    static func message(_ random: inout SeededRandom) -> RealtimeMessage {
        var message = RealtimeMessage(
            version: random.pick(["2.0", "1.0", ""]), incrementality: random.bool() ? .fullDataset : .differential,
            timestamp: random.maybe { Int64($0.next() >> 1) })
        for index in 0 ..< random.below(4) { message.tripUpdates.append(tripUpdate(&random, id: "t\(index)")) }
        for index in 0 ..< random.below(4) { message.vehicles.append(vehicle(&random, id: "v\(index)")) }
        for index in 0 ..< random.below(3) { message.alerts.append(alert(&random, id: "a\(index)")) }
        for index in 0 ..< random.below(3) { message.deletedEntityIDs.append("d\(index)") }
        return message
    }

    static let tripRelationships: [RealtimeTrip.Relationship] = [
        .scheduled, .added, .unscheduled, .canceled, .replacement, .duplicated, .deleted, .new,
    ]
    static let stopRelationships: [RealtimeStopTimeUpdate.Relationship] = [.scheduled, .skipped, .noData, .unscheduled]

    static func trip(_ random: inout SeededRandom) -> RealtimeTrip {
        RealtimeTrip(
            tripID: random.maybe { $0.text() }, routeID: random.maybe { $0.text() }, directionID: random.maybe { $0.below(2) },
            startTime: random.maybe { $0.text() }, startDate: random.maybe { $0.text() }, relationship: random.pick(tripRelationships))
    }

    static func descriptor(_ random: inout SeededRandom) -> RealtimeVehicleDescriptor {
        RealtimeVehicleDescriptor(id: random.maybe { $0.text() }, label: random.maybe { $0.text() }, licensePlate: random.maybe { $0.text() })
    }

    static func event(_ random: inout SeededRandom) -> RealtimeStopTimeEvent {
        RealtimeStopTimeEvent(
            delay: random.maybe { Int(Int32(truncatingIfNeeded: $0.next())) }, time: random.maybe { Int64(bitPattern: $0.next()) },
            uncertainty: random.maybe { Int(Int32(truncatingIfNeeded: $0.next())) })
    }

    static func tripUpdate(_ random: inout SeededRandom, id: String) -> RealtimeTripUpdate {
        var update = RealtimeTripUpdate(
            entityID: id, trip: trip(&random), vehicle: random.maybe { descriptor(&$0) }, timestamp: random.maybe { Int64($0.next() >> 1) },
            delay: random.maybe { Int(Int32(truncatingIfNeeded: $0.next())) })
        for _ in 0 ..< random.below(5) {
            update.stopTimeUpdates.append(
                RealtimeStopTimeUpdate(
                    stopSequence: random.maybe { Int(UInt32(truncatingIfNeeded: $0.next())) }, stopID: random.maybe { $0.text() },
                    arrival: random.maybe { event(&$0) }, departure: random.maybe { event(&$0) }, relationship: random.pick(stopRelationships)))
        }
        update.newTripID = random.maybe { $0.text() }
        update.newStartDate = random.maybe { $0.text() }
        update.newStartTime = random.maybe { $0.text() }
        return update
    }

    /// A double that a 32-bit float holds exactly.
    static func float(_ random: inout SeededRandom) -> Double { Double(Float(bitPattern: UInt32(truncatingIfNeeded: random.next())).clampedFinite) }

    static func vehicle(_ random: inout SeededRandom, id: String) -> RealtimeVehicle {
        var vehicle = RealtimeVehicle(entityID: id, trip: random.maybe { trip(&$0) }, vehicle: random.maybe { descriptor(&$0) })
        if random.bool() {
            (vehicle.latitude, vehicle.longitude) = (float(&random), float(&random))
            (vehicle.bearing, vehicle.speed) = (random.maybe { float(&$0) }, random.maybe { float(&$0) })
        }
        vehicle.currentStopSequence = random.maybe { Int(UInt32(truncatingIfNeeded: $0.next())) }
        vehicle.stopID = random.maybe { $0.text() }
        vehicle.stopStatus = random.maybe { $0.pick(["INCOMING_AT", "STOPPED_AT", "IN_TRANSIT_TO"]) }
        vehicle.timestamp = random.maybe { Int64($0.next() >> 1) }
        let congestion = ["UNKNOWN_CONGESTION_LEVEL", "RUNNING_SMOOTHLY", "STOP_AND_GO", "CONGESTION", "SEVERE_CONGESTION"]
        vehicle.congestion = random.maybe { $0.pick(congestion) }
        vehicle.occupancy = random.maybe { $0.pick(["EMPTY", "FULL", "NO_DATA_AVAILABLE", "NOT_BOARDABLE", "STANDING_ROOM_ONLY"]) }
        return vehicle
    }

    static func texts(_ random: inout SeededRandom) -> [RealtimeAlert.Text] {
        (0 ..< random.below(3)).map { _ in RealtimeAlert.Text(random.text(), language: random.maybe { $0.text() }) }
    }

    static func alert(_ random: inout SeededRandom, id: String) -> RealtimeAlert {
        var alert = RealtimeAlert(entityID: id)
        alert.activePeriods = (0 ..< random.below(3)).map { _ in
            RealtimeAlert.Period(start: random.maybe { Int64($0.next() >> 1) }, end: random.maybe { Int64($0.next() >> 1) })
        }
        alert.informedEntities = (0 ..< random.below(3)).map { _ in
            RealtimeAlert.InformedEntity(
                agencyID: random.maybe { $0.text() }, routeID: random.maybe { $0.text() }, routeType: random.maybe { $0.below(1700) },
                directionID: random.maybe { $0.below(2) }, tripID: random.maybe { $0.text() }, stopID: random.maybe { $0.text() })
        }
        alert.cause = random.maybe { $0.pick(["UNKNOWN_CAUSE", "STRIKE", "WEATHER", "SPECIAL_EVENT"]) }
        alert.effect = random.maybe { $0.pick(["NO_SERVICE", "DETOUR", "STOP_MOVED", "NO_EFFECT"]) }
        alert.severity = random.maybe { $0.pick(["UNKNOWN_SEVERITY", "INFO", "WARNING", "SEVERE"]) }
        (alert.url, alert.header, alert.description) = (texts(&random), texts(&random), texts(&random))
        return alert
    }
}

private extension Float {
    /// The value when finite, else 0: NaN would not equal itself after a round trip.
    var clampedFinite: Float { isFinite ? self : 0 }
}

/// TestSupport's seeded generator with the draws these tests use: the same seed gives the same cases.
private struct SeededRandom {
    private var base: SeededGenerator

    init(seed: UInt64) { base = SeededGenerator(seed: seed) }

    mutating func next() -> UInt64 { base.next() }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func bool() -> Bool { next() & 1 == 0 }
    mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }

    mutating func maybe<T>(_ make: (inout SeededRandom) -> T) -> T? { bool() ? make(&self) : nil }

    /// A short text, sometimes empty, sometimes beyond ASCII.
    mutating func text() -> String {
        let alphabet = Array("abcXYZ019 -_:äß€🚋")
        return String((0 ..< below(12)).map { _ in pick(alphabet) })
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0 ..< count).map { _ in UInt8(truncatingIfNeeded: next()) } }
}

// MARK: - The fixtures of make-fixtures.py

extension RealtimeFeedTests {
    @Test func tripUpdatesFixture() throws {
        let (message, skipped) = try Self.decode(try Self.fixture("trip-updates.pb"))
        let t0 = Self.t0
        #expect(message.version == "2.0" && message.incrementality == .fullDataset && message.timestamp == t0)
        #expect(skipped.isEmpty)
        let added = RealtimeTripUpdate(
            entityID: "tu-added",
            trip: RealtimeTrip(tripID: "T-ADD", routeID: "R1", directionID: 1, startTime: "25:10:00", startDate: "20251124", relationship: .added),
            vehicle: RealtimeVehicleDescriptor(id: "V1", label: "4711", licensePlate: "B-XY 123"), timestamp: t0 + 10, delay: -45,
            stopTimeUpdates: [
                RealtimeStopTimeUpdate(
                    stopSequence: 1, stopID: "S1", arrival: RealtimeStopTimeEvent(delay: 60, time: t0 + 100, uncertainty: 30),
                    departure: RealtimeStopTimeEvent(delay: 90, time: t0 + 190, uncertainty: 15), relationship: .scheduled),
                RealtimeStopTimeUpdate(stopSequence: 2, stopID: "S2", relationship: .skipped),
                RealtimeStopTimeUpdate(stopSequence: 3, relationship: .noData),
                RealtimeStopTimeUpdate(stopID: "S4", departure: RealtimeStopTimeEvent(time: t0 + 400)),
                RealtimeStopTimeUpdate(stopSequence: 5, relationship: .unscheduled),
            ])
        let duplicated = RealtimeTripUpdate(
            entityID: "tu-dup", trip: RealtimeTrip(tripID: "T-DUP", startTime: "08:00:00", startDate: "20251124", relationship: .duplicated),
            newTripID: "T-DUP-NEW", newStartDate: "20251125", newStartTime: "08:15:00")
        let others: [(String, RealtimeTrip.Relationship)] = [
            ("tu-canceled", .canceled), ("tu-replacement", .replacement), ("tu-deleted", .deleted), ("tu-new", .new),
            ("tu-unscheduled", .unscheduled),
        ]
        let expected = [added, duplicated]
            + others.map { RealtimeTripUpdate(entityID: $0.0, trip: RealtimeTrip(tripID: "T-\($0.0)", relationship: $0.1)) }
        #expect(message.tripUpdates == expected)
        #expect(message.vehicles.isEmpty && message.alerts.isEmpty && message.deletedEntityIDs.isEmpty)
    }

    @Test func vehiclePositionsFixture() throws {
        let (message, skipped) = try Self.decode(try Self.fixture("vehicle-positions.pb"))
        #expect(message.timestamp == Self.t0 + 5)
        #expect(skipped.isEmpty)
        let full = RealtimeVehicle(
            entityID: "vp-1", trip: RealtimeTrip(tripID: "T1", routeID: "R1", startDate: "20251124"),
            vehicle: RealtimeVehicleDescriptor(id: "V1", label: "Tram 12"),
            latitude: Double(Float(52.5219)), longitude: Double(Float(13.4132)), bearing: 90.5, speed: 12.25, currentStopSequence: 7, stopID: "S7",
            stopStatus: "STOPPED_AT", timestamp: Self.t0 + 3, congestion: "STOP_AND_GO", occupancy: "FEW_SEATS_AVAILABLE")
        let bare = RealtimeVehicle(entityID: "vp-2", vehicle: RealtimeVehicleDescriptor(id: "V2"), latitude: -33.5, longitude: 151.25)
        #expect(message.vehicles == [full, bare])
        #expect(message.tripUpdates.isEmpty && message.alerts.isEmpty)
    }

    @Test func alertsFixture() throws {
        let (message, skipped) = try Self.decode(try Self.fixture("alerts.pb"))
        let t0 = Self.t0
        #expect(skipped.isEmpty)
        let strike = RealtimeAlert(
            entityID: "al-1", activePeriods: [.init(start: t0, end: t0 + 3600), .init(start: t0 + 7200)],
            informedEntities: [.init(agencyID: "A1"), .init(routeID: "R1", routeType: 3, directionID: 1), .init(tripID: "T1", stopID: "S1")],
            cause: "STRIKE", effect: "NO_SERVICE", severity: "WARNING", url: [.init("https://example.org/strike")],
            header: [.init("Streik bei der BVG", language: "de"), .init("Strike at BVG", language: "en")],
            description: [.init("Kein Verkehr auf der Linie M10 – Grüße", language: "de")])
        let plain = RealtimeAlert(entityID: "al-2", header: [.init("Aufzug defekt")])
        #expect(message.alerts == [strike, plain])
    }

    @Test func unknownValuesFixture() throws {
        let data = try Self.fixture("unknown-values.pb")
        let feed = try RealtimeFeed(data: data)
        #expect(feed.entityFieldCount == 8)
        var entities: [RealtimeEntity] = []
        try feed.forEachEntity { entity, _ in entities.append(entity) }
        #expect(
            entities == [
                .vehicle(RealtimeVehicle(entityID: "unknown-congestion", vehicle: RealtimeVehicleDescriptor(id: "V9"))),
                .alert(RealtimeAlert(entityID: "unknown-cause", effect: "DETOUR")),
                .tripUpdate(RealtimeTripUpdate(entityID: "kept", trip: RealtimeTrip(tripID: "T10"))),
            ])
        let skipped = feed.skipped
        #expect(skipped.count == 7)
        // The header takes bytes 0–14, so the first entity's tag is at byte 15.
        #expect(skipped.first == "entity 0 (at byte 15, id unknown-congestion): VehiclePosition.congestion_level 99 is not a known value; left out")
        let expectedEnds = [
            "id unknown-relationship) skipped: TripDescriptor.schedule_relationship 42 is not a known value",
            "id unknown-cause): Alert.cause 77 is not a known value; left out",
            "id no-trip) skipped: trip update without a trip descriptor",
            ") skipped: no id",
            "id shape-only) skipped: carries only shape, which is not read",
            "id nothing) skipped: none of trip_update, vehicle, alert",
        ]
        for (note, end) in zip(skipped.dropFirst(), expectedEnds) { #expect(note.hasSuffix(end), "\(note)") }
        #expect(skipped[4].hasPrefix("entity 4 (at byte "))
    }

    @Test func differentialFixture() throws {
        let (message, skipped) = try Self.decode(try Self.fixture("differential.pb"))
        #expect(skipped.isEmpty)
        #expect(message.incrementality == .differential && message.timestamp == Self.t0 + 60)
        #expect(message.deletedEntityIDs == ["tu-old", "vp-old"])
        let changed = RealtimeTripUpdate(
            entityID: "tu-changed", trip: RealtimeTrip(tripID: "T2"),
            stopTimeUpdates: [RealtimeStopTimeUpdate(stopSequence: 4, arrival: RealtimeStopTimeEvent(delay: 180))])
        #expect(message.tripUpdates == [changed])
    }
}

// MARK: - Bytes that are not a good message

/// Protobuf written by hand, for what neither encoder writes.
private enum Wire {
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        repeat {
            out.append(UInt8(value & 0x7F) | (value > 0x7F ? 0x80 : 0))
            value >>= 7
        } while value != 0
        return out
    }

    static func key(_ number: UInt64, _ wireType: UInt64) -> [UInt8] { varint(number << 3 | wireType) }
    static func number(_ number: UInt64, _ value: UInt64) -> [UInt8] { key(number, 0) + varint(value) }
    static func bytes(_ number: UInt64, _ content: [UInt8]) -> [UInt8] { key(number, 2) + varint(UInt64(content.count)) + content }
    static func text(_ number: UInt64, _ text: String) -> [UInt8] { bytes(number, Array(text.utf8)) }
    static func float(_ number: UInt64, _ value: Float) -> [UInt8] {
        key(number, 5) + withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
    }

    /// A header field: version 2.0 and the given extra fields.
    static func header(_ extra: [UInt8] = []) -> [UInt8] { bytes(1, text(1, "2.0") + extra) }
    static func entity(_ id: String?, _ content: [UInt8]) -> [UInt8] { bytes(2, (id.map { text(1, $0) } ?? []) + content) }
}

extension RealtimeFeedTests {
    static func refusal(_ bytes: [UInt8], maxBytes: Int = RealtimeFeed.defaultMaxBytes) -> RealtimeDecodingError? {
        do {
            let feed = try RealtimeFeed(data: Data(bytes), maxBytes: maxBytes)
            try feed.forEachEntity { _, _ in }
            return nil
        } catch let error as RealtimeDecodingError {
            return error
        } catch {
            Issue.record("not a RealtimeDecodingError: \(error)")
            return nil
        }
    }

    @Test func framingErrorsNameTheirByte() {
        let huge = Wire.key(2, 2) + Wire.varint(1 << 62)
        let cases: [([UInt8], RealtimeDecodingError)] = [
            ([], .header(offset: nil, reason: "the message has no header (field 1)")),
            (Wire.header() + [0x12, 0x05, 0x0A], .malformed(offset: 7, reason: "field 2 declares 5 bytes, only 1 follow")),
            (Wire.header() + huge, .malformed(offset: 7, reason: "field 2 declares 4611686018427387904 bytes, only 0 follow")),
            (Wire.header() + [0x10] + Array(repeating: 0xFF, count: 10) + [0x01], .malformed(offset: 8, reason: "varint longer than 64 bits")),
            (Wire.header() + [0x10, 0x80], .malformed(offset: 8, reason: "truncated varint")),
            (Wire.header() + [0x80], .malformed(offset: 7, reason: "truncated varint")),
            (Wire.header() + Wire.key(5, 1) + [1, 2, 3], .malformed(offset: 7, reason: "truncated field")),
            (Wire.header() + Wire.key(5, 5) + [1], .malformed(offset: 7, reason: "truncated field")),
            (Wire.header() + [0x07], .malformed(offset: 7, reason: "field number 0 is outside 1…536870911")),
            (Wire.header() + Wire.key(5, 6), .malformed(offset: 7, reason: "field 5 has wire type 6, which does not exist")),
            (Wire.header() + Wire.key(5, 4), .malformed(offset: 7, reason: "end of group 5 without its start")),
            (Wire.header() + Wire.key(5, 3) + Wire.number(1, 1), .malformed(offset: 7, reason: "group 5 is not closed")),
            (Wire.header() + Wire.key(5, 3) + Wire.key(6, 4), .malformed(offset: 8, reason: "group 5 closed as group 6")),
            (Wire.header() + Wire.number(2, 1), .malformed(offset: 7, reason: "field 2 (entity) has wire type 0, not length-delimited")),
            (Wire.number(1, 1), .malformed(offset: 0, reason: "field 1 (header) has wire type 0, not length-delimited")),
            (Wire.key(1000, 0) + Wire.varint(1 << 32), .header(offset: nil, reason: "the message has no header (field 1)")),
        ]
        for (bytes, expected) in cases { #expect(Self.refusal(bytes) == expected) }
        // Groups nested past the limit end in an error (at the first group too many), not in deep recursion.
        let deep = Array(repeating: Wire.key(5, 3), count: 200).flatMap { $0 }
        #expect(Self.refusal(Wire.header() + deep) == .malformed(offset: 7 + 100, reason: "groups nested too deep"))
        // Unknown fields of every wire type, groups included, are skipped.
        let unknown = Wire.number(1000, 1) + Wire.key(1001, 1) + Array(repeating: 0, count: 8) + Wire.key(1002, 5) + [0, 0, 0, 0]
            + Wire.key(9000, 3) + Wire.key(9001, 3) + Wire.number(1, 7) + Wire.key(9001, 4) + Wire.key(9000, 4) + Wire.bytes(9002, [1, 2])
        #expect(Self.refusal(unknown + Wire.header() + unknown) == nil)
    }

    @Test func headerErrors() {
        let cases: [([UInt8], RealtimeDecodingError)] = [
            (Wire.bytes(1, Wire.number(3, 5)), .header(offset: 0, reason: "no gtfs_realtime_version")),
            (Wire.header(Wire.number(2, 7)), .header(offset: 0, reason: "incrementality 7 is not a known value")),
            (Wire.header(Wire.number(3, UInt64.max)), .header(offset: 0, reason: "timestamp 18446744073709551615 is beyond Int64")),
            (Wire.bytes(1, [0x0A, 0x09, 0x32]), .header(offset: 0, reason: "truncated: a field runs past the end")),
            (Wire.bytes(1, Wire.bytes(1, [0xC3, 0x28])), .header(offset: 0, reason: "a string is not valid UTF-8")),
        ]
        for (bytes, expected) in cases { #expect(Self.refusal(bytes) == expected) }
    }

    @Test func aHeaderGivenTwiceIsMerged() throws {
        let feed = try RealtimeFeed(data: Data(Wire.header() + Wire.bytes(1, Wire.number(3, 42) + Wire.number(2, 1))))
        #expect(feed.header == RealtimeHeader(version: "2.0", incrementality: .differential, timestamp: 42))
        #expect(feed.skipped == ["the header is given 2 times; merged"])
    }

    @Test func aBrokenEntityRefusesTheMessageNamingIt() throws {
        let good = Wire.entity("a", Wire.bytes(5, Wire.bytes(10, Wire.bytes(1, Wire.text(1, "hi")))))
        let bad = Wire.entity("b", Wire.bytes(3, [0x0A, 0x20, 0x01]))
        let bytes = Wire.header() + good + bad
        let feed = try RealtimeFeed(data: Data(bytes))
        var delivered: [String] = []
        #expect(throws: RealtimeDecodingError.entity(index: 1, offset: 7 + good.count, reason: "truncated: a field runs past the end")) {
            try feed.forEachEntity { entity, _ in delivered.append(entity.id) }
        }
        #expect(delivered == ["a"])
        let error = RealtimeDecodingError.entity(index: 7, offset: 3456, reason: "truncated: a field runs past the end")
        #expect(error.description == "entity 7 (at byte 3456): truncated: a field runs past the end")
    }

    @Test func entitiesWithValuesBeyondTheModelArePassedOverOrLeftOut() throws {
        let trip = Wire.bytes(1, Wire.text(1, "T"))
        let position = Wire.bytes(2, Wire.float(1, .nan) + Wire.float(2, 13.5))
        let bytes = Wire.header()
            + Wire.entity("late", Wire.bytes(3, trip + Wire.number(4, UInt64.max)))
            + Wire.entity("far", Wire.bytes(4, Wire.number(5, 1 << 63)))
            + Wire.entity("nan", Wire.bytes(4, position))
            + Wire.entity("forever", Wire.bytes(5, Wire.bytes(1, Wire.number(1, 5) + Wire.number(2, UInt64.max))))
            + Wire.entity("textless", Wire.bytes(5, Wire.bytes(10, Wire.bytes(1, Wire.text(2, "de")) + Wire.bytes(1, Wire.text(1, "ok")))))
            + Wire.entity("both", Wire.bytes(3, trip) + Wire.bytes(4, []))
            + Wire.entity("stop", Wire.bytes(3, trip + Wire.bytes(2, Wire.number(5, 9))))
            + Wire.entity("gone", Wire.number(2, 1) + Wire.bytes(3, []))
        let (message, skipped) = try Self.decode(Data(bytes))
        #expect(message.vehicles == [RealtimeVehicle(entityID: "nan", longitude: 13.5)])
        #expect(
            message.alerts == [
                RealtimeAlert(entityID: "forever", activePeriods: [.init(start: 5)]), RealtimeAlert(entityID: "textless", header: [.init("ok")]),
            ])
        #expect(message.tripUpdates == [RealtimeTripUpdate(entityID: "both", trip: RealtimeTrip(tripID: "T"))])
        #expect(message.deletedEntityIDs == ["gone"])
        let expected = [
            "id late) skipped: TripUpdate.timestamp 18446744073709551615 is beyond Int64",
            "id far) skipped: VehiclePosition.timestamp 9223372036854775808 is beyond Int64",
            "id nan): Position.latitude nan is not a number; left out",
            "id forever): TimeRange.end 18446744073709551615 is beyond Int64; left open",
            "id textless): a translation of Alert.header_text has no text; left out",
            "id both): carries trip_update, vehicle; only its trip_update is read",
            "id stop) skipped: StopTimeUpdate.schedule_relationship 9 is not a known value",
        ]
        #expect(skipped.count == expected.count)
        for (note, end) in zip(skipped, expected) { #expect(note.hasSuffix(end), "\(note)") }
    }

    @Test func theSizeCapComesFirst() {
        #expect(Self.refusal(Array(repeating: 0, count: 1001), maxBytes: 1000) == .tooLarge(size: 1001, limit: 1000))
        let description = RealtimeDecodingError.tooLarge(size: 40_000_000, limit: RealtimeFeed.defaultMaxBytes).description
        #expect(description == "message is 40000000 bytes, more than the 33554432 allowed")
        #expect(RealtimeDecodingError.malformed(offset: 120, reason: "truncated field").description == "bytes 120…: truncated field")
        // The default: 32 MiB and one byte is refused without being read.
        #expect(throws: RealtimeDecodingError.tooLarge(size: (32 << 20) + 1, limit: 32 << 20)) {
            _ = try RealtimeFeed(data: Data(count: (32 << 20) + 1))
        }
    }

    /// Every prefix of every fixture: decoded or refused, never a crash or another error.
    @Test func everyTruncationThrowsOrDecodes() throws {
        let names = ["trip-updates.pb", "vehicle-positions.pb", "alerts.pb", "unknown-values.pb", "differential.pb"]
        for name in names {
            let data = try Self.fixture(name)
            var refused = 0
            for length in 0 ..< data.count where Self.refusal(Array(data.prefix(length))) != nil { refused += 1 }
            #expect(refused > data.count / 2, "\(name)")
        }
    }

    /// Seeded random bytes, and valid messages with bytes overwritten: refused or read, nothing else.
    @Test func randomBytesThrowOrDecode() throws {
        var random = SeededRandom(seed: 0x6774_6673)
        for _ in 0 ..< 3000 { _ = Self.refusal(random.bytes(random.below(200))) }
        // Random bytes behind a valid header reach the entity decoding more often.
        for _ in 0 ..< 3000 { _ = Self.refusal(Wire.header() + Wire.bytes(2, random.bytes(random.below(120)))) }
        let originals = try ["trip-updates.pb", "alerts.pb", "unknown-values.pb"].map { try Array(Self.fixture($0)) }
        for _ in 0 ..< 3000 {
            var bytes = random.pick(originals)
            for _ in 0 ... random.below(4) { bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next()) }
            _ = Self.refusal(bytes)
        }
    }
}
