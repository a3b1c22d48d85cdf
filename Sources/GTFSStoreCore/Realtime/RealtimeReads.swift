package import Foundation

/// The realtime questions both stores answer with the same SQL: a realtime board's window, the alerts
/// in force at stops and routes, and vehicle positions.
package enum RealtimeReads {
    /// The window of a realtime board of the feed numbered `feed`.
    package static func window(_ session: some RealtimeSession, feed: Int64, options: RealtimeOptions) throws -> BoardQuery.RealtimeWindow {
        var (latest, earliest, sources): (Int64?, Int64?, Int64?) = (nil, nil, nil)
        try session.query(BoardQuery.RealtimeWindow.sql(session.dialect), [.integer(feed)]) {
            (latest, earliest, sources) = ($0.integer(0), $0.integer(1), $0.integer(2))
        }
        return BoardQuery.RealtimeWindow(latest: latest, earliest: earliest, sources: Int(sources ?? 0), maxAge: options.maxAge, now: options.now)
    }

    /// The alerts active at `instant` that inform one of `stops` (on any route, or on one of `routes`),
    /// one of `routes` anywhere, or one of `trips`, by entity id.
    package static func alerts(
        _ session: some RealtimeSession, feed: Int64, stops: [String], routes: [String], trips: [String], at instant: Date
    ) throws -> [RealtimeAlert] {
        let p = session.dialect.placeholder
        var arguments: [SQLArgument] = [.integer(feed), .integer(Int64(instant.timeIntervalSince1970))]
        func list(_ values: [String]) -> String {
            guard !values.isEmpty else { return "(NULL)" }
            let first = arguments.count + 1
            arguments += values.map(SQLArgument.text)
            return "(" + (first ..< first + values.count).map(p).joined(separator: ", ") + ")"
        }
        let (stopList, routeList, stopRoutes, tripList) = (list(stops), list(routes), list(routes), list(trips))
        let owner = "feed = a.feed AND source = a.source AND entity_id = a.entity_id"
        var keys: [(source: String, id: String)] = []
        try session.query(
            """
            SELECT a.source, a.entity_id FROM realtime_alerts a WHERE a.feed = \(p(1))
                AND (NOT EXISTS (SELECT 1 FROM realtime_alert_periods WHERE \(owner))
                    OR EXISTS (SELECT 1 FROM realtime_alert_periods WHERE \(owner)
                        AND (start_time IS NULL OR start_time <= \(p(2))) AND (end_time IS NULL OR end_time > \(p(2)))))
                AND EXISTS (SELECT 1 FROM realtime_alert_entities WHERE \(owner) AND (
                    (stop_id IN \(stopList) AND (route_id IS NULL OR route_id IN \(stopRoutes)))
                    OR (stop_id IS NULL AND route_id IN \(routeList)) OR (stop_id IS NULL AND trip_id IN \(tripList))))
            ORDER BY a.entity_id, a.source
            """, arguments
        ) { row in keys.append((row.text(0) ?? "", row.text(1) ?? "")) }
        return try keys.map { try alert(session, feed: feed, source: $0.source, id: $0.id) }
    }

    /// One alert with its periods, informed entities and texts.
    private static func alert(_ session: some RealtimeSession, feed: Int64, source: String, id: String) throws -> RealtimeAlert {
        let p = session.dialect.placeholder
        let key: [SQLArgument] = [.integer(feed), .text(source), .text(id)]
        let owner = "WHERE feed = \(p(1)) AND source = \(p(2)) AND entity_id = \(p(3))"
        var alert = RealtimeAlert(entityID: id)
        try session.query("SELECT cause, effect, severity FROM realtime_alerts \(owner)", key) { row in
            (alert.cause, alert.effect, alert.severity) = (row.text(0), row.text(1), row.text(2))
        }
        try session.query("SELECT start_time, end_time FROM realtime_alert_periods \(owner) ORDER BY position", key) { row in
            alert.activePeriods.append(RealtimeAlert.Period(start: row.integer(0), end: row.integer(1)))
        }
        try session.query(
            "SELECT agency_id, route_id, route_type, direction_id, trip_id, stop_id FROM realtime_alert_entities \(owner) ORDER BY position", key
        ) { row in
            alert.informedEntities.append(
                RealtimeAlert.InformedEntity(
                    agencyID: row.text(0), routeID: row.text(1), routeType: row.integer(2).map { Int($0) }, directionID: row.integer(3).map { Int($0) },
                    tripID: row.text(4), stopID: row.text(5)))
        }
        try session.query("SELECT field, language, text FROM realtime_alert_texts \(owner) ORDER BY field, position", key) { row in
            let text = RealtimeAlert.Text(row.text(2) ?? "", language: row.text(1))
            switch row.text(0) {
            case "url": alert.url.append(text)
            case "header": alert.header.append(text)
            default: alert.description.append(text)
            }
        }
        return alert
    }

    /// The vehicle positions of a feed measured at `freshSince` or later (or without a time): within
    /// `meters` of a point, nearest first, when `near` is given; of `route` when given; by entity id otherwise.
    package static func vehicles(
        _ session: some RealtimeSession, feed: Int64, near: (latitude: Double, longitude: Double, meters: Double)?, route: String?,
        options: RealtimeOptions
    ) throws -> [RealtimeVehicle] {
        let p = session.dialect.placeholder
        var sql = """
            SELECT entity_id, trip_id, route_id, direction_id, start_time, start_date, schedule_relationship, vehicle_id, vehicle_label,
                license_plate, latitude, longitude, bearing, speed, current_stop_sequence, stop_id, current_status, timestamp,
                congestion_level, occupancy_status
            FROM realtime_vehicles WHERE feed = \(p(1)) AND (timestamp IS NULL OR timestamp >= \(p(2)))
            """
        var arguments: [SQLArgument] = [.integer(feed), .integer(Int64((options.now.timeIntervalSince1970 - options.maxAge).rounded(.up)))]
        if let route {
            sql += " AND route_id = \(p(3))"
            arguments.append(.text(route))
        }
        var vehicles: [RealtimeVehicle] = []
        try session.query(sql + " ORDER BY entity_id, source", arguments) { row in vehicles.append(vehicle(row)) }
        guard let near else { return vehicles }
        let measured = vehicles.compactMap { vehicle -> (RealtimeVehicle, Double)? in
            guard let latitude = vehicle.latitude, let longitude = vehicle.longitude else { return nil }
            let meters = GeoDistance.meters(near.latitude, near.longitude, latitude, longitude)
            return meters <= near.meters ? (vehicle, meters) : nil
        }
        return measured.sorted { $0.1 < $1.1 }.map(\.0)
    }

    private static func vehicle(_ row: some BoardRow) -> RealtimeVehicle {
        let trip = RealtimeTrip(
            tripID: row.text(1), routeID: row.text(2), directionID: row.integer(3).map { Int($0) }, startTime: row.text(4), startDate: row.text(5),
            relationship: row.text(6).flatMap(RealtimeTrip.Relationship.init(rawValue:)) ?? .scheduled)
        let hasTrip = (1 ... 5).contains { row.text($0) != nil }
        return RealtimeVehicle(
            entityID: row.text(0) ?? "", trip: hasTrip ? trip : nil,
            vehicle: RealtimeVehicleDescriptor(id: row.text(7), label: row.text(8), licensePlate: row.text(9)),
            latitude: row.real(10), longitude: row.real(11), bearing: row.real(12), speed: row.real(13),
            currentStopSequence: row.integer(14).map { Int($0) }, stopID: row.text(15), stopStatus: row.text(16), timestamp: row.integer(17),
            congestion: row.text(18), occupancy: row.text(19))
    }
}
