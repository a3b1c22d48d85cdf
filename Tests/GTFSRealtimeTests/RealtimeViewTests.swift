import Foundation
import GRDB
import GTFS
import GTFSImport
@testable import GTFSPostgres
import GTFSStoreCore
import TestSupport
import Testing

/// `realtime_arrivals_departures`, the view beside `arrivals_departures`, in both stores: the same rows.
@Suite(.serialized)
struct RealtimeViewTests {
    static let sql = """
        SELECT trip_id, stop_sequence, status, departure_delay, predicted_departure - departure, predicted_departure
        FROM realtime_arrivals_departures WHERE feed = 1 AND stop_id = 'S2' AND status <> 'scheduled' ORDER BY trip_id, stop_sequence
        """

    /// A value as PostgreSQL writes it in text.
    static func text(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "NULL"
        case .int64(let number): String(number)
        case .double(let number): String(number)
        case .string(let text): text
        case .blob(let data): data.description
        }
    }

    @Test func predictionsAndAddedTripsBesideTheTimetable() throws {
        let message = RealtimeMessage(
            timestamp: RealtimeStoreTests.unix("07:59:00"),
            tripUpdates: [
                RealtimeStoreTests.update("e1", trip: RealtimeTrip(tripID: "T1", startDate: "20261127"), [RealtimeStoreTests.delayed(1, 120)]),
                RealtimeStoreTests.update("e2", trip: RealtimeTrip(tripID: "X1", routeID: "R1", startDate: "20261127", relationship: .added), [
                    RealtimeStopTimeUpdate(stopID: "S2", departure: RealtimeStopTimeEvent(time: RealtimeStoreTests.unix("08:44:00"))),
                    RealtimeStopTimeUpdate(stopID: "S5", arrival: RealtimeStopTimeEvent(time: RealtimeStoreTests.unix("08:50:00"))),
                ]),
            ])
        var answers: [[[String]]] = []
        try RealtimeStoreTests.withStores { store in
            _ = try store.applyRealtime(message, source: "trips.pb", feed: "default", options: RealtimeStoreTests.morning)
            if let lite = store as? GTFSStore {
                answers.append(try lite.pool.read { db in
                    try Row.fetchAll(db, sql: Self.sql).map { row in (0 ..< 6).map { Self.text(row[$0]) } }
                })
            } else if let postgres = store as? PostgresStore {
                answers.append(try postgres.read { reading in
                    try reading.query(Self.sql, [], "read the view").map { row in row.map { $0 ?? "NULL" } }
                })
            }
        }
        let added = String(RealtimeStoreTests.unix("08:44:00"))
        #expect(answers.first == [["T1", "2", "predicted", "120", "120", String(RealtimeStoreTests.unix("08:07:00"))], ["X1", "1", "added", "NULL", "NULL", added]])
        #expect(answers.count == 2 && answers[0] == answers[1])
    }
}
