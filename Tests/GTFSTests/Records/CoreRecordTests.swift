import Foundation
import GTFS
import LineReader
import Testing

/// The core record types (agency, routes, trips, calendars, shapes, frequencies, transfers, pathways,
/// levels, feed info, attributions, translations): decoding, defaults, rules and real data.
@Suite("Core records")
struct CoreRecordTests {
    /// Parses a CSV text leniently and returns every record with the summary.
    static func parse<R: GTFSRecord>(_ type: R.Type, _ csv: String, file: String) throws -> ([R], TableSummary) {
        var records: [R] = []
        let summary = try TableParser.parse(type, from: try Reader(bytes: Array(csv.utf8)), fileName: file) {
            records += $0
        }
        #expect(summary.rowsParsed + summary.rowsRejected == summary.rowsRead)
        return (records, summary)
    }

    /// Parses a CSV text whose only data row must be rejected, and returns that row's error.
    static func rejection<R: GTFSRecord>(_ type: R.Type, _ csv: String, file: String) throws -> GTFSError {
        let (records, summary) = try parse(type, csv, file: file)
        #expect(records.isEmpty)
        #expect(summary.rowsRejected == 1)
        return try #require(summary.errors.first)
    }

    /// Checks every located part of an error and its printed form.
    static func check(
        _ error: GTFSError, _ kind: GTFSError.Kind, file: String, line: Int, column: String, description: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error.kind == kind, sourceLocation: sourceLocation)
        #expect(error.file == file, sourceLocation: sourceLocation)
        #expect(error.line == line, sourceLocation: sourceLocation)
        #expect(error.column == column, sourceLocation: sourceLocation)
        #expect(error.description == description, sourceLocation: sourceLocation)
    }

    // MARK: - agency.txt

    @Test("Agency: columns in any order, an unknown column ignored, cEMV default and unknown code")
    func agency() throws {
        let csv = """
            agency_timezone,agency_name,x_note,agency_id,cemv_support,agency_url,agency_lang,agency_email,agency_phone,agency_fare_url
            Europe/Berlin,S-Bahn Berlin GmbH,a,1,1,http://www.s-bahn-berlin.de,de,info@s-bahn.example,+49 30 297 43333,https://fares.example/
            Europe/Berlin,"Berliner Verkehrsbetriebe, AöR",b,796,,https://www.bvg.de,,,,
            Europe/Berlin,Future,c,9,7,https://future.example,,,,

            """
        let (agencies, summary) = try Self.parse(Agency.self, csv, file: "agency.txt")
        #expect(summary.rowsRejected == 0)
        #expect(agencies.count == 3)
        #expect(summary.warnings.contains { $0.column == "x_note" && $0.message == "unknown column, ignored" })
        let sbahn = agencies[0]
        #expect(sbahn.agencyID == "1")
        #expect(sbahn.agencyName == "S-Bahn Berlin GmbH")
        #expect(sbahn.agencyURL == "http://www.s-bahn-berlin.de")
        #expect(sbahn.agencyTimezone == "Europe/Berlin")
        #expect(sbahn.agencyLang == "de")
        #expect(sbahn.agencyPhone == "+49 30 297 43333")
        #expect(sbahn.agencyFareURL == "https://fares.example/")
        #expect(sbahn.agencyEmail == "info@s-bahn.example")
        #expect(sbahn.cemvSupport == .supported)
        let bvg = agencies[1]
        #expect(bvg.agencyName == "Berliner Verkehrsbetriebe, AöR")
        #expect(bvg.agencyLang == nil)
        #expect(bvg.agencyPhone == nil)
        #expect(bvg.cemvSupport == .noInformation)
        #expect(agencies[2].cemvSupport == .unknown(7))
        #expect(agencies[2].cemvSupport.code == 7)
    }

    @Test("Agency: a bad cEMV code and a missing name are located errors")
    func agencyErrors() throws {
        let bad = try Self.rejection(
            Agency.self, "agency_name,agency_url,agency_timezone,cemv_support\nBVG,https://bvg.de,Europe/Berlin,yes\n",
            file: "agency.txt")
        Self.check(
            bad, .invalidValue, file: "agency.txt", line: 2, column: "cemv_support",
            description: #"agency.txt:2: cemv_support: "yes" is not an integer code"#)
        let missing = try Self.rejection(
            Agency.self, "agency_name,agency_url,agency_timezone\n,https://bvg.de,Europe/Berlin\n", file: "agency.txt")
        Self.check(
            missing, .missingValue, file: "agency.txt", line: 2, column: "agency_name",
            description: "agency.txt:2: agency_name: is required")
    }

    // MARK: - routes.txt

    @Test("Route: extended and unknown route types, color defaults, continuous stopping, cEMV")
    func routes() throws {
        let csv = """
            route_type,route_long_name,route_id,x_mode,route_color,route_short_name,agency_id,route_sort_order,continuous_pickup,cemv_support,route_text_color,network_id,route_desc,route_url,continuous_drop_off
            109,,10162_109,s,816DA6,S7,1,5,,,FFFFFF,,,,
            3,Ringbus,r2,b,,,796,,0,2,,net1,Around the ring,https://bvg.example/r2,2
            42,Mystery,r3,m,ffd800,M,,,7,,000000,,,,
            1500,,r4,t,,T1,,,,,,,,,

            """
        let (routes, summary) = try Self.parse(Route.self, csv, file: "routes.txt")
        #expect(summary.rowsRejected == 0)
        #expect(routes.count == 4)
        let s7 = routes[0]
        #expect(s7.routeID == "10162_109")
        #expect(s7.agencyID == "1")
        #expect(s7.routeShortName == "S7")
        #expect(s7.routeLongName == nil)
        #expect(s7.routeType == .extended(109))
        #expect(s7.routeType.baseType == .rail)
        #expect(s7.routeColor == GTFSColor(rgb: 0x816DA6))
        #expect(s7.routeTextColor.description == "FFFFFF")
        #expect(s7.routeSortOrder == 5)
        #expect(s7.continuousPickup == .notContinuous)
        #expect(s7.continuousDropOff == .notContinuous)
        #expect(s7.cemvSupport == nil)
        let ring = routes[1]
        #expect(ring.routeType == .bus)
        #expect(ring.routeLongName == "Ringbus")
        #expect(ring.routeShortName == nil)
        #expect(ring.routeDescription == "Around the ring")
        #expect(ring.routeURL == "https://bvg.example/r2")
        #expect(ring.routeColor == Route.defaultColor)
        #expect(ring.routeColor.description == "FFFFFF")
        #expect(ring.routeTextColor == Route.defaultTextColor)
        #expect(ring.routeTextColor.description == "000000")
        #expect(ring.continuousPickup == .continuous)
        #expect(ring.continuousDropOff == .phoneAgency)
        #expect(ring.networkID == "net1")
        #expect(ring.cemvSupport == .notSupported)
        let mystery = routes[2]
        #expect(mystery.routeType == .unknown(42))
        #expect(mystery.routeType.baseType == nil)
        #expect(mystery.routeColor.description == "FFD800")
        #expect(mystery.continuousPickup == .unknown(7))
        #expect(routes[3].routeType == .extended(1500))
        #expect(routes[3].routeType.baseType == nil)
    }

    @Test("Route: a nameless route breaks a rule; bad color and empty route_type are rejected")
    func routeErrors() throws {
        let nameless = try Self.rejection(
            Route.self, "route_id,route_type,route_short_name,route_long_name\nr1,3,,\n", file: "routes.txt")
        Self.check(
            nameless, .rule, file: "routes.txt", line: 2, column: "route_short_name",
            description: "routes.txt:2: route_short_name: is required when route_long_name is empty")
        let color = try Self.rejection(
            Route.self, "route_type,route_id,route_color,route_short_name\n3,r1,#FF000,1\n", file: "routes.txt")
        Self.check(
            color, .invalidValue, file: "routes.txt", line: 2, column: "route_color",
            description: ##"routes.txt:2: route_color: "#FF000" is not a color (six hex digits)"##)
        let type = try Self.rejection(Route.self, "route_id,route_type,route_short_name\nr1,,1\n", file: "routes.txt")
        Self.check(
            type, .missingValue, file: "routes.txt", line: 2, column: "route_type",
            description: "routes.txt:2: route_type: is required")
    }

    @Test("RouteType: codes round-trip; extended ranges map to a basic mode")
    func routeTypes() {
        let basic: [(Int, RouteType)] = [
            (0, .tram), (1, .subway), (2, .rail), (3, .bus), (4, .ferry), (5, .cableTram), (6, .aerialLift),
            (7, .funicular), (11, .trolleybus), (12, .monorail),
        ]
        for (code, type) in basic {
            #expect(RouteType(code: code) == type)
            #expect(type.code == code)
            #expect(type.baseType == type)
        }
        for code in [8, 9, 10, 13, 99, 1800, -1] {
            #expect(RouteType(code: code) == .unknown(code))
            #expect(RouteType(code: code).baseType == nil)
        }
        let mapped: [(Int, RouteType?)] = [
            (100, .rail), (109, .rail), (117, .rail), (118, nil), (200, nil), (400, .subway), (402, .subway),
            (405, .monorail), (700, .bus), (716, .bus), (717, nil), (800, .trolleybus), (900, .tram), (906, .tram),
            (1000, .ferry), (1100, nil), (1200, .ferry), (1300, .aerialLift), (1307, .aerialLift), (1400, .funicular),
            (1402, .funicular), (1500, nil), (1700, nil), (1799, nil),
        ]
        for (code, base) in mapped {
            #expect(RouteType(code: code) == .extended(code))
            #expect(RouteType(code: code).code == code)
            #expect(RouteType(code: code).baseType == base, "route_type \(code)")
        }
    }

    // MARK: - trips.txt

    @Test("Trip: direction, accessibility defaults and unknown codes, on-demand duration fields")
    func trips() throws {
        let csv = """
            trip_id,bikes_allowed,route_id,x_vehicle,direction_id,service_id,wheelchair_accessible,trip_headsign,trip_short_name,block_id,shape_id,cars_allowed,safe_duration_factor,safe_duration_offset
            277078844,2,17999_900,GT6,1,1,1,"Berlin, Betriebshof Marzahn",,,4307,,,
            t2,,r1,,0,weekday,,,RE 3,b7,,1,1.5,-120
            t3,9,r1,,5,weekday,3,,,,,2,,

            """
        let (trips, summary) = try Self.parse(Trip.self, csv, file: "trips.txt")
        #expect(summary.rowsRejected == 0)
        #expect(trips.count == 3)
        let first = trips[0]
        #expect(first.tripID == "277078844")
        #expect(first.routeID == "17999_900")
        #expect(first.serviceID == "1")
        #expect(first.tripHeadsign == "Berlin, Betriebshof Marzahn")
        #expect(first.tripShortName == nil)
        #expect(first.directionID == .inbound)
        #expect(first.blockID == nil)
        #expect(first.shapeID == "4307")
        #expect(first.wheelchairAccessible == .allowed)
        #expect(first.bikesAllowed == .notAllowed)
        #expect(first.carsAllowed == .noInformation)
        #expect(first.safeDurationFactor == nil)
        #expect(first.safeDurationOffset == nil)
        let second = trips[1]
        #expect(second.directionID == .outbound)
        #expect(second.tripShortName == "RE 3")
        #expect(second.blockID == "b7")
        #expect(second.wheelchairAccessible == .noInformation)
        #expect(second.bikesAllowed == .noInformation)
        #expect(second.carsAllowed == .allowed)
        #expect(second.safeDurationFactor == 1.5)
        #expect(second.safeDurationOffset == -120)
        let third = trips[2]
        #expect(third.directionID == .unknown(5))
        #expect(third.bikesAllowed == .unknown(9))
        #expect(third.wheelchairAccessible == .unknown(3))
        #expect(third.carsAllowed == .notAllowed)

        let (noDirection, _) = try Self.parse(Trip.self, "route_id,service_id,trip_id\nr,s,t\n", file: "trips.txt")
        #expect(noDirection.first?.directionID == nil)
    }

    @Test("Trip: a text direction and a missing trip_id are located errors")
    func tripErrors() throws {
        let direction = try Self.rejection(
            Trip.self, "route_id,service_id,trip_id,direction_id\nr1,s1,t1,north\n", file: "trips.txt")
        Self.check(
            direction, .invalidValue, file: "trips.txt", line: 2, column: "direction_id",
            description: #"trips.txt:2: direction_id: "north" is not an integer code"#)
        let factor = try Self.rejection(
            Trip.self, "route_id,service_id,trip_id,safe_duration_factor\nr1,s1,t1,\"1,5\"\n", file: "trips.txt")
        Self.check(
            factor, .invalidValue, file: "trips.txt", line: 2, column: "safe_duration_factor",
            description: #"trips.txt:2: safe_duration_factor: "1,5" is not a decimal number"#)
        let missing = try Self.rejection(Trip.self, "trip_id,route_id,service_id\n,r1,s1\n", file: "trips.txt")
        Self.check(
            missing, .missingValue, file: "trips.txt", line: 2, column: "trip_id",
            description: "trips.txt:2: trip_id: is required")
    }

    // MARK: - calendar.txt

    @Test("Calendar: weekdays as Bool, dates validated")
    func calendar() throws {
        let csv = """
            end_date,sunday,service_id,saturday,friday,thursday,wednesday,tuesday,monday,start_date,x_comment
            20261212,1,1462,1,0,0,0,0,0,20251104,weekend
            20240229,0,wk,0,1,1,1,1,1,20240101,

            """
        let (calendars, summary) = try Self.parse(ServiceCalendar.self, csv, file: "calendar.txt")
        #expect(summary.rowsRejected == 0)
        #expect(calendars.count == 2)
        let weekend = calendars[0]
        #expect(weekend.serviceID == "1462")
        #expect(
            [weekend.monday, weekend.tuesday, weekend.wednesday, weekend.thursday, weekend.friday, weekend.saturday, weekend.sunday]
                == [false, false, false, false, false, true, true])
        #expect(weekend.startDate == GTFSDate(year: 2025, month: 11, day: 4))
        #expect(weekend.endDate.description == "20261212")
        let weekdays = calendars[1]
        #expect(
            [weekdays.monday, weekdays.tuesday, weekdays.wednesday, weekdays.thursday, weekdays.friday, weekdays.saturday, weekdays.sunday]
                == [true, true, true, true, true, false, false])
        #expect(weekdays.endDate == GTFSDate(year: 2024, month: 2, day: 29))
    }

    @Test("Calendar: a weekday other than 0/1, an impossible date and an empty weekday are rejected")
    func calendarErrors() throws {
        let header = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
        let two = try Self.rejection(ServiceCalendar.self, header + "s1,1,2,1,1,1,0,0,20250101,20251231\n", file: "calendar.txt")
        Self.check(
            two, .invalidValue, file: "calendar.txt", line: 2, column: "tuesday",
            description: #"calendar.txt:2: tuesday: "2" is not 0 or 1"#)
        let yes = try Self.rejection(ServiceCalendar.self, header + "s1,yes,1,1,1,1,0,0,20250101,20251231\n", file: "calendar.txt")
        Self.check(
            yes, .invalidValue, file: "calendar.txt", line: 2, column: "monday",
            description: #"calendar.txt:2: monday: "yes" is not 0 or 1"#)
        let date = try Self.rejection(ServiceCalendar.self, header + "s1,1,1,1,1,1,0,0,20250231,20251231\n", file: "calendar.txt")
        Self.check(
            date, .invalidValue, file: "calendar.txt", line: 2, column: "start_date",
            description: #"calendar.txt:2: start_date: "20250231" is not a valid date (YYYYMMDD)"#)
        let empty = try Self.rejection(ServiceCalendar.self, header + "s1,1,1,1,1,1,0,,20250101,20251231\n", file: "calendar.txt")
        Self.check(
            empty, .missingValue, file: "calendar.txt", line: 2, column: "sunday",
            description: "calendar.txt:2: sunday: is required")
    }

    @Test("Calendar: a missing weekday column rejects the file")
    func calendarMissingColumn() throws {
        let csv = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,start_date,end_date\ns1,1,1,1,1,1,0,20250101,20251231\n"
        #expect(throws: GTFSError.self) { try Self.parse(ServiceCalendar.self, csv, file: "calendar.txt") }
    }

    // MARK: - calendar_dates.txt

    @Test("CalendarDate: added, removed and unknown exception types")
    func calendarDates() throws {
        let csv = """
            exception_type,x_reason,date,service_id
            1,holiday,20251110,1
            2,,20251225,1
            3,,20260101,wk

            """
        let (dates, summary) = try Self.parse(CalendarDate.self, csv, file: "calendar_dates.txt")
        #expect(summary.rowsRejected == 0)
        #expect(dates.map(\.exceptionType) == [.added, .removed, .unknown(3)])
        #expect(dates[0].serviceID == "1")
        #expect(dates[0].date == GTFSDate(year: 2025, month: 11, day: 10))
        #expect(dates[2].serviceID == "wk")
        #expect(dates[2].exceptionType.code == 3)
    }

    @Test("CalendarDate: a malformed date and an empty exception type are rejected")
    func calendarDateErrors() throws {
        let date = try Self.rejection(
            CalendarDate.self, "service_id,date,exception_type\n1,2025-11-10,1\n", file: "calendar_dates.txt")
        Self.check(
            date, .invalidValue, file: "calendar_dates.txt", line: 2, column: "date",
            description: #"calendar_dates.txt:2: date: "2025-11-10" is not a valid date (YYYYMMDD)"#)
        let type = try Self.rejection(CalendarDate.self, "service_id,date,exception_type\n1,20251110,\n", file: "calendar_dates.txt")
        Self.check(
            type, .missingValue, file: "calendar_dates.txt", line: 2, column: "exception_type",
            description: "calendar_dates.txt:2: exception_type: is required")
    }

    // MARK: - shapes.txt

    @Test("ShapePoint: coordinates, sequence and optional distance")
    func shapes() throws {
        let csv = """
            shape_pt_sequence,shape_id,x_source,shape_pt_lon,shape_pt_lat,shape_dist_traveled
            0,4307,gps,13.5432,52.5301,
            1,4307,gps,13.5440,52.5310,0.125

            """
        let (points, summary) = try Self.parse(ShapePoint.self, csv, file: "shapes.txt")
        #expect(summary.rowsRejected == 0)
        #expect(points.count == 2)
        #expect(points[0].shapeID == "4307")
        #expect(points[0].latitude == 52.5301)
        #expect(points[0].longitude == 13.5432)
        #expect(points[0].sequence == 0)
        #expect(points[0].shapeDistTraveled == nil)
        #expect(points[1].sequence == 1)
        #expect(points[1].shapeDistTraveled == 0.125)
    }

    @Test("ShapePoint: an out-of-range latitude and a negative sequence are rejected")
    func shapeErrors() throws {
        let header = "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\n"
        let latitude = try Self.rejection(ShapePoint.self, header + "s1,95.5,13.4,1\n", file: "shapes.txt")
        Self.check(
            latitude, .invalidValue, file: "shapes.txt", line: 2, column: "shape_pt_lat",
            description: #"shapes.txt:2: shape_pt_lat: "95.5" is not a latitude (-90 to 90)"#)
        let sequence = try Self.rejection(ShapePoint.self, header + "s1,52.5,13.4,-1\n", file: "shapes.txt")
        Self.check(
            sequence, .invalidValue, file: "shapes.txt", line: 2, column: "shape_pt_sequence",
            description: #"shapes.txt:2: shape_pt_sequence: "-1" is not a non-negative integer"#)
    }

    // MARK: - frequencies.txt

    @Test("Frequency: times past 24:00, exact_times default and unknown code")
    func frequencies() throws {
        let csv = """
            headway_secs,end_time,x_note,start_time,trip_id,exact_times
            600,25:30:00,night,5:00:00,t1,
            300,26:00:00,,24:15:30,t2,1
            120,10:00:00,,09:00:00,t3,4

            """
        let (frequencies, summary) = try Self.parse(Frequency.self, csv, file: "frequencies.txt")
        #expect(summary.rowsRejected == 0)
        #expect(frequencies.count == 3)
        let night = frequencies[0]
        #expect(night.tripID == "t1")
        #expect(night.startTime.seconds == 5 * 3600)
        #expect(night.endTime.seconds == 25 * 3600 + 30 * 60)
        #expect(night.endTime.hours == 25)
        #expect(night.endTime.description == "25:30:00")
        #expect(night.headwaySeconds == 600)
        #expect(night.exactTimes == .frequencyBased)
        #expect(frequencies[1].startTime == GTFSTime(hours: 24, minutes: 15, seconds: 30))
        #expect(frequencies[1].exactTimes == .scheduleBased)
        #expect(frequencies[2].exactTimes == .unknown(4))
    }

    @Test("Frequency: a zero headway and a malformed time are rejected")
    func frequencyErrors() throws {
        let header = "trip_id,start_time,end_time,headway_secs\n"
        let headway = try Self.rejection(Frequency.self, header + "t1,05:00:00,06:00:00,0\n", file: "frequencies.txt")
        Self.check(
            headway, .invalidValue, file: "frequencies.txt", line: 2, column: "headway_secs",
            description: #"frequencies.txt:2: headway_secs: "0" is not a positive integer"#)
        let time = try Self.rejection(Frequency.self, header + "t1,5:00,06:00:00,600\n", file: "frequencies.txt")
        Self.check(
            time, .invalidValue, file: "frequencies.txt", line: 2, column: "start_time",
            description: #"frequencies.txt:2: start_time: "5:00" is not a time (H:MM:SS)"#)
    }

    // MARK: - transfers.txt

    @Test("Transfer: empty type is recommended; in-seat transfers need only trips; unknown types kept")
    func transfers() throws {
        let csv = """
            to_trip_id,min_transfer_time,transfer_type,from_stop_id,x_note,to_stop_id,from_route_id,to_route_id,from_trip_id
            ,,,a,,b,,,
            ,240,2,de:11000:900110006::3,,de:11000:900110006::5,17440_900,17301_900,
            t2,,4,,,,,,t1
            t2x,,5,s1,,s2,,,t1x
            ,,9,,,,,,

            """
        let (transfers, summary) = try Self.parse(Transfer.self, csv, file: "transfers.txt")
        #expect(summary.rowsRejected == 0)
        #expect(transfers.count == 5)
        #expect(transfers.map(\.transferType) == [.recommended, .minimumTime, .inSeat, .inSeatNotAllowed, .unknown(9)])
        #expect(transfers[0].fromStopID == "a")
        #expect(transfers[0].toStopID == "b")
        #expect(transfers[0].minTransferTime == nil)
        let timed = transfers[1]
        #expect(timed.minTransferTime == 240)
        #expect(timed.fromRouteID == "17440_900")
        #expect(timed.toRouteID == "17301_900")
        #expect(timed.fromTripID == nil)
        #expect(transfers[2].fromTripID == "t1")
        #expect(transfers[2].toTripID == "t2")
        #expect(transfers[2].fromStopID == nil)
        #expect(transfers[3].fromTripID == "t1x")
        #expect(transfers[3].toTripID == "t2x")
        #expect(transfers[4].fromStopID == nil && transfers[4].transferType.code == 9)
    }

    @Test("Transfer: missing stops for types 0–3 or empty, missing trips for 4/5, a negative time")
    func transferErrors() throws {
        let header = "from_stop_id,to_stop_id,from_trip_id,to_trip_id,transfer_type,min_transfer_time\n"
        let empty = try Self.rejection(Transfer.self, header + "a,,,,,\n", file: "transfers.txt")
        Self.check(
            empty, .rule, file: "transfers.txt", line: 2, column: "to_stop_id",
            description: "transfers.txt:2: to_stop_id: is required when transfer_type is empty")
        let timed = try Self.rejection(Transfer.self, header + ",b,t1,t2,1,\n", file: "transfers.txt")
        Self.check(
            timed, .rule, file: "transfers.txt", line: 2, column: "from_stop_id",
            description: "transfers.txt:2: from_stop_id: is required for transfer_type 1")
        let inSeat = try Self.rejection(Transfer.self, header + "a,b,t1,,4,\n", file: "transfers.txt")
        Self.check(
            inSeat, .rule, file: "transfers.txt", line: 2, column: "to_trip_id",
            description: "transfers.txt:2: to_trip_id: is required for transfer_type 4")
        let notInSeat = try Self.rejection(Transfer.self, header + ",,,t2,5,\n", file: "transfers.txt")
        Self.check(
            notInSeat, .rule, file: "transfers.txt", line: 2, column: "from_trip_id",
            description: "transfers.txt:2: from_trip_id: is required for transfer_type 5")
        let time = try Self.rejection(Transfer.self, header + "a,b,,,2,-60\n", file: "transfers.txt")
        Self.check(
            time, .invalidValue, file: "transfers.txt", line: 2, column: "min_transfer_time",
            description: #"transfers.txt:2: min_transfer_time: "-60" is not a non-negative integer"#)
    }

    @Test("Transfer: the transfer_type column is required even though its cells may be empty")
    func transferTypeColumn() throws {
        #expect(throws: GTFSError.self) { try Self.parse(Transfer.self, "from_stop_id,to_stop_id\na,b\n", file: "transfers.txt") }
    }

    // MARK: - pathways.txt

    @Test("Pathway: modes, direction as Bool, slope default, unknown mode")
    func pathways() throws {
        let csv = """
            is_bidirectional,pathway_mode,to_stop_id,pathway_id,from_stop_id,x_floor,length,traversal_time,stair_count,max_slope,min_width,signposted_as,reversed_signposted_as
            0,1,de:11000:900100003::1,958970,de:11000:900100003::2,,21.000000000000,15,,,,,
            1,2,p2,pw2,e1,,4.5,20,-12,,1.2,Platform 1,Exit
            0,7,street,pw3,paid,,,,,0.08,,,
            1,8,x,pw4,y,,,,,,,,

            """
        let (pathways, summary) = try Self.parse(Pathway.self, csv, file: "pathways.txt")
        #expect(summary.rowsRejected == 0)
        #expect(pathways.count == 4)
        let walkway = pathways[0]
        #expect(walkway.pathwayID == "958970")
        #expect(walkway.fromStopID == "de:11000:900100003::2")
        #expect(walkway.toStopID == "de:11000:900100003::1")
        #expect(walkway.pathwayMode == .walkway)
        #expect(walkway.isBidirectional == false)
        #expect(walkway.length == 21)
        #expect(walkway.traversalTime == 15)
        #expect(walkway.stairCount == nil)
        #expect(walkway.maxSlope == 0)
        #expect(walkway.minWidth == nil)
        let stairs = pathways[1]
        #expect(stairs.pathwayMode == .stairs)
        #expect(stairs.isBidirectional)
        #expect(stairs.stairCount == -12)
        #expect(stairs.minWidth == 1.2)
        #expect(stairs.signpostedAs == "Platform 1")
        #expect(stairs.reversedSignpostedAs == "Exit")
        #expect(pathways[2].pathwayMode == .exitGate)
        #expect(pathways[2].maxSlope == 0.08)
        #expect(pathways[3].pathwayMode == .unknown(8))
    }

    @Test("Pathway: a two-way exit gate, zero stairs, direction 2 and zero traversal time are rejected")
    func pathwayErrors() throws {
        let header = "pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,traversal_time,stair_count\n"
        let gate = try Self.rejection(Pathway.self, header + "p1,a,b,7,1,,\n", file: "pathways.txt")
        Self.check(
            gate, .rule, file: "pathways.txt", line: 2, column: "is_bidirectional",
            description: #"pathways.txt:2: is_bidirectional: "1" must be 0 for an exit gate (pathway_mode 7)"#)
        let stairs = try Self.rejection(Pathway.self, header + "p1,a,b,2,1,,0\n", file: "pathways.txt")
        Self.check(
            stairs, .invalidValue, file: "pathways.txt", line: 2, column: "stair_count",
            description: #"pathways.txt:2: stair_count: "0" is not a non-zero integer"#)
        let direction = try Self.rejection(Pathway.self, header + "p1,a,b,1,2,,\n", file: "pathways.txt")
        Self.check(
            direction, .invalidValue, file: "pathways.txt", line: 2, column: "is_bidirectional",
            description: #"pathways.txt:2: is_bidirectional: "2" is not 0 or 1"#)
        let time = try Self.rejection(Pathway.self, header + "p1,a,b,1,0,0,\n", file: "pathways.txt")
        Self.check(
            time, .invalidValue, file: "pathways.txt", line: 2, column: "traversal_time",
            description: #"pathways.txt:2: traversal_time: "0" is not a positive integer"#)
    }

    // MARK: - levels.txt

    @Test("Level: decimal index and optional name")
    func levels() throws {
        let csv = """
            level_name,x_color,level_index,level_id
            "Zwischengeschoss U-Bahn, Treppenabsatz U2",,-2,10
            ,,2,1
            Mezzanine,,0.5,m

            """
        let (levels, summary) = try Self.parse(Level.self, csv, file: "levels.txt")
        #expect(summary.rowsRejected == 0)
        #expect(levels.map(\.levelID) == ["10", "1", "m"])
        #expect(levels.map(\.levelIndex) == [-2, 2, 0.5])
        #expect(levels.map(\.levelName) == ["Zwischengeschoss U-Bahn, Treppenabsatz U2", nil, "Mezzanine"])
    }

    @Test("Level: a comma decimal index is rejected")
    func levelErrors() throws {
        let error = try Self.rejection(Level.self, "level_id,level_index\nL1,\"-1,5\"\n", file: "levels.txt")
        Self.check(
            error, .invalidValue, file: "levels.txt", line: 2, column: "level_index",
            description: #"levels.txt:2: level_index: "-1,5" is not a decimal number"#)
    }

    // MARK: - feed_info.txt

    @Test("FeedInfo: every field")
    func feedInfo() throws {
        let csv = """
            feed_version,feed_lang,x_build,feed_publisher_url,feed_publisher_name,feed_end_date,feed_start_date,default_lang,feed_contact_email,feed_contact_url
            2025-11-04,mul,42,https://www.vbb.de,VBB Verkehrsverbund Berlin-Brandenburg GmbH,20261212,20251104,de,data@vbb.example,https://vbb.example/contact

            """
        let (infos, summary) = try Self.parse(FeedInfo.self, csv, file: "feed_info.txt")
        #expect(summary.rowsRejected == 0)
        let info = try #require(infos.first)
        #expect(info.feedPublisherName == "VBB Verkehrsverbund Berlin-Brandenburg GmbH")
        #expect(info.feedPublisherURL == "https://www.vbb.de")
        #expect(info.feedLang == "mul")
        #expect(info.defaultLang == "de")
        #expect(info.feedStartDate == GTFSDate(year: 2025, month: 11, day: 4))
        #expect(info.feedEndDate == GTFSDate(year: 2026, month: 12, day: 12))
        #expect(info.feedVersion == "2025-11-04")
        #expect(info.feedContactEmail == "data@vbb.example")
        #expect(info.feedContactURL == "https://vbb.example/contact")

        let (minimal, _) = try Self.parse(
            FeedInfo.self, "feed_publisher_name,feed_publisher_url,feed_lang\nVBB,https://vbb.de,de\n", file: "feed_info.txt")
        #expect(minimal.first?.feedStartDate == nil)
        #expect(minimal.first?.feedVersion == nil)
    }

    @Test("FeedInfo: a bad end date and a missing language are rejected")
    func feedInfoErrors() throws {
        let header = "feed_publisher_name,feed_publisher_url,feed_lang,feed_end_date\n"
        let date = try Self.rejection(FeedInfo.self, header + "VBB,https://vbb.de,de,20261312\n", file: "feed_info.txt")
        Self.check(
            date, .invalidValue, file: "feed_info.txt", line: 2, column: "feed_end_date",
            description: #"feed_info.txt:2: feed_end_date: "20261312" is not a valid date (YYYYMMDD)"#)
        let language = try Self.rejection(FeedInfo.self, header + "VBB,https://vbb.de,,\n", file: "feed_info.txt")
        Self.check(
            language, .missingValue, file: "feed_info.txt", line: 2, column: "feed_lang",
            description: "feed_info.txt:2: feed_lang: is required")
    }

    // MARK: - attributions.txt

    @Test("Attribution: roles as Bool with empty false; a role-less organisation is kept with a warning")
    func attributions() throws {
        let csv = """
            organization_name,is_operator,x_logo,attribution_id,is_producer,route_id,is_authority,agency_id,trip_id,attribution_url,attribution_email,attribution_phone
            VBB,,logo.png,a1,1,,1,,,https://vbb.de,info@vbb.example,+49 30 25414141
            BVG,1,,a2,0,17999_900,,,,,,
            Nobody,,,a3,,,,,,,,

            """
        let (attributions, summary) = try Self.parse(Attribution.self, csv, file: "attributions.txt")
        #expect(summary.rowsRejected == 0)
        #expect(attributions.count == 3)
        let vbb = attributions[0]
        #expect(vbb.attributionID == "a1")
        #expect(vbb.organizationName == "VBB")
        #expect(vbb.isProducer && !vbb.isOperator && vbb.isAuthority)
        #expect(vbb.agencyID == nil && vbb.routeID == nil && vbb.tripID == nil)
        #expect(vbb.attributionURL == "https://vbb.de")
        #expect(vbb.attributionEmail == "info@vbb.example")
        #expect(vbb.attributionPhone == "+49 30 25414141")
        let bvg = attributions[1]
        #expect(!bvg.isProducer && bvg.isOperator && !bvg.isAuthority)
        #expect(bvg.routeID == "17999_900")
        let nobody = attributions[2]
        #expect(!nobody.isProducer && !nobody.isOperator && !nobody.isAuthority)
        #expect(summary.warnings.contains { $0.line == 4 && $0.column == "is_producer" })
    }

    @Test("Attribution: two targets, a role other than 0/1 and a missing name are rejected")
    func attributionErrors() throws {
        let header = "attribution_id,agency_id,route_id,trip_id,organization_name,is_producer\n"
        let targets = try Self.rejection(Attribution.self, header + "a1,796,17999_900,,BVG,1\n", file: "attributions.txt")
        Self.check(
            targets, .rule, file: "attributions.txt", line: 2, column: "route_id",
            description:
                #"attributions.txt:2: route_id: "17999_900" is forbidden when agency_id is given (at most one of agency_id, route_id, trip_id)"#)
        let routeAndTrip = try Self.rejection(Attribution.self, header + "a1,,r1,t1,BVG,1\n", file: "attributions.txt")
        Self.check(
            routeAndTrip, .rule, file: "attributions.txt", line: 2, column: "trip_id",
            description: #"attributions.txt:2: trip_id: "t1" is forbidden when route_id is given (at most one of agency_id, route_id, trip_id)"#)
        let role = try Self.rejection(Attribution.self, header + "a1,,,,BVG,yes\n", file: "attributions.txt")
        Self.check(
            role, .invalidValue, file: "attributions.txt", line: 2, column: "is_producer",
            description: #"attributions.txt:2: is_producer: "yes" is not 0 or 1"#)
        let name = try Self.rejection(Attribution.self, header + "a1,,,,,1\n", file: "attributions.txt")
        Self.check(
            name, .missingValue, file: "attributions.txt", line: 2, column: "organization_name",
            description: "attributions.txt:2: organization_name: is required")
    }

    // MARK: - translations.txt

    @Test("Translation: by record, by record and sub-record, by value, and feed_info")
    func translations() throws {
        let csv = """
            language,x_reviewer,translation,table_name,field_name,record_id,record_sub_id,field_value
            en,ann,Main station,stops,stop_name,de:11000:900003201,,
            en,,Airport,stop_times,stop_headsign,277078844,12,
            pl,,Dworzec,stops,stop_name,,,Hauptbahnhof
            en,,Berlin transport association,feed_info,feed_publisher_name,,,
            fr,,Ligne,new_table,x_field,r1,,

            """
        let (translations, summary) = try Self.parse(Translation.self, csv, file: "translations.txt")
        #expect(summary.rowsRejected == 0)
        #expect(translations.count == 5)
        let stop = translations[0]
        #expect(stop.tableName == "stops")
        #expect(stop.fieldName == "stop_name")
        #expect(stop.language == "en")
        #expect(stop.translation == "Main station")
        #expect(stop.recordID == "de:11000:900003201")
        #expect(stop.recordSubID == nil)
        #expect(stop.fieldValue == nil)
        #expect(translations[1].recordSubID == "12")
        #expect(translations[2].fieldValue == "Hauptbahnhof")
        #expect(translations[2].recordID == nil)
        #expect(translations[3].tableName == "feed_info")
        #expect(translations[4].tableName == "new_table")
    }

    @Test("Translation: the record_id / record_sub_id / field_value rules")
    func translationErrors() throws {
        let header = "table_name,field_name,language,translation,record_id,record_sub_id,field_value\n"
        let neither = try Self.rejection(Translation.self, header + "stops,stop_name,en,Main,,,\n", file: "translations.txt")
        Self.check(
            neither, .rule, file: "translations.txt", line: 2, column: "record_id",
            description: "translations.txt:2: record_id: is required when field_value is empty")
        let both = try Self.rejection(Translation.self, header + "stops,stop_name,en,Main,s1,,Hbf\n", file: "translations.txt")
        Self.check(
            both, .rule, file: "translations.txt", line: 2, column: "field_value",
            description: #"translations.txt:2: field_value: "Hbf" is forbidden when record_id is given"#)
        let subWithValue = try Self.rejection(Translation.self, header + "stops,stop_name,en,Main,,1,Hbf\n", file: "translations.txt")
        Self.check(
            subWithValue, .rule, file: "translations.txt", line: 2, column: "record_sub_id",
            description: #"translations.txt:2: record_sub_id: "1" is forbidden when field_value is given"#)
        let stopTimes = try Self.rejection(
            Translation.self, header + "stop_times,stop_headsign,en,Airport,t1,,\n", file: "translations.txt")
        Self.check(
            stopTimes, .rule, file: "translations.txt", line: 2, column: "record_sub_id",
            description: "translations.txt:2: record_sub_id: is required for table_name stop_times when record_id is given")
        let feedInfo = try Self.rejection(
            Translation.self, header + "feed_info,feed_publisher_name,en,VBB,x,,\n", file: "translations.txt")
        Self.check(
            feedInfo, .rule, file: "translations.txt", line: 2, column: "record_id",
            description: #"translations.txt:2: record_id: "x" is forbidden for table_name feed_info"#)
        let language = try Self.rejection(Translation.self, header + "stops,stop_name,,Main,s1,,\n", file: "translations.txt")
        Self.check(
            language, .missingValue, file: "translations.txt", line: 2, column: "language",
            description: "translations.txt:2: language: is required")
    }

    // MARK: - Real data

    static let vbb2025 = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleData/berlin/vbb-2025-subset")

    /// Parses one file of the VBB 2025 subset.
    static func parseVBB<R: GTFSRecord>(_ type: R.Type, _ name: String) throws -> ([R], TableSummary) {
        var records: [R] = []
        let reader = try Reader(path: vbb2025.appendingPathComponent(name).path)
        let summary = try TableParser.parse(type, from: reader, fileName: name) { records += $0 }
        #expect(summary.rowsParsed + summary.rowsRejected == summary.rowsRead)
        #expect(summary.rowsParsed == records.count)
        return (records, summary)
    }

    @Test("VBB 2025 subset: every core file parses with no row rejected")
    func vbb2025Subset() throws {
        let (agencies, agencySummary) = try Self.parseVBB(Agency.self, "agency.txt")
        #expect(agencySummary.rowsRejected == 0)
        #expect(agencies.map(\.agencyID) == ["1", "108", "731", "796"])
        #expect(agencies.allSatisfy { $0.agencyTimezone == "Europe/Berlin" && $0.agencyLang == "de" && $0.cemvSupport == .noInformation })
        #expect(agencies.last?.agencyName == "Berliner Verkehrsbetriebe")

        let (routes, routeSummary) = try Self.parseVBB(Route.self, "routes.txt")
        #expect(routeSummary.rowsRejected == 0)
        #expect(routes.count == 82)  // 83 lines with the header
        let m6 = try #require(routes.first { $0.routeID == "17999_900" })
        #expect(m6.routeShortName == "M6")
        #expect(m6.routeType == .extended(900))
        #expect(m6.routeType.baseType == .tram)
        #expect(m6.routeColor == Route.defaultColor)
        let s7 = try #require(routes.first { $0.routeID == "10162_109" })
        #expect(s7.routeColor.description == "816DA6")
        #expect(s7.routeType.baseType == .rail)
        #expect(routes.allSatisfy { $0.routeType.baseType != nil })

        let (trips, tripSummary) = try Self.parseVBB(Trip.self, "trips.txt")
        #expect(tripSummary.rowsRejected == 0)
        #expect(trips.count == 11_427)
        #expect(Set(trips.map(\.tripID)).count == 11_427)
        let marzahn = try #require(trips.first { $0.tripID == "277078844" })
        #expect(marzahn.tripHeadsign == "Berlin, Betriebshof Marzahn")
        #expect(marzahn.directionID == .inbound)
        #expect(marzahn.wheelchairAccessible == .allowed)
        #expect(marzahn.bikesAllowed == .notAllowed)
        let routeIDs = Set(routes.map(\.routeID))
        #expect(trips.allSatisfy { routeIDs.contains($0.routeID) })

        let (calendars, calendarSummary) = try Self.parseVBB(ServiceCalendar.self, "calendar.txt")
        #expect(calendarSummary.rowsRejected == 0)
        #expect(calendars.count == 285)
        let weekend = try #require(calendars.first { $0.serviceID == "1462" })
        #expect(weekend.saturday && weekend.sunday && !weekend.monday)

        let (dates, dateSummary) = try Self.parseVBB(CalendarDate.self, "calendar_dates.txt")
        #expect(dateSummary.rowsRejected == 0)
        #expect(dates.count == 9_578)
        #expect(dates.filter { $0.exceptionType == .removed }.count == 213)

        let (transfers, transferSummary) = try Self.parseVBB(Transfer.self, "transfers.txt")
        #expect(transferSummary.rowsRejected == 0)
        #expect(transfers.count == 1_030)
        #expect(transfers.filter { $0.transferType == .minimumTime }.count == 1_010)

        let (pathways, pathwaySummary) = try Self.parseVBB(Pathway.self, "pathways.txt")
        #expect(pathwaySummary.rowsRejected == 0)
        #expect(pathways.count == 176)
        #expect(pathways.allSatisfy { $0.pathwayMode == .walkway && !$0.isBidirectional })

        let (levels, levelSummary) = try Self.parseVBB(Level.self, "levels.txt")
        #expect(levelSummary.rowsRejected == 0)
        #expect(levels.count == 202)
        #expect(levels.first { $0.levelID == "101" }?.levelIndex == -4)

        let (frequencies, frequencySummary) = try Self.parseVBB(Frequency.self, "frequencies.txt")
        #expect(frequencies.isEmpty)
        #expect(frequencySummary.rowsRead == 0)
        #expect(frequencySummary.rowsRejected == 0)
        #expect(frequencySummary.warningCount == 0)
    }
}
