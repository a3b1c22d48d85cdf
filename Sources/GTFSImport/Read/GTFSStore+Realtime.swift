public import Foundation
import GRDB

/// A transaction of the SQLite store as the realtime engine speaks to it.
struct SQLiteRealtimeSession: RealtimeSession {
    let db: Database
    var dialect: SQLDialect { .sqlite }

    // Cached statements: the engine runs the same few statements thousands of times. Unchecked arguments:
    // GRDB's check asks SQLite for each numbered parameter's name, which costs time linear in the
    // parameters, so quadratic for a multi-row INSERT of 3,000 (80 % of a VBB-scale message's time).
    func execute(_ sql: String, _ arguments: [SQLArgument]) throws -> Int {
        let statement = try db.cachedStatement(sql: sql)
        statement.setUncheckedArguments(StatementArguments(arguments.map(\.databaseValue)))
        try statement.execute()
        return db.changesCount
    }

    func query(_ sql: String, _ arguments: [SQLArgument], _ body: (any BoardRow) throws -> Void) throws {
        let statement = try db.cachedStatement(sql: sql)
        statement.setUncheckedArguments(StatementArguments(arguments.map(\.databaseValue)))
        let rows = try Row.fetchCursor(statement)
        while let row = try rows.next() { try body(row) }
    }
}

extension GTFSStore {
    /// Applies a GTFS-Realtime message to a feed (see `FeedStore.applyRealtime(_:source:feed:options:)`): one
    /// write transaction; readers meanwhile read the state before it.
    /// - Throws: `RealtimeError`, an error of the message's bytes, or `DatabaseError`; the store is then as it was.
    public func applyRealtime(
        _ message: any RealtimeEntitySource, source: String, feed: String = "default", options: RealtimeOptions = RealtimeOptions()
    ) throws -> RealtimeSummary {
        try pool.write { db in
            try RealtimeApply.run(
                SQLiteRealtimeSession(db: db), message: message, messageDigest: message.messageDigest, feed: feed, source: source, options: options)
        }
    }

    /// The alerts in force at `instant` that inform the stops, routes or trips (see `FeedStore.alerts(feed:stops:routes:trips:at:)`).
    public func alerts(feed: String = "default", stops: [String], routes: [String] = [], trips: [String] = [], at instant: Date) throws -> [RealtimeAlert] {
        try read { db in
            guard let number = try GTFSStore.feedID(db, name: feed), try db.tableExists(RealtimeTables.alerts.name) else { return [] }
            return try RealtimeReads.alerts(SQLiteRealtimeSession(db: db), feed: number, stops: stops, routes: routes, trips: trips, at: instant)
        }
    }

    /// Vehicle positions (see `FeedStore.vehicles(feed:near:route:options:)`).
    public func vehicles(
        feed: String = "default", near: (latitude: Double, longitude: Double, meters: Double)?, route: String?,
        options: RealtimeOptions = RealtimeOptions()
    ) throws -> [RealtimeVehicle] {
        try read { db in
            guard let number = try GTFSStore.feedID(db, name: feed) else {
                throw StoreError.unknownFeed(name: feed, feeds: try String.fetchAll(db, sql: BoardQuery.feedNamesSQL))
            }
            guard try db.tableExists(RealtimeTables.vehicles.name) else { return [] }
            return try RealtimeReads.vehicles(SQLiteRealtimeSession(db: db), feed: number, near: near, route: route, options: options)
        }
    }
}
