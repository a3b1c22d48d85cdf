import GRDB
public import GTFS

extension GTFSStore {
    /// The records of one table of a feed, as the record type the GTFS module parses: an app shows a list
    /// without writing SQL.
    ///
    /// ```swift
    /// let routes = try store.records(Route.self)                                   // every route
    /// let u2 = try store.records(Trip.self, where: "route_id = ?", arguments: ["U2"])  // some trips
    /// ```
    /// - Parameters:
    ///   - type: the record type (`Stop`, `Route`, `StopTime`, …); its file names the table.
    ///   - feed: the feed's name.
    ///   - condition: an SQL condition on the table's columns (the GTFS field names), with `?` placeholders.
    ///   - arguments: the values of the placeholders (text, integers, doubles).
    ///   - order: an SQL `ORDER BY` list; the table's storage order when `nil`.
    /// - Returns: the records; empty for an unknown feed. A row that does not decode as a record (one written
    ///   by other means than an import, breaking a rule of the reference) is left out.
    /// - Throws: `DatabaseError` (a condition that is not valid SQL, say).
    public func records<R: GTFSRecord>(
        _ type: R.Type, feed: String = "default", where condition: String? = nil, arguments: [any Sendable] = [],
        order: String? = nil
    ) throws -> [R] {
        let values = try Self.databaseValues(arguments)
        return try read { db in
            guard let id = try Self.feedID(db, name: feed) else { return [] }
            return try StoredRecords.fetch(R.self, db, feed: id, where: condition, arguments: StatementArguments(values), order: order)
        }
    }

    /// The trip `id` with its stop times in `stop_sequence` order; `nil` when the feed has no such trip.
    ///
    /// ```swift
    /// if let trip = try store.trip("1234") { print(trip.trip.tripHeadsign ?? "", trip.stopTimes.count) }
    /// ```
    /// - Parameters:
    ///   - id: the trip's `trip_id`.
    ///   - feed: the feed's name.
    /// - Returns: the trip and its stop times, or `nil`.
    /// - Throws: `DatabaseError`.
    public func trip(_ id: String, feed: String = "default") throws -> TripTimetable? {
        try read { db in
            guard let feedID = try Self.feedID(db, name: feed),
                let trip = try StoredRecords.fetch(Trip.self, db, feed: feedID, where: "trip_id = ?", arguments: [id]).first
            else { return nil }
            let stopTimes = try StoredRecords.fetch(
                StopTime.self, db, feed: feedID, where: "trip_id = ?", arguments: [id], order: "stop_sequence")
            return TripTimetable(trip: trip, stopTimes: stopTimes)
        }
    }

    /// The services that run on `date` (from `calendar` and `calendar_dates`), sorted.
    ///
    /// ```swift
    /// let services = try store.services(on: GTFSDate(year: 2025, month: 6, day: 2)!)
    /// ```
    /// - Parameters:
    ///   - date: the service date.
    ///   - feed: the feed's name.
    /// - Returns: the `service_id`s; empty for an unknown feed or a date without service.
    /// - Throws: `DatabaseError`.
    public func services(on date: GTFSDate, feed: String = "default") throws -> [GTFSID] {
        try read { db in
            guard let id = try Self.feedID(db, name: feed) else { return [] }
            return try String.fetchAll(
                db, sql: "SELECT service_id FROM service_days WHERE feed = ? AND date = ? ORDER BY service_id",
                arguments: [id, date.integerValue]
            ).map { GTFSID($0) }
        }
    }

    /// The first and the last date on which some service of the feed runs; `nil` for an unknown feed or one
    /// whose services never run.
    public func serviceDates(feed: String = "default") throws -> ClosedRange<GTFSDate>? {
        try read { db in
            guard let id = try Self.feedID(db, name: feed),
                let row = try Row.fetchOne(db, sql: "SELECT min(date), max(date) FROM feed_days WHERE feed = ?", arguments: [id]),
                let first = (row[0] as Int?).flatMap({ GTFSDate(String($0)) }), let last = (row[1] as Int?).flatMap({ GTFSDate(String($0)) })
            else { return nil }
            return first ... last
        }
    }

    /// The feed's number in `feeds`.
    static func feedID(_ db: Database, name: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT feed FROM feeds WHERE name = ?", arguments: [name])
    }

    /// Arguments for SQL: the values a caller may give (text, identifiers, integers, doubles, booleans, nil).
    private static func databaseValues(_ arguments: [any Sendable]) throws -> [DatabaseValue] {
        try arguments.map { argument in
            switch argument {
            case let value as String: value.databaseValue
            case let value as GTFSID: value.description.databaseValue
            case let value as Int: value.databaseValue
            case let value as Int64: value.databaseValue
            case let value as Double: value.databaseValue
            case let value as Bool: (value ? 1 : 0).databaseValue
            case let value as GTFSDate: value.integerValue.databaseValue
            case Optional<Int>.none: DatabaseValue.null
            default: throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "an argument of type \(Swift.type(of: argument)) cannot be bound")
            }
        }
    }
}
