import Foundation
import GRDB
import GTFS

/// The departure and arrival boards of the SQLite store: `BoardQuery`'s queries read
/// through GRDB cursors and merged as they are read.
enum StopEvents {
    /// Calls `body` with each event at `stopID` (and its platforms) in `[start, end)`, in time order (then
    /// trip, stop sequence and service date). Memory stays bounded however many events there are (SQLite
    /// sorts in its temporary files beyond its cache).
    /// - Parameter limit: the most events, or `nil` for all.
    static func forEach(
        _ db: Database, _ kind: BoardOrder.Kind, stopID: String, start: Date, end: Date, feed name: String, limit: Int?,
        realtime: RealtimeOptions?, _ body: (StopEvent) throws -> Void
    ) throws {
        let feed = try GTFSStore.feedID(db, name: name)
        let stops = try feed.map { try String.fetchAll(db, sql: BoardQuery.stopsSQL(.sqlite), arguments: [$0, stopID, stopID]) } ?? []
        try BoardQuery.check(stopID: stopID, feed: name, feedFound: feed != nil, stops: stops) {
            try String.fetchAll(db, sql: BoardQuery.feedNamesSQL)
        }
        guard let feed else { return }
        // A store an older build wrote, opened read-only, has no realtime tables: nothing is predicted in it.
        let hasRealtime = try realtime != nil && db.tableExists(RealtimeTables.sources.name)
        let window = try realtime.flatMap { hasRealtime ? try RealtimeReads.window(SQLiteRealtimeSession(db: db), feed: feed, options: $0) : nil }
        let body = realtime != nil && !hasRealtime ? { try body(RealtimeCall.scheduled($0)) } : body
        guard let query = BoardQuery(kind, stops: stops, start: start, end: end, limit: limit, dialect: .sqlite, realtime: window) else { return }
        func cursor(runs: Bool) throws -> RowCursor? {
            let latestArguments = StatementArguments(query.latestArguments(feed: feed).map(\.databaseValue))
            guard let latest = try Int64.fetchOne(db, sql: query.latestSQL(runs: runs), arguments: latestArguments) else { return nil }
            let arguments = StatementArguments(query.eventArguments(feed: feed, latest: latest).map(\.databaseValue))
            return try Row.fetchCursor(db, sql: query.eventsSQL(runs: runs), arguments: arguments)
        }
        let timetabled = try cursor(runs: false)
        let runs = try cursor(runs: true)
        let added = try window.map { _ in
            try Row.fetchCursor(db, sql: query.addedSQL(), arguments: StatementArguments(query.addedArguments(feed: feed).map(\.databaseValue)))
        }
        let sources = [timetabled, runs, added].map { cursor in { try nextEvent(cursor, query) } }
        try BoardOrder.merge(kind, sources, limit: limit, body)
    }

    /// Calls `body` with each departure of the network in `[start, end)`, in time order (``NetworkWindowQuery``).
    static func forEachOfNetwork(
        _ db: Database, start: Date, end: Date, feed name: String, limit: Int?, _ body: (StopEvent) throws -> Void
    ) throws {
        guard let feed = try GTFSStore.feedID(db, name: name) else {
            throw StoreError.unknownFeed(name: name, feeds: try String.fetchAll(db, sql: BoardQuery.feedNamesSQL))
        }
        guard let query = NetworkWindowQuery(start: start, end: end, limit: limit, dialect: .sqlite) else { return }
        let rows = try Row.fetchCursor(db, sql: query.sql, arguments: StatementArguments(query.arguments(feed: feed).map(\.databaseValue)))
        while let event = try nextEvent(rows, nil) { try body(event) }
    }

    /// The next event of `cursor`, past any row that makes none; `nil` at its end.
    private static func nextEvent(_ cursor: RowCursor?, _ query: BoardQuery?) throws -> StopEvent? {
        while let row = try cursor?.next() {
            if let event = query.map({ $0.event(row) }) ?? BoardQuery.event(row) { return event }
        }
        return nil
    }
}

extension Row: BoardRow {
    func integer(_ index: Int) -> Int64? { self[index] }
    func text(_ index: Int) -> String? { self[index] }
    func real(_ index: Int) -> Double? { self[index] }
}

extension SQLArgument {
    var databaseValue: DatabaseValue {
        switch self {
        case .text(let text): text.databaseValue
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .null: .null
        }
    }
}
