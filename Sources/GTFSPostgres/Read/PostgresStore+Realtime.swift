public import Foundation
import GTFSStoreCore

/// A transaction on the PostgreSQL store's connection as the realtime engine speaks to it (its
/// `search_path` is the store's schema).
struct PostgresRealtimeSession: RealtimeSession {
    let connection: PostgresConnection
    var dialect: SQLDialect { .postgres }

    func execute(_ sql: String, _ arguments: [SQLArgument]) throws -> Int {
        try connection.command(sql, arguments.map(\.text), "write the realtime state")
    }

    func query(_ sql: String, _ arguments: [SQLArgument], _ body: (any BoardRow) throws -> Void) throws {
        for row in try connection.query(sql, arguments.map(\.text), "read the realtime state") { try body(TextRow(values: row)) }
    }
}

extension PostgresStore {
    /// Applies a GTFS-Realtime message to a feed (see `FeedStore.applyRealtime(_:source:feed:options:)`): one
    /// transaction; readers meanwhile read the state before it.
    /// - Throws: `RealtimeError`, an error of the message's bytes, or ``PostgresError``; the store is then as it was.
    public func applyRealtime(
        _ message: any RealtimeEntitySource, source: String, feed: String = "default", options: RealtimeOptions = RealtimeOptions()
    ) throws -> RealtimeSummary {
        try exclusively("apply a realtime message") { () throws -> RealtimeSummary in
            guard let version = try PostgresSchemaVersion.stored(schema: schema, connection: connection) else {
                throw RealtimeError.unknownFeed(name: feed)
            }
            try connection.execute("BEGIN; SET LOCAL search_path TO \(schema), pg_catalog, pg_temp", "begin a transaction")
            do {
                if version < PostgresSchemaVersion.latest(migrations) {
                    try lock(waiting: nil)
                    try PostgresSchemaVersion.migrate(schema: schema, from: version, migrations: migrations, connection: connection)
                }
                let summary = try RealtimeApply.run(
                    PostgresRealtimeSession(connection: connection), message: message, messageDigest: message.messageDigest, feed: feed,
                    source: source, options: options)
                try connection.execute("COMMIT", "commit")
                return summary
            } catch {
                _ = try? connection.execute("ROLLBACK", "roll back")
                throw error
            }
        }
    }

    /// The alerts in force at `instant` that inform the stops, routes or trips (see `FeedStore.alerts(feed:stops:routes:trips:at:)`).
    public func alerts(feed: String = "default", stops: [String], routes: [String] = [], trips: [String] = [], at instant: Date) throws -> [RealtimeAlert] {
        try read { reading in
            guard let number = try reading.feed(named: feed), try reading.hasRealtime() else { return [] }
            return try RealtimeReads.alerts(
                PostgresRealtimeSession(connection: reading.connection), feed: Int64(number), stops: stops, routes: routes, trips: trips, at: instant)
        }
    }

    /// Vehicle positions (see `FeedStore.vehicles(feed:near:route:options:)`).
    public func vehicles(
        feed: String = "default", near: (latitude: Double, longitude: Double, meters: Double)?, route: String?,
        options: RealtimeOptions = RealtimeOptions()
    ) throws -> [RealtimeVehicle] {
        try read { reading in
            guard let number = try reading.feed(named: feed) else { throw StoreError.unknownFeed(name: feed, feeds: try reading.feedNames()) }
            guard try reading.hasRealtime() else { return [] }
            return try RealtimeReads.vehicles(
                PostgresRealtimeSession(connection: reading.connection), feed: Int64(number), near: near, route: route, options: options)
        }
    }
}

extension PostgresReading {
    /// Whether the schema has the realtime tables (a schema written before version 7 has not, until its next write).
    func hasRealtime() throws(PostgresError) -> Bool {
        try connection.query("SELECT to_regclass($1) IS NOT NULL", ["\(schema).realtime_sources"], "look for the realtime tables").first?.first == "t"
    }
}
