import Foundation
import GTFS
import GTFSImport
import GTFSPostgres
import GTFSStoreCore
import TestSupport
import Testing

/// The realtime state on both stores: one scenario, the same answers.
@Suite(.serialized)
struct RealtimeStoreTests {
    /// The timetable (`RealtimeTestFeed`).
    static let files = RealtimeTestFeed.files

    /// 2026-11-27, a Friday, at `time` in Berlin (UTC+1 in November).
    static func at(_ time: String, day: Int = 27) -> Date {
        let seconds = Int(GTFSTime(time)!.seconds)
        return Date(timeIntervalSince1970: Double(1_795_734_000 + (day - 27) * 86_400 + seconds))
    }

    static func unix(_ time: String, day: Int = 27) -> Int64 { Int64(at(time, day: day).timeIntervalSince1970) }

    /// Options of a read or an application made at 08:00 that morning.
    static let morning = RealtimeOptions(now: at("08:00:00"))

    static func update(
        _ entity: String, trip: RealtimeTrip, _ updates: [RealtimeStopTimeUpdate] = [], timestamp: Int64? = nil
    ) -> RealtimeTripUpdate {
        RealtimeTripUpdate(entityID: entity, trip: trip, timestamp: timestamp, stopTimeUpdates: updates)
    }

    static func delayed(_ sequence: Int, _ seconds: Int) -> RealtimeStopTimeUpdate {
        RealtimeStopTimeUpdate(stopSequence: sequence, arrival: RealtimeStopTimeEvent(delay: seconds))
    }

    /// Runs `body` with a store holding the feed as `default`: the SQLite store, then the PostgreSQL store.
    static func withStores(_ body: (any FeedStore) throws -> Void) throws {
        let folder = try TemporaryFolder()
        for (name, text) in files { try folder.write(text, name: "feed/\(name)") }
        let source = try FeedSource(path: folder.file("feed"))
        let lite = try GTFSStore(path: folder.file("rt.sqlite"))
        _ = try lite.importFeedSynchronously(from: source)
        try body(lite)
        let server = try TestServer()
        defer { server.stop() }
        let postgres = try PostgresStore(connectionString: server.connectionString)
        _ = try postgres.importFeedSynchronously(from: source)
        try body(postgres)
    }

    static func board(_ store: any FeedStore, _ stop: String, _ from: String, _ to: String, options: RealtimeOptions = morning) throws -> [StopEvent] {
        try store.departures(from: stop, between: at(from), and: at(to), realtime: options)
    }

    @Test func delaysPropagateAndOrderTheBoard() throws {
        try Self.withStores { store in
            let message = RealtimeMessage(
                timestamp: Self.unix("07:59:00"),
                tripUpdates: [Self.update("e1", trip: RealtimeTrip(tripID: "T1", startDate: "20261127"), [Self.delayed(2, 120)])])
            let summary = try store.applyRealtime(message, source: "trips.pb", feed: "default", options: Self.morning)
            #expect(summary.matchedTrips == 1 && summary.changedEntities == 1 && summary.unmatchedTrips == 0)
            let atS3 = try Self.board(store, "S3", "08:09:00", "08:13:00")
            #expect(atS3.map(\.tripID.description) == ["T1"])
            #expect(atS3.first?.realtime == RealtimeCall(status: .predicted, predictedArrival: Self.at("08:12:00"),
                predictedDeparture: Self.at("08:12:00"), arrivalDelay: 120, departureDelay: 120))
            #expect(atS3.first?.departure == Self.at("08:10:00"))
            // Before the first update: no prediction.
            let atS1 = try Self.board(store, "S1", "08:00:00", "08:01:00")
            #expect(atS1.first?.realtime?.status == .scheduled)
            // The scheduled window alone would miss T1 at S3 (08:10); its predicted 08:12 is in 08:11–08:13.
            #expect(try Self.board(store, "S3", "08:11:00", "08:13:00").map(\.tripID.description) == ["T1"])
            #expect(try store.departures(from: "S3", between: Self.at("08:11:00"), and: Self.at("08:13:00")).isEmpty)
        }
    }

    @Test func sameMessageWritesNothingAndAChangedEntityOnlyItself() throws {
        try Self.withStores { store in
            var message = RealtimeMessage(
                timestamp: Self.unix("07:59:00"),
                tripUpdates: [
                    Self.update("e1", trip: RealtimeTrip(tripID: "T1", startDate: "20261127"), [Self.delayed(1, 60)]),
                    Self.update("e2", trip: RealtimeTrip(tripID: "T2", startDate: "20261127"), [Self.delayed(1, 30)]),
                ])
            let first = try store.applyRealtime(message, source: "trips.pb", feed: "default", options: Self.morning)
            #expect(first.changedEntities == 2 && first.rowsWritten > 0)
            let again = try store.applyRealtime(message, source: "trips.pb", feed: "default", options: Self.morning)
            #expect(again.unchangedMessage && again.rowsWritten == 0 && again.rowsDeleted == 0)
            message.tripUpdates[1].stopTimeUpdates = [Self.delayed(1, 90)]
            let changed = try store.applyRealtime(message, source: "trips.pb", feed: "default", options: Self.morning)
            #expect(changed.changedEntities == 1 && changed.removedEntities == 0)
            #expect(try Self.board(store, "S2", "08:30:00", "08:40:00").first?.realtime?.departureDelay == 90)
            // The full dataset without e2: its predictions go.
            message.tripUpdates.removeLast()
            let removed = try store.applyRealtime(message, source: "trips.pb", feed: "default", options: Self.morning)
            #expect(removed.removedEntities == 1 && removed.rowsDeleted > 0)
            #expect(try Self.board(store, "S2", "08:30:00", "08:40:00").first?.realtime?.status == .scheduled)
        }
    }

    @Test func cancelledSkippedAndAddedTrips() throws {
        try Self.withStores { store in
            let skip = RealtimeStopTimeUpdate(stopSequence: 3, relationship: .skipped)
            let added = RealtimeTrip(tripID: "X1", routeID: "R1", startDate: "20261127", relationship: .added)
            let message = RealtimeMessage(
                timestamp: Self.unix("07:59:00"),
                tripUpdates: [
                    Self.update("e1", trip: RealtimeTrip(tripID: "T1", startDate: "20261127"), [Self.delayed(2, 60), skip]),
                    Self.update("e2", trip: RealtimeTrip(tripID: "T2", startDate: "20261127", relationship: .canceled)),
                    Self.update("e3", trip: added, [
                        RealtimeStopTimeUpdate(stopID: "S2", departure: RealtimeStopTimeEvent(time: Self.unix("08:44:00"))),
                        RealtimeStopTimeUpdate(stopID: "S5", arrival: RealtimeStopTimeEvent(time: Self.unix("08:50:00"))),
                    ]),
                ])
            _ = try store.applyRealtime(message, source: "trips.pb", feed: "default", options: Self.morning)
            let atS3 = try Self.board(store, "S3", "08:00:00", "08:45:00")
            #expect(atS3.map { $0.realtime?.status } == [.skipped])
            // The skip keeps the delay from before it flowing: S4 at 08:16.
            #expect(try Self.board(store, "S4", "08:14:00", "08:17:00").first?.realtime?.predictedDeparture == Self.at("08:16:00"))
            let atS2 = try Self.board(store, "S2", "08:30:00", "08:50:00")
            #expect(atS2.map(\.tripID.description) == ["T2", "X1"])
            #expect(atS2.map { $0.realtime?.status } == [.cancelled, .added])
            #expect(atS2.last?.routeShortName == "M4" && atS2.last?.lastStopName == "Five" && atS2.last?.departure == Self.at("08:44:00"))
        }
    }

    @Test func staleUpdatesShowTheTimetable() throws {
        try Self.withStores { store in
            let message = RealtimeMessage(
                timestamp: Self.unix("07:59:00"),
                tripUpdates: [Self.update("e1", trip: RealtimeTrip(tripID: "T1", startDate: "20261127"), [Self.delayed(1, 300)])])
            _ = try store.applyRealtime(message, source: "trips.pb", feed: "default", options: Self.morning)
            let later = RealtimeOptions(now: Self.at("08:20:00"))
            #expect(try Self.board(store, "S2", "08:00:00", "08:20:00", options: later).first?.realtime?.status == .scheduled)
            #expect(try Self.board(store, "S2", "08:00:00", "08:20:00").first?.realtime?.status == .predicted)
            // Applied when already stale: stored, no predictions.
            let summary = try store.applyRealtime(
                RealtimeMessage(timestamp: Self.unix("07:00:00"), tripUpdates: message.tripUpdates), source: "old.pb", feed: "default",
                options: Self.morning)
            #expect(summary.staleTrips == 1)
        }
    }

    @Test func aNewerHeaderKeepsUnchangedPredictionsFresh() throws {
        try Self.withStores { store in
            let updates = [Self.update("e1", trip: RealtimeTrip(tripID: "T2", startDate: "20261127"), [Self.delayed(1, 120)])]
            _ = try store.applyRealtime(
                RealtimeMessage(timestamp: Self.unix("07:59:00"), tripUpdates: updates), source: "trips.pb", feed: "default", options: Self.morning)
            let later = RealtimeOptions(now: Self.at("08:16:00"))
            let renewed = try store.applyRealtime(
                RealtimeMessage(timestamp: Self.unix("08:15:00"), tripUpdates: updates), source: "trips.pb", feed: "default", options: later)
            #expect(renewed.changedEntities == 0 && renewed.rowsWritten == 0 && !renewed.unchangedMessage)
            // 21 minutes after the first message, 5 after the second: the update without a timestamp of its own is fresh.
            let board = try Self.board(store, "S2", "08:30:00", "08:40:00", options: RealtimeOptions(now: Self.at("08:20:00")))
            #expect(board.first?.realtime?.status == .predicted)
        }
    }

    @Test func tripsFoundWithoutIDOrDateAndFrequencyRuns() throws {
        try Self.withStores { store in
            let message = RealtimeMessage(
                timestamp: Self.unix("07:59:00"),
                tripUpdates: [
                    // T2 by route, direction, date and start.
                    Self.update("e1", trip: RealtimeTrip(routeID: "R1", directionID: 0, startTime: "08:30:00", startDate: "20261127"), [Self.delayed(1, 60)]),
                    // T4 of Thursday, by the time its update reaches (00:35 on Friday): no start_date.
                    Self.update("e2", trip: RealtimeTrip(tripID: "T4"), [
                        RealtimeStopTimeUpdate(stopSequence: 2, arrival: RealtimeStopTimeEvent(time: Self.unix("00:43:00"))),
                    ], timestamp: Self.unix("00:35:00")),
                    // F1's run at 08:10.
                    Self.update("e3", trip: RealtimeTrip(tripID: "F1", startTime: "08:10:00", startDate: "20261127"), [Self.delayed(1, 45)]),
                ])
            let summary = try store.applyRealtime(message, source: "trips.pb", feed: "default", options: RealtimeOptions(now: Self.at("00:36:00")))
            #expect(summary.matchedTrips == 3, "\(summary.notes)")
            let options = RealtimeOptions(now: Self.at("00:36:00"))
            let t2 = try Self.board(store, "S2", "08:30:00", "08:40:00", options: options)
            #expect(t2.first?.tripID.description == "T2" && t2.first?.realtime?.departureDelay == 60)
            let t4 = try Self.board(store, "S2", "00:00:00", "01:00:00", options: options)
            #expect(t4.first?.serviceDate == GTFSDate("20261126") && t4.first?.realtime?.departureDelay == 180)
            let f1 = try Self.board(store, "S5", "08:00:00", "08:30:00", options: options)
            #expect(f1.map { $0.realtime?.departureDelay } == [nil, 45, nil])
        }
    }

    @Test func theNightTheClocksChange() throws {
        let utc = ISO8601DateFormatter()
        let arrival = utc.date(from: "2026-03-29T06:07:00Z")!  // 08:07 CEST, two minutes late at S2
        let options = RealtimeOptions(now: utc.date(from: "2026-03-29T06:00:00Z")!)
        try Self.withStores { store in
            let update = Self.update("e1", trip: RealtimeTrip(tripID: "T1"), [
                RealtimeStopTimeUpdate(stopSequence: 2, arrival: RealtimeStopTimeEvent(time: Int64(arrival.timeIntervalSince1970))),
            ])
            let message = RealtimeMessage(timestamp: Int64(options.now.timeIntervalSince1970), tripUpdates: [update])
            #expect(try store.applyRealtime(message, source: "dst.pb", feed: "default", options: options).matchedTrips == 1)
            let board = try store.departures(
                from: "S2", between: utc.date(from: "2026-03-29T06:00:00Z")!, and: utc.date(from: "2026-03-29T06:10:00Z")!, realtime: options)
            #expect(board.map(\.serviceDate) == [GTFSDate("20260329")!])
            #expect(board.first?.realtime?.predictedDeparture == arrival && board.first?.realtime?.departureDelay == 120)
        }
    }

    @Test func differentialAndUnknownFeedAreRefusedWithoutWriting() throws {
        try Self.withStores { store in
            let differential = RealtimeMessage(incrementality: .differential, tripUpdates: [])
            #expect(throws: RealtimeError.differentialRefused(source: "d.pb")) {
                try store.applyRealtime(differential, source: "d.pb", feed: "default", options: Self.morning)
            }
            #expect(throws: RealtimeError.unknownFeed(name: "nope")) {
                try store.applyRealtime(RealtimeMessage(), source: "d.pb", feed: "nope", options: Self.morning)
            }
        }
    }

    @Test func alertsAndVehicles() throws {
        try Self.withStores { store in
            let alert = RealtimeAlert(
                entityID: "a1", activePeriods: [.init(start: Self.unix("07:00:00"), end: Self.unix("12:00:00"))],
                informedEntities: [.init(stopID: "S1")], cause: "STRIKE", effect: "NO_SERVICE",
                header: [.init("Streik", language: "de"), .init("Strike", language: "en")])
            let routeAlert = RealtimeAlert(entityID: "a2", informedEntities: [.init(routeID: "R2")], effect: "DETOUR", header: [.init("Umleitung")])
            let vehicle = RealtimeVehicle(
                entityID: "v1", trip: RealtimeTrip(tripID: "T1", routeID: "R1"), vehicle: RealtimeVehicleDescriptor(id: "bus 7"),
                latitude: 52.5201, longitude: 13.4001, timestamp: Self.unix("07:59:30"))
            let far = RealtimeVehicle(entityID: "v2", latitude: 48.1, longitude: 11.5, timestamp: Self.unix("07:59:30"))
            _ = try store.applyRealtime(
                RealtimeMessage(timestamp: Self.unix("07:59:00"), vehicles: [vehicle, far], alerts: [alert, routeAlert]), source: "all.pb",
                feed: "default", options: Self.morning)
            #expect(try store.alerts(feed: "default", stops: ["S1"], routes: [], trips: [], at: Self.at("08:00:00")) == [alert])
            #expect(try store.alerts(feed: "default", stops: ["S1"], routes: [], trips: [], at: Self.at("13:00:00")).isEmpty)
            #expect(try store.alerts(feed: "default", stops: ["S2"], routes: ["R2"], trips: [], at: Self.at("08:00:00")) == [routeAlert])
            let near = try store.vehicles(feed: "default", near: (52.52, 13.40, 500), route: nil, options: Self.morning)
            #expect(near == [vehicle])
            #expect(try store.vehicles(feed: "default", near: nil, route: "R1", options: Self.morning) == [vehicle])
            #expect(try store.vehicles(feed: "default", near: nil, route: nil, options: RealtimeOptions(now: Self.at("09:00:00"))).isEmpty)
            #expect(try store.removeFeed(named: "default", lockWait: nil) != nil)
        }
    }
}
