import Foundation
import GTFS
import GTFSImport
import TestSupport
import Testing

/// The oracle is right on cases computed by hand, and the random feeds are valid, deterministic and hold
/// the cases they promise: without this, a read side that agrees with the oracle proves nothing.
@Suite("Timetable oracle and random timetables")
struct TimetableOracleTests {
    // MARK: Helpers

    /// Unix seconds of an ISO 8601 instant written in a test.
    static func instant(_ text: String) throws -> Int64 {
        let date = try #require(ISO8601DateFormatter().date(from: text), "not ISO 8601: \(text)")
        return Int64(date.timeIntervalSince1970)
    }

    /// Unix seconds of several ISO 8601 instants.
    static func instants(_ texts: [String]) throws -> [Int64] { try texts.map(instant) }

    /// A hand-written feed: one agency in `timeZone`, stops A, B, C (C a platform of station ST), the given
    /// trips, stop times, services and frequencies.
    static func feed(
        timeZone: String = "Europe/Berlin", trips: String, stopTimes: String, calendar: String = "", calendarDates: String = "",
        frequencies: String? = nil
    ) -> [String: String] {
        var files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA1,Agency,https://example.com,\(timeZone)\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station\n"
                + "ST,Station,52.5,13.4,1,\nA,Stop A,52.5,13.4,,\nB,Stop B,52.5,13.4,,\nC,Platform C,52.5,13.4,0,ST\nD,Platform D,52.5,13.4,0,ST\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A1,M1,0\nR2,A1,S2,109\n",
            "trips.txt": "route_id,service_id,trip_id,trip_headsign\n" + trips,
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type\n"
                + stopTimes,
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n" + calendar,
            "calendar_dates.txt": "service_id,date,exception_type\n" + calendarDates,
        ]
        if let frequencies { files["frequencies.txt"] = "trip_id,start_time,end_time,headway_secs,exact_times\n" + frequencies }
        return files
    }

    /// The whole of 2025 and a little more, as Unix seconds.
    static let wholeYear: (from: Int64, to: Int64) = (1_735_000_000, 1_770_000_000)

    // MARK: Day starts

    @Test(
        "A service day starts at noon minus 12 h, which is not midnight on the days the clocks change",
        arguments: [
            ("Europe/Berlin", 20250330, "2025-03-29T22:00:00Z", "2025-03-29T23:00:00Z"),
            ("Europe/Berlin", 20251026, "2025-10-25T23:00:00Z", "2025-10-25T22:00:00Z"),
            ("Europe/Berlin", 20250329, "2025-03-28T23:00:00Z", "2025-03-28T23:00:00Z"),
            ("Europe/Berlin", 20250331, "2025-03-30T22:00:00Z", "2025-03-30T22:00:00Z"),
            ("Europe/Berlin", 20250615, "2025-06-14T22:00:00Z", "2025-06-14T22:00:00Z"),
            ("America/New_York", 20250309, "2025-03-09T04:00:00Z", "2025-03-09T05:00:00Z"),
            ("America/New_York", 20251102, "2025-11-02T05:00:00Z", "2025-11-02T04:00:00Z"),
            ("America/New_York", 20250308, "2025-03-08T05:00:00Z", "2025-03-08T05:00:00Z"),
            ("America/New_York", 20251101, "2025-11-01T04:00:00Z", "2025-11-01T04:00:00Z"),
            ("America/New_York", 20251103, "2025-11-03T05:00:00Z", "2025-11-03T05:00:00Z"),
        ])
    func dayStart(zone: String, date: Int, expected: String, localMidnight: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        #expect(try TimetableOracle.dayStart(date: date, in: timeZone) == Self.instant(expected))
        // The oracle of a feed in that zone says the same.
        let oracle = try TimetableOracle(files: Self.feed(timeZone: zone, trips: "", stopTimes: ""))
        #expect(try oracle.dayStart(date: date) == Self.instant(expected))
        // Foundation's midnight, to show the difference is real (equal on ordinary days).
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: date / 10000, month: date / 100 % 100, day: date % 100)
        let midnight = try #require(calendar.date(from: components))
        #expect(Int64(midnight.timeIntervalSince1970) == (try Self.instant(localMidnight)))
    }

    @Test("Dates that do not exist and unknown time zones are refused")
    func refusals() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        #expect(throws: TimetableOracle.InvalidFeed.self) { try TimetableOracle.dayStart(date: 20250229, in: berlin) }
        #expect(throws: TimetableOracle.InvalidFeed.self) { try TimetableOracle.dayStart(date: 20251301, in: berlin) }
        // Pacific/Apia skipped 2011-12-30 entirely: that day has no noon.
        let apia = try #require(TimeZone(identifier: "Pacific/Apia"))
        #expect(throws: TimetableOracle.InvalidFeed.self) { try TimetableOracle.dayStart(date: 20111230, in: apia) }
        #expect(throws: TimetableOracle.InvalidFeed.self) {
            try TimetableOracle(files: Self.feed(timeZone: "europe/berlin", trips: "", stopTimes: ""))
        }
        var quoted = Self.feed(trips: "", stopTimes: "")
        quoted["stops.txt"] = "stop_id,stop_name\nA,\"Stop, A\"\n"
        #expect(throws: TimetableOracle.InvalidFeed.self) { try TimetableOracle(files: quoted) }
        #expect(throws: TimetableOracle.InvalidFeed.self) {
            try TimetableOracle(files: Self.feed(trips: "R1,X,T1,\n", stopTimes: "T1,24:60:00,24:60:00,A,1,,,\n"))
        }
    }

    // MARK: Events on the days the clocks change

    @Test(
        "A trip at 00:30:00 and 25:10:00 on the days the clocks change, in both zones",
        arguments: [
            (
                "Europe/Berlin", [20250330, 20251026],
                // 00:30 departure (arrival 00:25), 25:10 arrival and departure, per date.
                [
                    "2025-03-29T22:30:00Z", "2025-03-30T23:10:00Z",  // 23:30 CET on the 29th; 01:10 CEST on the 31st
                    "2025-10-25T23:30:00Z", "2025-10-27T00:10:00Z",  // 01:30 CEST on the 26th; 01:10 CET on the 27th
                ],
                ["2025-03-29T22:25:00Z", "2025-03-30T23:10:00Z", "2025-10-25T23:25:00Z", "2025-10-27T00:10:00Z"]
            ),
            (
                "America/New_York", [20250309, 20251102],
                [
                    "2025-03-09T04:30:00Z", "2025-03-10T05:10:00Z",  // 23:30 EST on the 8th; 01:10 EDT on the 10th
                    "2025-11-02T05:30:00Z", "2025-11-03T06:10:00Z",  // the first 01:30 (EDT) on the 2nd; 01:10 EST on the 3rd
                ],
                ["2025-03-09T04:25:00Z", "2025-03-10T05:10:00Z", "2025-11-02T05:25:00Z", "2025-11-03T06:10:00Z"]
            ),
        ])
    func clockChanges(zone: String, dates: [Int], departures: [String], arrivals: [String]) throws {
        let oracle = try TimetableOracle(
            files: Self.feed(
                timeZone: zone, trips: "R1,X,T1,Terminus\n",
                stopTimes: "T1,00:25:00,00:30:00,A,1,,,\nT1,25:10:00,25:10:00,B,2,,,\n",
                calendarDates: dates.map { "X,\($0),1\n" }.joined()),
            feedName: "f")
        #expect(oracle.serviceDates("X") == Set(dates))
        let found = oracle.departures(stops: ["A", "B"], from: Self.wholeYear.from, to: Self.wholeYear.to)
        #expect(found.map(\.instant) == (try Self.instants(departures)))
        #expect(found.map(\.stopID) == ["A", "B", "A", "B"])
        #expect(found.map(\.serviceDate) == [dates[0], dates[0], dates[1], dates[1]])
        #expect(found.allSatisfy { $0.feed == "f" && $0.tripID == "T1" && $0.routeID == "R1" && $0.headsign == "Terminus" })
        #expect(found.allSatisfy { $0.runStart == nil && $0.departure == $0.instant })
        let arriving = oracle.arrivals(stops: ["A", "B"], from: Self.wholeYear.from, to: Self.wholeYear.to)
        #expect(arriving.map(\.instant) == (try Self.instants(arrivals)))
        #expect(arriving.allSatisfy { $0.arrival == $0.instant })
    }

    @Test("A trip from 47:30:00 to 48:10:00 reaches its last stop two days after its service date")
    func pastFortyEightHours() throws {
        let oracle = try TimetableOracle(
            files: Self.feed(
                trips: "R1,X,T1,\n", stopTimes: "T1,47:30:00,47:30:00,A,1,,,\nT1,48:10:00,48:10:00,B,2,,,\n",
                calendarDates: "X,20250602,1\n"))
        // Service date Monday 2025-06-02 (CEST) starts at 2025-06-01T22:00:00Z.
        let found = oracle.departures(stops: ["A", "B"], from: Self.wholeYear.from, to: Self.wholeYear.to)
        #expect(found.map(\.instant) == (try Self.instants(["2025-06-03T21:30:00Z", "2025-06-03T22:10:00Z"])))
        // Local Wednesday 2025-06-04 holds only the 48:10 stop, still of Monday's service.
        let wednesday = oracle.departures(
            stops: ["A", "B"], from: try Self.instant("2025-06-03T22:00:00Z"), to: try Self.instant("2025-06-04T22:00:00Z"))
        #expect(wednesday.map(\.stopID) == ["B"])
        #expect(wednesday.map(\.serviceDate) == [20250602])
        // Local Monday itself holds nothing.
        #expect(
            oracle.departures(stops: ["A", "B"], from: try Self.instant("2025-06-01T22:00:00Z"), to: try Self.instant("2025-06-02T22:00:00Z"))
                .isEmpty)
    }

    // MARK: Services

    @Test("calendar weekdays in the range, additions and removals, calendar_dates-only services")
    func services() throws {
        let oracle = try TimetableOracle(
            files: Self.feed(
                trips: "R1,WK,T1,\n", stopTimes: "T1,08:00:00,08:00:00,A,1,,,\nT1,08:10:00,08:10:00,B,2,,,\n",
                calendar: """
                    WK,1,1,1,1,1,0,0,20250303,20250309
                    WE,0,0,0,0,0,1,1,20241230,20250105
                    NONE,0,0,0,0,0,0,0,20250101,20251231

                    """,
                calendarDates: """
                    WK,20250305,2
                    WK,20250308,1
                    WK,20250310,1
                    WK,20250315,2
                    NONE,20250704,1
                    ONLY,20250401,1
                    ONLY,20250402,1
                    ONLY,20250403,2

                    """))
        // Monday 3 to Sunday 9 March, Monday to Friday; Wednesday removed, Saturday and the next Monday added;
        // a removal outside the range changes nothing.
        #expect(oracle.serviceDates("WK") == [20250303, 20250304, 20250306, 20250307, 20250308, 20250310])
        // Across the turn of the year: the weekend of 4 and 5 January 2025 (30 and 31 December are Mon, Tue).
        #expect(oracle.serviceDates("WE") == [20250104, 20250105])
        #expect(oracle.serviceDates("NONE") == [20250704])
        // Only in calendar_dates: its additions; its removal of a day it never had adds nothing.
        #expect(oracle.serviceDates("ONLY") == [20250401, 20250402])
        #expect(oracle.serviceDates("MISSING").isEmpty)
        // The trip runs on exactly the service's dates.
        let found = oracle.departures(stops: ["A"], from: Self.wholeYear.from, to: Self.wholeYear.to)
        #expect(found.map(\.serviceDate) == [20250303, 20250304, 20250306, 20250307, 20250308, 20250310])
        #expect(found.first?.instant == (try Self.instant("2025-03-03T07:00:00Z")))
    }

    // MARK: Frequencies

    @Test("frequencies: 08:00–09:00 every 20 minutes is three runs; exact_times 0 and 1 alike; the template is no event")
    func frequencies() throws {
        // The template's first stop is stop_sequence 5 at 10:00:00 (listed last in the file); stop 9 arrives
        // 7 minutes and leaves 8 minutes later.
        let template = { (trip: String) in "\(trip),10:07:00,10:08:00,B,9,,,\n\(trip),09:58:00,10:00:00,A,5,,,\n" }
        let oracle = try TimetableOracle(
            files: Self.feed(
                trips: "R1,X,F0,\nR1,X,F1,\n", stopTimes: template("F0") + template("F1"), calendarDates: "X,20250602,1\n",
                frequencies: """
                    F0,08:00:00,09:00:00,1200,0
                    F1,08:00:00,09:00:00,1200,1
                    F1,09:00:00,09:30:00,900,1

                    """))
        // 2025-06-02 starts at 2025-06-01T22:00:00Z: 08:00 is 06:00Z.
        let f0 = oracle.departures(stops: ["A", "B"], from: Self.wholeYear.from, to: Self.wholeYear.to).filter { $0.tripID == "F0" }
        #expect(
            f0.map(\.instant)
                == (try Self.instants([
                    "2025-06-02T06:00:00Z", "2025-06-02T06:08:00Z", "2025-06-02T06:20:00Z", "2025-06-02T06:28:00Z",
                    "2025-06-02T06:40:00Z", "2025-06-02T06:48:00Z",
                ])))
        #expect(f0.map(\.runStart) == [28800, 28800, 30000, 30000, 31200, 31200])
        #expect(f0.map(\.stopSequence) == [5, 9, 5, 9, 5, 9])
        // The arrival keeps its offset: 2 minutes before the first departure, 7 after it at B.
        #expect(f0.map(\.arrival) == (try Self.instants([
            "2025-06-02T05:58:00Z", "2025-06-02T06:07:00Z", "2025-06-02T06:18:00Z", "2025-06-02T06:27:00Z",
            "2025-06-02T06:38:00Z", "2025-06-02T06:47:00Z",
        ])))
        // exact_times 1 with a second row starting where the first ends: 09:00 belongs to the second row once.
        let f1 = oracle.departures(stops: ["A"], from: Self.wholeYear.from, to: Self.wholeYear.to).filter { $0.tripID == "F1" }
        #expect(f1.map(\.runStart) == [28800, 30000, 31200, 32400, 33300])
        // The template's own 10:00 is not an event.
        let template10 = try Self.instant("2025-06-02T08:00:00Z")
        #expect(oracle.departures(stops: ["A"], from: template10, to: template10 + 1).isEmpty)
        #expect(oracle.frequencyTripIDs == ["F0", "F1"])
    }

    // MARK: Stop times

    @Test("Empty times give no event; pickup, drop-off and headsigns come through; stations expand to platforms")
    func stopTimeFields() throws {
        let oracle = try TimetableOracle(
            files: Self.feed(
                trips: "R2,X,T1,Trip sign\nR1,X,T2,\n",
                stopTimes: """
                    T1,08:00:00,08:00:00,C,1,,,1
                    T1,,,A,2,,,
                    T1,,08:20:00,D,3,Stop sign,2,3
                    T1,08:30:00,08:30:00,B,4,,1,
                    T2,09:00:00,09:00:00,D,1,,,

                    """,
                calendarDates: "X,20250602,1\n"))
        let all: Set<String> = ["A", "B", "C", "D", "ST"]
        let departures = oracle.departures(stops: all, from: Self.wholeYear.from, to: Self.wholeYear.to)
        #expect(departures.map(\.stopID) == ["C", "D", "B", "D"])
        #expect(departures.map(\.headsign) == ["Trip sign", "Stop sign", "Trip sign", nil])
        #expect(departures.map(\.pickupType) == [0, 2, 1, 0])
        #expect(departures.map(\.dropOffType) == [1, 3, 0, 0])
        #expect(departures.map(\.routeID) == ["R2", "R2", "R2", "R1"])
        #expect(departures[1].arrival == nil)
        // Arrivals: the stop with only a departure has none, nor has the stop without times.
        #expect(oracle.arrivals(stops: all, from: Self.wholeYear.from, to: Self.wholeYear.to).map(\.stopID) == ["C", "B", "D"])

        #expect(oracle.stopsOfStation("ST") == ["ST", "C", "D"])
        #expect(oracle.stopsOfStation("A") == ["A"])
        let atStation = oracle.departures(stops: oracle.stopsOfStation("ST"), from: Self.wholeYear.from, to: Self.wholeYear.to)
        #expect(atStation.map(\.stopID) == ["C", "D", "D"])
    }

    @Test("The interval includes its start and excludes its end; ties sort by trip id as text, then stop_sequence")
    func intervalAndOrder() throws {
        let oracle = try TimetableOracle(
            files: Self.feed(
                trips: "R1,X,T9,\nR1,X,T10,\n",
                stopTimes: "T9,08:00:00,08:00:00,A,1,,,\nT9,08:00:00,08:00:00,A,2,,,\nT10,08:00:00,08:00:00,A,1,,,\n",
                calendarDates: "X,20250602,1\n"))
        let eight = try Self.instant("2025-06-02T06:00:00Z")
        #expect(oracle.departures(stops: ["A"], from: eight, to: eight + 1).count == 3)
        #expect(oracle.departures(stops: ["A"], from: eight + 1, to: eight + 3600).isEmpty)
        #expect(oracle.departures(stops: ["A"], from: eight - 3600, to: eight).isEmpty)
        let found = oracle.departures(stops: ["A"], from: eight, to: eight + 1)
        #expect(found.map(\.tripID) == ["T10", "T9", "T9"])
        #expect(found.map(\.stopSequence) == [1, 1, 2])
    }

    // MARK: Random timetables

    @Test("A seed gives the same feed; another seed or variant another; the prefix changes only the ids")
    func determinism() throws {
        let feed = RandomTimetable.make(seed: 42)
        #expect(RandomTimetable.make(seed: 42).files == feed.files)
        #expect(RandomTimetable.make(seed: 43).files != feed.files)
        #expect(RandomTimetable.make(seed: 42, feedName: "other").files == feed.files)

        // A variant keeps every id, stop_sequence and trip's stops, and changes the times.
        let variant = RandomTimetable.make(seed: 42, variant: 1)
        for file in ["agency.txt", "stops.txt", "routes.txt", "trips.txt"] { #expect(variant.files[file] == feed.files[file], "\(file)") }
        #expect(variant.files["stop_times.txt"] != feed.files["stop_times.txt"])
        func keys(_ feed: RandomTimetable) -> [String] {
            (feed.files["stop_times.txt"] ?? "").split(separator: "\n").map { line in
                let cells = line.split(separator: ",", omittingEmptySubsequences: false)
                return "\(cells[0]),\(cells[3]),\(cells[4])"
            }.sorted()
        }
        #expect(keys(variant) == keys(feed))
        #expect(variant.tripIDs == feed.tripIDs && variant.frequencyTripIDs == feed.frequencyTripIDs)
        #expect(variant.serviceIDs == feed.serviceIDs && variant.stopIDs == feed.stopIDs)

        let prefixed = RandomTimetable.make(seed: 42, idPrefix: "B_")
        #expect(prefixed.stopIDs == feed.stopIDs.map { "B_" + $0 })
        #expect(prefixed.tripIDs == feed.tripIDs.map { "B_" + $0 })
        #expect(prefixed.serviceIDs == feed.serviceIDs.map { "B_" + $0 })
        // Without the prefix, the same bytes ("B_" appears nowhere else).
        #expect(prefixed.files.mapValues { $0.replacingOccurrences(of: "B_", with: "") } == feed.files)
        #expect(prefixed.files != feed.files)
    }

    @Test("A seed gives the same bytes in every process and toolchain (no hash-ordered iteration)")
    func pinnedFingerprint() {
        // FNV-1a over the files in name order. When the generator changes on purpose, update the value.
        let feed = RandomTimetable.make(seed: 1)
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for name in feed.files.keys.sorted() {
            for byte in Array(name.utf8) + Array((feed.files[name] ?? "").utf8) {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        #expect(hash == 17_363_812_977_170_905_158)
    }

    @Test("Random feeds parse without a rejected row and hold every promised case", arguments: ["Europe/Berlin", "America/New_York"])
    func randomFeedsParse(zone: String) throws {
        let folder = try TemporaryFolder()
        for seed: UInt64 in 0 ..< 12 {
            let feed = RandomTimetable.make(seed: seed, timeZone: zone)
            let path = try FeedFiles.directory(feed.files, in: folder, name: "feed\(seed)")
            let summary = try FeedParser(source: try FeedSource(path: path)).parse { _ in }
            #expect(Set(summary.tables.map(\.fileName)) == Set(feed.files.keys), "seed \(seed)")
            for table in summary.tables {
                #expect(table.rowsRejected == 0 && table.errors.isEmpty, "seed \(seed) \(table.fileName): \(table.errors)")
                #expect(table.rowsParsed > 0, "seed \(seed) \(table.fileName)")
            }
            #expect((20 ... 40).contains(feed.stopIDs.count), "seed \(seed): \(feed.stopIDs.count) stops")
            #expect((50 ... 150).contains(feed.tripIDs.count))
            #expect(feed.dateRange.contains(20250309) && feed.dateRange.contains(20251102))

            let oracle = try feed.oracle()
            #expect(oracle.latestStopTime >= 48 * 3600, "seed \(seed)")
            #expect(oracle.frequencyTripIDs == Set(feed.frequencyTripIDs) && oracle.frequencyTripIDs.count >= 2)
            let frequencies = feed.files["frequencies.txt", default: ""]
            #expect(frequencies.contains(",0\n") && frequencies.contains(",1\n"))
            // A frequency row ending past 24:00:00.
            #expect(
                frequencies.split(separator: "\n").dropFirst().contains { row in
                    Int(row.split(separator: ",")[2].split(separator: ":")[0]).map { $0 >= 24 } == true
                })
            // Stations with platforms, and every station's platforms expand.
            for station in feed.stationIDs {
                #expect(oracle.stopsOfStation(station) == Set(feed.platformIDs[station, default: []] + [station]))
            }
            // Stop times without times, and stop_sequence with gaps (trip 0: 1, 3, 7, …).
            let stopTimes = feed.files["stop_times.txt", default: ""].split(separator: "\n").dropFirst().map {
                $0.split(separator: ",", omittingEmptySubsequences: false)
            }
            #expect(stopTimes.contains { $0[1].isEmpty && $0[2].isEmpty })
            #expect(stopTimes.contains { $0[0] == "T0" && $0[2] == "47:30:00" && $0[4] == "1" })
            let trip0 = stopTimes.filter { $0[0] == "T0" }.compactMap { Int($0[4]) }.sorted()
            #expect(trip0.count >= 4 && trip0 == Array([1, 3, 7, 8, 13, 15, 19, 20, 25].prefix(trip0.count)), "\(trip0)")
            // Additions and removals that change something, and a service only in calendar_dates running
            // on both zones' clock changes.
            var withoutExceptions = feed.files
            withoutExceptions["calendar_dates.txt"] = "service_id,date,exception_type\n"
            let plain = try TimetableOracle(files: withoutExceptions)
            #expect(feed.serviceIDs.contains { !oracle.serviceDates($0).subtracting(plain.serviceDates($0)).isEmpty })
            #expect(feed.serviceIDs.contains { !plain.serviceDates($0).subtracting(oracle.serviceDates($0)).isEmpty })
            #expect(oracle.serviceDates("D0").isSuperset(of: [20250309, 20250330, 20251026, 20251102]))
            #expect(plain.serviceDates("D0").isEmpty)
        }
    }

    @Test("Random feeds import with every reference resolving, and two feeds with the same ids side by side")
    func randomFeedsImport() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("random.sqlite"))
        for (name, feed) in [
            ("berlin", RandomTimetable.make(seed: 5, feedName: "berlin")),
            ("berlin2", RandomTimetable.make(seed: 5, feedName: "berlin2", variant: 1)),
            ("newyork", RandomTimetable.make(seed: 6, feedName: "newyork", timeZone: "America/New_York", idPrefix: "NY")),
        ] {
            var options = ImportOptions()
            options.feed = name
            let summary = try store.importFeedSynchronously(
                from: try FeedSource(path: try FeedFiles.directory(feed.files, in: folder, name: name)), options: options)
            #expect(summary.rowsRejected == 0, "\(name)")
            #expect(summary.integrity.isClean, "\(name): \(summary.integrity.findings)")
            let lines = feed.files["stop_times.txt", default: ""].split(separator: "\n").count - 1
            #expect(summary.table(.stopTimes)?.rowsStored == lines)
        }
    }

    @Test("The oracle on a random feed: sorted, inside the interval, split intervals add up, stations are their platforms")
    func randomFeedConsistency() throws {
        let feed = RandomTimetable.make(seed: 9)
        let oracle = try feed.oracle()
        let from = try oracle.dayStart(date: 20250329), middle = try oracle.dayStart(date: 20250330), to = try oracle.dayStart(date: 20250401)
        let stops = Set(feed.stopIDs)
        for side in [TimetableOracle.Side.departure, .arrival] {
            let all = oracle.events(stops: stops, from: from, to: to, by: side)
            #expect(all.count > 100)
            #expect(all == all.sorted())
            #expect(all.allSatisfy { from <= $0.instant && $0.instant < to })
            #expect(all.allSatisfy { $0.instant == (side == .departure ? $0.departure : $0.arrival) })
            #expect(all == oracle.events(stops: stops, from: from, to: middle, by: side) + oracle.events(stops: stops, from: middle, to: to, by: side))
            // A stop's events are the stop's share of all events.
            for stop in feed.stopIDs.prefix(8) {
                #expect(oracle.events(stops: [stop], from: from, to: to, by: side) == all.filter { $0.stopID == stop })
            }
            for station in feed.stationIDs {
                let platforms = Set(feed.platformIDs[station, default: []])
                #expect(oracle.events(stops: oracle.stopsOfStation(station), from: from, to: to, by: side) == all.filter { platforms.contains($0.stopID) })
            }
        }
        // A timetabled trip has one event per service date and timed stop: count them over its whole life.
        let trip = try #require(feed.tripIDs.first { !feed.frequencyTripIDs.contains($0) && !oracle.serviceDates(serviceOf($0, feed)).isEmpty })
        let rows = feed.files["stop_times.txt", default: ""].split(separator: "\n").filter { $0.hasPrefix("\(trip),") }
        let timedRows = rows.filter { $0.split(separator: ",", omittingEmptySubsequences: false)[2] != "" }.count
        // The feed with only that trip's stop times, so a whole year's events stay few.
        var single = feed.files
        single["frequencies.txt"] = nil
        single["stop_times.txt"] = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type,timepoint\n"
            + rows.map { $0 + "\n" }.joined()
        let events = try TimetableOracle(files: single).departures(stops: stops, from: Self.wholeYear.from, to: Self.wholeYear.to)
        #expect(timedRows >= 2)
        #expect(events.count == oracle.serviceDates(serviceOf(trip, feed)).count * timedRows)
        #expect(Set(events.map(\.serviceDate)) == oracle.serviceDates(serviceOf(trip, feed)))
    }

    /// The service_id of a trip, read from trips.txt.
    private func serviceOf(_ trip: String, _ feed: RandomTimetable) -> String {
        for line in feed.files["trips.txt", default: ""].split(separator: "\n") {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            if cells.count > 2, cells[2] == trip { return String(cells[1]) }
        }
        return ""
    }
}
