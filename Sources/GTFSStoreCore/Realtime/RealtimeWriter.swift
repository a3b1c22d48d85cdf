import Foundation

/// Writes the rows of changed entities: the entity's own rows and, for a trip update, the predictions of
/// its trip instance's calls.
struct RealtimeWriter {
    private let session: any RealtimeSession
    private let feed: Int64
    private let source: String
    private let header: RealtimeHeader
    private let options: RealtimeOptions
    private let instances: TripInstances
    private var inserts: [String: RealtimeInserts]
    /// The trip instances predicted by this message, by trip, date and run: a second update of one is
    /// passed over rather than written twice in one statement.
    private var predicted = Set<String>()

    init(session: any RealtimeSession, feed: Int64, source: String, header: RealtimeHeader, options: RealtimeOptions) throws {
        (self.session, self.feed, self.source, self.header, self.options) = (session, feed, source, header, options)
        var zone: String?
        try session.query(FeedClock.zoneSQL(session.dialect), [.integer(feed)]) { zone = $0.text(0) }
        let clock = zone.flatMap(TimeZone.init(identifier:)).map(FeedClock.init(timeZone:))
        instances = TripInstances(session: session, feed: feed, clock: clock)
        inserts = Dictionary(uniqueKeysWithValues: RealtimeTables.all.map { ($0.name, RealtimeInserts($0)) })
    }

    /// Writes an entity's rows.
    mutating func write(_ entity: RealtimeEntity, digest: String, into summary: inout RealtimeSummary) throws {
        let kind: String
        switch entity {
        case .tripUpdate(let update):
            kind = "trip_update"
            try write(update, into: &summary)
        case .vehicle(let vehicle):
            kind = "vehicle"
            try add(RealtimeTables.vehicles, owner(vehicle.entityID) + trip(vehicle.trip) + RealtimeRows.vehicle(vehicle))
        case .alert(let alert):
            kind = "alert"
            try write(alert)
        case .deleted: return
        }
        try add(RealtimeTables.entities, owner(entity.id) + [.text(kind), .text(digest)])
    }

    /// Writes what is gathered; returns the rows written.
    mutating func finish() throws -> Int {
        var written = 0
        for table in RealtimeTables.all where table.name != RealtimeTables.sources.name {
            try inserts[table.name]?.flush(session)
            written += inserts[table.name]?.written ?? 0
        }
        return written
    }

    private mutating func write(_ update: RealtimeTripUpdate, into summary: inout RealtimeSummary) throws {
        let timestamp = update.timestamp ?? header.timestamp ?? Int64(options.now.timeIntervalSince1970)
        let stale = Double(timestamp) < options.now.timeIntervalSince1970 - options.maxAge
        var instance: TripInstance?
        var note = RealtimeBounds.problem(update, timestamp: timestamp)
        if note == nil {
            switch try instances.resolve(update, reference: timestamp) {
            case .success(let found): instance = found
            case .failure(let reason): note = reason.text
            }
        }
        var unmatched = 0
        if let found = instance {
            summary.matchedTrips += 1
            let instanceKey = "\(found.tripID)\u{0}\(found.date)\u{0}\(found.runShift)"
            if stale {
                summary.staleTrips += 1
            } else if predicted.insert(instanceKey).inserted {
                unmatched = try writePredictions(update, found)
            } else {
                note = "trip \(found.tripID) on \(found.date) is predicted by an earlier entity of the message"
                summary.note("entity \(update.entityID): " + (note ?? ""))
            }
        } else {
            summary.unmatchedTrips += 1
            summary.note("entity \(update.entityID): \(note ?? "")")
        }
        summary.unmatchedStopTimeUpdates += unmatched
        let match: [SQLArgument] = [
            .text(instance?.tripID), .integer(instance?.date), .integer(instance?.runShift), .integer(unmatched), .text(note),
        ]
        try add(RealtimeTables.tripUpdates, owner(update.entityID) + trip(update.trip) + RealtimeRows.tripUpdate(update) + match)
        for (position, stu) in update.stopTimeUpdates.enumerated() {
            try add(RealtimeTables.stopTimeUpdates, owner(update.entityID) + [.integer(position)] + RealtimeRows.stopTimeUpdate(stu))
        }
    }

    /// Writes the predicted calls of an instance; returns the stop time updates that matched no call.
    /// A prediction keeps the update's own timestamp; without one, its age is its source's last header's
    /// (`realtime_sources`), which every later message renews without rewriting the prediction.
    private mutating func writePredictions(_ update: RealtimeTripUpdate, _ instance: TripInstance) throws -> Int {
        let cancelled = [.canceled, .deleted].contains(update.trip.relationship)
        let (calls, unmatched) =
            instance.isAdded && update.trip.relationship != .duplicated
            ? (instance.calls.map { PredictedCall(stopSequence: $0.stopSequence, stopID: $0.stopID, status: .added, arrival: $0.arrival, departure: $0.departure) }, 0)
            : RealtimePropagation.predict(instance.calls, updates: update.stopTimeUpdates, cancelled: cancelled)
        for (call, scheduled) in zip(calls, instance.calls) {
            var call = call
            if instance.isAdded && call.status != .skipped {
                // A copy's calls are on boards whether or not an update moves them.
                (call.status, call.arrival, call.departure) = (.added, call.arrival ?? scheduled.arrival, call.departure ?? scheduled.departure)
            }
            guard call.status != .scheduled else { continue }
            try add(
                RealtimeTables.predictions,
                [
                    .integer(feed), .text(instance.tripID), .integer(instance.date), .integer(instance.runShift), .integer(call.stopSequence),
                    .text(call.stopID), .text(call.status.rawValue), .integer(call.arrival), .integer(call.departure), .integer(call.arrivalDelay),
                    .integer(call.departureDelay), .text(update.trip.routeID), .integer(update.timestamp), .text(source), .text(update.entityID),
                    .integer(instance.runOffset),
                ])
        }
        return unmatched
    }

    private mutating func write(_ alert: RealtimeAlert) throws {
        let id = alert.entityID
        try add(RealtimeTables.alerts, owner(id) + [.text(alert.cause), .text(alert.effect), .text(alert.severity)])
        for (position, period) in alert.activePeriods.enumerated() {
            try add(RealtimeTables.alertPeriods, owner(id) + [.integer(position), .integer(period.start), .integer(period.end)])
        }
        for (position, informed) in alert.informedEntities.enumerated() {
            try add(RealtimeTables.alertEntities, owner(id) + [.integer(position)] + RealtimeRows.informedEntity(informed))
        }
        for (field, texts) in [("url", alert.url), ("header", alert.header), ("description", alert.description)] {
            for (position, text) in texts.enumerated() {
                try add(RealtimeTables.alertTexts, owner(id) + [.text(field), .integer(position), .text(text.language), .text(text.text)])
            }
        }
    }

    private func owner(_ entity: String) -> [SQLArgument] { [.integer(feed), .text(source), .text(entity)] }

    private func trip(_ trip: RealtimeTrip?) -> [SQLArgument] {
        [
            .text(trip?.tripID), .text(trip?.routeID), .integer(trip?.directionID), .text(trip?.startTime), .text(trip?.startDate),
            .text(trip?.relationship.rawValue),
        ]
    }

    private mutating func add(_ table: RealtimeTables.Table, _ row: [SQLArgument]) throws {
        try inserts[table.name]?.add(row, session)
    }
}

/// The columns of an entity's rows after its owner and trip descriptor, in the tables' order.
enum RealtimeRows {
    static func tripUpdate(_ update: RealtimeTripUpdate) -> [SQLArgument] {
        [
            .text(update.vehicle?.id), .text(update.vehicle?.label), .integer(update.timestamp), .integer(update.delay),
            .text(update.newTripID), .text(update.newStartDate), .text(update.newStartTime),
        ]
    }

    static func stopTimeUpdate(_ stu: RealtimeStopTimeUpdate) -> [SQLArgument] {
        [
            .integer(stu.stopSequence), .text(stu.stopID),
            .integer(stu.arrival?.delay), .integer(stu.arrival?.time), .integer(stu.arrival?.uncertainty),
            .integer(stu.departure?.delay), .integer(stu.departure?.time), .integer(stu.departure?.uncertainty),
            .text(stu.relationship.rawValue),
        ]
    }

    static func vehicle(_ vehicle: RealtimeVehicle) -> [SQLArgument] {
        [
            .text(vehicle.vehicle?.id), .text(vehicle.vehicle?.label), .text(vehicle.vehicle?.licensePlate),
            .real(vehicle.latitude), .real(vehicle.longitude), .real(vehicle.bearing), .real(vehicle.speed),
            .integer(vehicle.currentStopSequence), .text(vehicle.stopID), .text(vehicle.stopStatus), .integer(vehicle.timestamp),
            .text(vehicle.congestion), .text(vehicle.occupancy),
        ]
    }

    static func informedEntity(_ informed: RealtimeAlert.InformedEntity) -> [SQLArgument] {
        [
            .text(informed.agencyID), .text(informed.routeID), .integer(informed.routeType), .integer(informed.directionID),
            .text(informed.tripID), .text(informed.stopID),
        ]
    }
}
