import Foundation
import GRDB
import GTFS
@testable import GTFSImport
import LineReader
import TestSupport
import Testing

/// The read side against an independent brute-force computation (``TimetableOracle``) on seeded random
/// feeds that hold times past 24:00 and 48:00, frequencies with and without exact times, calendar_dates-only
/// services, removals, clashing ids in two feeds, and the days clocks change in Europe/Berlin and
/// America/New_York.
@Suite("Timetable: departures, arrivals and views against a brute-force oracle")
struct TimetableTests {
    /// What two events must agree on.
    struct Key: Hashable, Comparable, CustomStringConvertible {
        var instant: Int64
        var tripID: String
        var stopSequence: Int
        var serviceDate: Int
        var stopID: String

        static func < (a: Key, b: Key) -> Bool {
            (a.instant, a.tripID, a.stopSequence, a.serviceDate, a.stopID) < (b.instant, b.tripID, b.stopSequence, b.serviceDate, b.stopID)
        }

        var description: String { "\(Date(timeIntervalSince1970: Double(instant))) \(tripID)#\(stopSequence) \(serviceDate) @\(stopID)" }
    }

    static func keys(_ events: [StopEvent], departures: Bool) -> [Key] {
        events.compactMap { event in
            guard let instant = departures ? event.departure : event.arrival else { return nil }
            return Key(
                instant: Int64(instant.timeIntervalSince1970), tripID: event.tripID.description, stopSequence: event.stopSequence,
                serviceDate: event.serviceDate.integerValue, stopID: event.stopID.description)
        }
    }

    static func keys(_ events: [TimetableOracle.Event]) -> [Key] {
        events.map { Key(instant: $0.instant, tripID: $0.tripID, stopSequence: $0.stopSequence, serviceDate: $0.serviceDate, stopID: $0.stopID) }
            .sorted()
    }

    /// Each trip's first and last `stop_sequence`: no trip departs from its last stop or arrives at its first.
    static func sequenceBounds(_ timetable: RandomTimetable) throws -> [String: ClosedRange<Int>] {
        let lines = try #require(timetable.files["stop_times.txt"]).split(separator: "\n")
        let header = try #require(lines.first).split(separator: ",", omittingEmptySubsequences: false)
        let (trip, sequence) = (try #require(header.firstIndex(of: "trip_id")), try #require(header.firstIndex(of: "stop_sequence")))
        var bounds: [String: ClosedRange<Int>] = [:]
        for line in lines.dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            let id = String(cells[trip])
            let value = try #require(Int(cells[sequence]))
            bounds[id] = bounds[id].map { min($0.lowerBound, value) ... max($0.upperBound, value) } ?? value ... value
        }
        return bounds
    }

    /// The oracle's departures a board shows: boarding allowed, not the trip's last stop.
    static func boardable(_ events: [TimetableOracle.Event], _ bounds: [String: ClosedRange<Int>]) -> [TimetableOracle.Event] {
        events.filter { $0.pickupType != 1 && $0.stopSequence != bounds[$0.tripID]?.upperBound }
    }

    /// The oracle's arrivals a board shows: alighting allowed, not the trip's first stop.
    static func alightable(_ events: [TimetableOracle.Event], _ bounds: [String: ClosedRange<Int>]) -> [TimetableOracle.Event] {
        events.filter { $0.dropOffType != 1 && $0.stopSequence != bounds[$0.tripID]?.lowerBound }
    }

    /// A store holding `timetables`, each under its feed name.
    static func store(_ timetables: [RandomTimetable], in folder: TemporaryFolder) throws -> GTFSStore {
        let store = try GTFSStore(path: folder.file("timetable.sqlite"))
        for (index, timetable) in timetables.enumerated() {
            var options = ImportOptions()
            options.feed = timetable.feedName
            let path = try FeedFiles.directory(timetable.files, in: folder, name: "feed\(index)")
            let summary = try store.importFeedSynchronously(from: try FeedSource(path: path), options: options)
            #expect(summary.rowsRejected == 0)
        }
        return store
    }

    /// A random timetable of `seed` in `zone`, its oracle, a store holding it (in `folder`, which must
    /// outlive the store's use), and its trips' first and last stop sequences.
    static func fixture(seed: UInt64, zone: String) throws -> (
        folder: TemporaryFolder, timetable: RandomTimetable, oracle: TimetableOracle, store: GTFSStore, bounds: [String: ClosedRange<Int>]
    ) {
        let folder = try TemporaryFolder()
        let timetable = RandomTimetable.make(seed: seed, timeZone: zone)
        return (folder, timetable, try timetable.oracle(), try store([timetable], in: folder), try sequenceBounds(timetable))
    }

    /// Windows to ask about: around each clock change, across the late-night hours, and a few random ones.
    static func windows(_ oracle: TimetableOracle, _ timetable: RandomTimetable) throws -> [(Int64, Int64)] {
        var windows: [(Int64, Int64)] = []
        for date in timetable.clockChangeDates {
            let start = try oracle.dayStart(date: date)
            windows += [(start - 7200, start + 6 * 3600), (start + 22 * 3600, start + 27 * 3600), (start, start + 3 * 86_400)]
        }
        var generator = SeededGenerator(seed: timetable.seed &+ 99)
        let first = try oracle.dayStart(date: timetable.dateRange.lowerBound)
        let last = try oracle.dayStart(date: timetable.dateRange.upperBound) + 3 * 86_400
        for _ in 0 ..< 6 {
            let start = first + Int64(generator.next() % UInt64(max(1, last - first)))
            windows.append((start, start + Int64(generator.next() % 20_000) + 600))
        }
        return windows
    }

    @Test("departures and arrivals equal the oracle's, for stations, platforms and stops", arguments: [
        (UInt64(1), "Europe/Berlin"), (2, "Europe/Berlin"), (3, "America/New_York"), (4, "America/New_York"), (5, "Europe/Berlin"),
    ])
    func boards(seed: UInt64, zone: String) throws {
        let (folder, timetable, oracle, store, bounds) = try Self.fixture(seed: seed, zone: zone)
        defer { withExtendedLifetime(folder) {} }
        let places = timetable.stationIDs.prefix(3).map { ($0, oracle.stopsOfStation($0)) }
            + timetable.plainStopIDs.prefix(2).map { ($0, Set([$0])) }
            + timetable.platformIDs.values.compactMap(\.first).prefix(2).map { ($0, Set([$0])) }
        var compared = 0
        for (from, to) in try Self.windows(oracle, timetable) {
            for (place, stops) in places {
                let start = Date(timeIntervalSince1970: Double(from)), end = Date(timeIntervalSince1970: Double(to))
                let departures = try store.departures(from: place, between: start, and: end)
                let expected = Self.keys(Self.boardable(oracle.departures(stops: stops, from: from, to: to), bounds))
                #expect(Self.keys(departures, departures: true) == expected, "departures from \(place) in \(start) – \(end)")
                let arrivals = try store.arrivals(at: place, between: start, and: end)
                let expectedArrivals = Self.keys(Self.alightable(oracle.arrivals(stops: stops, from: from, to: to), bounds))
                #expect(Self.keys(arrivals, departures: false) == expectedArrivals, "arrivals at \(place) in \(start) – \(end)")
                compared += expected.count + expectedArrivals.count
            }
        }
        #expect(compared > 100, "the windows hold events")
    }

    @Test("The network's departures in a window equal the oracle's over all stops, in the API and the views", arguments: [
        (UInt64(1), "Europe/Berlin"), (3, "America/New_York"), (7, "Europe/Berlin"),
    ])
    func network(seed: UInt64, zone: String) throws {
        let (folder, timetable, oracle, store, bounds) = try Self.fixture(seed: seed, zone: zone)
        defer { withExtendedLifetime(folder) {} }
        let stops = Set(timetable.stopIDs)
        var compared = 0
        for (from, to) in try Self.windows(oracle, timetable) {
            let start = Date(timeIntervalSince1970: Double(from)), end = Date(timeIntervalSince1970: Double(to))
            let all = oracle.departures(stops: stops, from: from, to: to)
            var departures: [StopEvent] = []
            try store.forEachDeparture(between: start, and: end, feed: timetable.feedName, limit: nil) { departures.append($0) }
            let expected = Self.keys(Self.boardable(all, bounds))
            #expect(Self.keys(departures, departures: true) == expected, "network departures in \(start) – \(end)")
            // The documented SQL forms: every departure in the window, and the connections leaving in it.
            let (viewKeys, connections, slowConnections) = try store.pool.read { db in
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT departure, trip_id, stop_sequence, date, stop_id FROM arrivals_departures_by_time
                        WHERE departure_time >= ? - day_start AND departure_time < ? - day_start
                        """, arguments: [from, to])
                let keys = rows.map { Key(instant: $0[0], tripID: $0[1], stopSequence: $0[2], serviceDate: $0[3], stopID: $0[4]) }.sorted()
                let connections = try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM connections_by_time WHERE departure_time >= ? - day_start AND departure_time < ? - day_start",
                    arguments: [from, to])
                let slow = try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM connections WHERE departure >= ? AND departure < ?", arguments: [from, to])
                return (keys, connections, slow)
            }
            #expect(viewKeys == Self.keys(all), "arrivals_departures in \(start) – \(end)")
            let notLast = all.filter { $0.stopSequence != bounds[$0.tripID]?.upperBound }.count
            #expect(connections == notLast && slowConnections == notLast, "connections in \(start) – \(end)")
            compared += expected.count
        }
        #expect(compared > 100, "the windows hold departures")
        // Reads from inside a board's body join its read (GRDB alone stops the program there).
        let (first, last) = try Self.windows(oracle, timetable)[0]
        var looked = 0
        try store.forEachDeparture(
            between: Date(timeIntervalSince1970: Double(first)), and: Date(timeIntervalSince1970: Double(last)), feed: timetable.feedName, limit: 20
        ) { event in
            let trip = try store.trip(event.tripID, feed: timetable.feedName)
            let stop = try store.stop(event.stopID, feed: timetable.feedName)
            #expect(trip?.stopTimes.contains { $0.stopSequence == event.stopSequence } == true && stop?.stopID == event.stopID)
            looked += 1
        }
        #expect(looked > 0)
        // A page of the earliest, and an unknown feed.
        let (from, to) = try Self.windows(oracle, timetable)[0]
        let page = try store.departures(between: Date(timeIntervalSince1970: Double(from)), and: Date(timeIntervalSince1970: Double(to)), feed: timetable.feedName, limit: 3)
        #expect(Self.keys(page, departures: true) == Array(Self.keys(Self.boardable(oracle.departures(stops: stops, from: from, to: to), bounds)).prefix(3)))
        #expect(throws: StoreError.unknownFeed(name: "nope", feeds: [timetable.feedName])) {
            try store.departures(between: Date(), and: Date() + 60, feed: "nope")
        }
    }

    @Test("The arrivals_departures view: every stop time on every service date, frequency runs expanded")
    func view() throws {
        let folder = try TemporaryFolder()
        let timetable = RandomTimetable.make(seed: 7, timeZone: "Europe/Berlin")
        let oracle = try timetable.oracle()
        let store = try Self.store([timetable], in: folder)
        let from = try oracle.dayStart(date: timetable.dateRange.lowerBound) - 86_400
        let to = try oracle.dayStart(date: timetable.dateRange.upperBound) + 4 * 86_400
        let rows = try store.pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT departure, trip_id, stop_sequence, date, stop_id, departure_local FROM arrivals_departures WHERE departure IS NOT NULL")
        }
        let viewKeys = rows.map { row in
            Key(instant: row[0], tripID: row[1], stopSequence: row[2], serviceDate: row[3], stopID: row[4])
        }.sorted()
        #expect(viewKeys == Self.keys(oracle.departures(stops: Set(timetable.stopIDs), from: from, to: to)))
        // The local text names the same instant, with the offset of that instant.
        let iso = ISO8601DateFormatter()
        for row in rows.prefix(2000) {
            let text: String = row[5]
            #expect(iso.date(from: text).map { Int64($0.timeIntervalSince1970) } == row[0] as Int64, "\(text)")
            let offset = TimeZone(identifier: "Europe/Berlin")?.secondsFromGMT(for: Date(timeIntervalSince1970: Double(row[0] as Int64)))
            #expect(text.hasSuffix(offset == 7200 ? "+02:00" : "+01:00"), "\(text)")
        }
        // The plain views are one join each: a condition with a subquery still finds a trip by its key, where
        // a view of two parts would produce every row of every date first.
        for view in ["arrivals_departures", "connections"] {
            let plan = try store.pool.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT count(*) FROM \(view) WHERE trip_id = (SELECT min(trip_id) FROM trips)")
                    .map { $0["detail"] as String? ?? "" }
            }
            #expect(!plan.contains { $0.contains("CO-ROUTINE") } && plan.contains { $0.contains("USING PRIMARY KEY (trip_id=?") }, "\(view): \(plan)")
        }
        // A whole date scans the stop times through the stop index, which holds what the join reads; the
        // departure-time index (partial) serves only conditions on departure_time.
        let datePlan = try store.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT count(*) FROM arrivals_departures WHERE date = 20250601").map { $0["detail"] as String? ?? "" }
        }
        #expect(!datePlan.contains { $0.contains("stop_times_departure") }, "\(datePlan)")
        // connections: one row per pair of consecutive stops of each trip run.
        let connections = try store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM connections WHERE departure IS NOT NULL AND arrival IS NOT NULL") ?? 0
        }
        #expect(connections > 0)
    }

    @Test("Two feeds with the same ids answer apart, and service days follow calendar and calendar_dates")
    func twoFeeds() throws {
        let folder = try TemporaryFolder()
        let first = RandomTimetable.make(seed: 11, feedName: "a", timeZone: "Europe/Berlin")
        let second = RandomTimetable.make(seed: 11, feedName: "b", timeZone: "Europe/Berlin", variant: 1)
        let store = try Self.store([first, second], in: folder)
        for timetable in [first, second] {
            let oracle = try timetable.oracle()
            let bounds = try Self.sequenceBounds(timetable)
            let station = try #require(timetable.stationIDs.first)
            for date in timetable.clockChangeDates + [timetable.dateRange.lowerBound] {
                let from = try oracle.dayStart(date: date)
                let departures = try store.departures(
                    from: station, between: Date(timeIntervalSince1970: Double(from)), and: Date(timeIntervalSince1970: Double(from + 86_400)),
                    feed: timetable.feedName)
                let expected = Self.boardable(oracle.departures(stops: oracle.stopsOfStation(station), from: from, to: from + 86_400), bounds)
                #expect(Self.keys(departures, departures: true) == Self.keys(expected), "feed \(timetable.feedName) on \(date)")
                let services = try store.services(on: try #require(GTFSDate(integerValue: date)), feed: timetable.feedName).map(\.description)
                #expect(services == timetable.serviceIDs.filter { oracle.serviceDates($0).contains(date) }.sorted())
            }
        }
    }

    @Test("After an incremental import the timetable tables equal those of a fresh import")
    func incremental() throws {
        let tables = ["service_days", "feed_days", "feed_utc_offsets", "frequency_runs"]
        func contents(_ store: GTFSStore) throws -> [String: [String]] {
            try store.pool.read { db in
                var result: [String: [String]] = [:]
                for table in tables { result[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map(\.description).sorted() }
                result["stops_rtree"] = try Row.fetchAll(db, sql: "SELECT feed, stop_id, min_lat, min_lon FROM stops_rtree").map(\.description).sorted()
                result["stops_names"] = try Row.fetchAll(db, sql: "SELECT feed, stop_id, stop_name FROM stops_names").map(\.description).sorted()
                return result
            }
        }
        let folder = try TemporaryFolder()
        let old = RandomTimetable.make(seed: 21, timeZone: "America/New_York")
        let new = RandomTimetable.make(seed: 21, timeZone: "America/New_York", variant: 1)
        let updated = try Self.store([old], in: folder)
        let summary = try updated.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(new.files, in: folder, name: "new")))
        #expect(summary.kind == .incremental && !summary.changedNothing)
        let fresh = try GTFSStore(path: folder.file("fresh.sqlite"))
        _ = try fresh.importFeedSynchronously(from: try FeedSource(path: folder.file("new")))
        #expect(try contents(updated) == contents(fresh))
        #expect(try contents(updated)["service_days"]?.isEmpty == false)
        // Removing the feed removes its timetable too.
        _ = try updated.removeFeed(named: "default")
        #expect(try contents(updated).values.allSatisfy(\.isEmpty))
    }

    @Test("Records read back equal the records parsed from the files")
    func recordsRoundTrip() throws {
        let folder = try TemporaryFolder()
        let timetable = RandomTimetable.make(seed: 31, timeZone: "Europe/Berlin")
        let store = try Self.store([timetable], in: folder)
        func parsed<R: GTFSRecord>(_ type: R.Type) throws -> [R] {
            var records: [R] = []
            let text = try #require(timetable.files[R.file.fileName])
            _ = try TableParser.parse(R.self, from: try Reader(bytes: Array(text.utf8)), fileName: R.file.fileName) { records += $0 }
            return records
        }
        #expect(Set(try store.records(Stop.self)) == Set(try parsed(Stop.self)))
        #expect(Set(try store.records(Route.self)) == Set(try parsed(Route.self)))
        #expect(Set(try store.records(Trip.self)) == Set(try parsed(Trip.self)))
        #expect(Set(try store.records(StopTime.self)) == Set(try parsed(StopTime.self)))
        #expect(Set(try store.records(ServiceCalendar.self)) == Set(try parsed(ServiceCalendar.self)))
        #expect(Set(try store.records(CalendarDate.self)) == Set(try parsed(CalendarDate.self)))
        #expect(Set(try store.records(Frequency.self)) == Set(try parsed(Frequency.self)))
        #expect(Set(try store.records(Agency.self)) == Set(try parsed(Agency.self)))
        let trip = try #require(timetable.tripIDs.first)
        let timetableOfTrip = try #require(try store.trip(trip))
        #expect(timetableOfTrip.stopTimes.map(\.stopSequence) == timetableOfTrip.stopTimes.map(\.stopSequence).sorted())
        #expect(timetableOfTrip.stopTimes.count == (try parsed(StopTime.self)).filter { $0.tripID.description == trip }.count)
        #expect(try store.trip("no such trip") == nil)
        #expect(try store.records(Stop.self, feed: "no such feed").isEmpty)
    }

    @Test("Stops near a point equal a scan of every stop; names match without case and diacritics")
    func stops() throws {
        let folder = try TemporaryFolder()
        let timetable = RandomTimetable.make(seed: 41, timeZone: "Europe/Berlin")
        let store = try Self.store([timetable], in: folder)
        let all = try store.records(Stop.self)
        let center = try #require(all.first { $0.latitude != nil })
        let (centerLatitude, centerLongitude) = (try #require(center.latitude), try #require(center.longitude))
        for radius in [0.0, 150, 400, 1500, 20_000] {
            let near = try store.stops(near: centerLatitude, centerLongitude, within: radius)
            let expected = all.compactMap { stop -> String? in
                guard let latitude = stop.latitude, let longitude = stop.longitude else { return nil }
                return GeoDistance.meters(centerLatitude, centerLongitude, latitude, longitude) <= radius ? stop.stopID.description : nil
            }
            #expect(Set(near.map(\.stop.stopID.description)) == Set(expected), "within \(radius) m")
            #expect(near.map(\.distance) == near.map(\.distance).sorted())
        }

        let names = try FeedFiles.directory(
            [
                "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
                L,Lübeck Hbf,53.867,10.669,1,
                L1,Lübeck Hbf,53.867,10.669,0,L
                A,S+U Alexanderplatz Bhf (Berlin),52.521,13.411,1,
                A1,S+U Alexanderplatz Bhf (Berlin),52.521,13.411,0,A
                M,Alexanderstraße,52.517,13.418,0,

                """
            ], in: folder, name: "names")
        let named = try GTFSStore(path: folder.file("names.sqlite"))
        _ = try named.importFeedSynchronously(from: try FeedSource(path: names))
        #expect(try named.stops(named: "lubeck").map(\.stopID.description) == ["L", "L1"])
        #expect(try named.stops(named: "alexanderplatz").map(\.stopID.description) == ["A", "A1"])
        #expect(try named.stops(named: "Alexander").first?.stopID.description == "A")
        // ß folds to ss, as ø to o (FTS5's unicode61 alone kept them).
        #expect(try named.stops(named: "alexanderstrasse").map(\.stopID.description) == ["M"])
        #expect(try named.stops(named: "  \"(  ").isEmpty)
    }

    @Test("Stops near a point across the antimeridian, and near a pole, equal a scan of every stop")
    func antimeridian() throws {
        let folder = try TemporaryFolder()
        // Fiji's stops on both sides of 180°, and two near the North Pole on opposite meridians.
        let path = try FeedFiles.directory(
            [
                "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon
                E,East,-16.5,179.9995
                W,West,-16.5,-179.9995
                F,Far,-16.5,-179.9
                N1,Pole one,89.9999,0
                N2,Pole two,89.9999,180

                """
            ], in: folder, name: "fiji")
        let store = try GTFSStore(path: folder.file("fiji.sqlite"))
        _ = try store.importFeedSynchronously(from: try FeedSource(path: path))
        let all = try store.records(Stop.self)
        for (latitude, longitude, radius) in [(-16.5, 179.9995, 500.0), (-16.5, -179.9995, 500), (-16.5, 180, 12_000), (89.9999, 90, 50)] {
            let near = try store.stops(near: latitude, longitude, within: radius)
            let expected = all.filter { stop in
                guard let stopLatitude = stop.latitude, let stopLongitude = stop.longitude else { return false }
                return GeoDistance.meters(latitude, longitude, stopLatitude, stopLongitude) <= radius
            }
            #expect(Set(near.map(\.stop.stopID.description)) == Set(expected.map(\.stopID.description)), "\(latitude), \(longitude) within \(radius) m")
        }
        // The 107 m between East and West.
        #expect(try store.stops(near: -16.5, 179.9995, within: 150).map(\.stop.stopID.description) == ["E", "W"])
    }
}
