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
    /// A weekday timetable in Berlin: T1 and T2 along S1…S5, a loop (T3), a trip past midnight (T4), a
    /// frequency-based trip (F1, every 10 minutes from 08:00, exact times) and a station with a platform.
    static let files: [String: String] = [
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,VBB,https://vbb.de,Europe/Berlin\n",
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            ST,Station,52.5200,13.4000,1,
            S1,One,52.5200,13.4000,0,ST
            S2,Two,52.5210,13.4100,0,
            S3,Three,52.5220,13.4200,0,
            S4,Four,52.5230,13.4300,0,
            S5,Five,52.5240,13.4400,0,

            """,
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,M4,900\nR2,A,X9,3\n",
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20261101,20261231\n",
        "trips.txt": """
            route_id,service_id,trip_id,trip_headsign,direction_id
            R1,WD,T1,Nord,0
            R1,WD,T2,Nord,0
            R1,WD,T3,Ring,1
            R1,WD,T4,Nacht,1
            R2,WD,F1,Takt,0

            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,S1,1
            T1,08:05:00,08:05:00,S2,2
            T1,08:10:00,08:10:00,S3,3
            T1,08:15:00,08:15:00,S4,4
            T1,08:20:00,08:20:00,S5,5
            T2,08:30:00,08:30:00,S1,1
            T2,08:35:00,08:35:00,S2,2
            T2,08:40:00,08:40:00,S3,3
            T3,09:00:00,09:00:00,S1,10
            T3,09:05:00,09:05:00,S2,20
            T3,09:10:00,09:10:00,S1,30
            T3,09:15:00,09:15:00,S3,40
            T4,24:30:00,24:30:00,S1,1
            T4,24:40:00,24:40:00,S2,2
            T4,24:50:00,24:50:00,S3,3
            F1,08:00:00,08:00:00,S4,1
            F1,08:04:00,08:04:00,S5,2
            F1,08:08:00,08:08:00,S3,3

            """,
        // Sunday 29 March 2026, when the clocks go forward: its day starts at 23:00 the evening before.
        "calendar_dates.txt": "service_id,date,exception_type\nWD,20260329,1\n",
        "frequencies.txt": "trip_id,start_time,end_time,headway_secs,exact_times\nF1,08:00:00,09:00:00,600,1\n",
    ]

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
