import GRDB
import GTFS
@testable import GTFSImport
import TestSupport
import Testing

@Suite("Inserting records")
struct InsertTests {
    /// A store holding a few records of several types.
    static func sampleStore(_ folder: TemporaryFolder) throws -> GTFSStore {
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let stops = try Fixtures.parse(
            Stop.self,
            """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding
            900100003,S+U Alexanderplatz,52.521481,13.411924,1,,1
            de:11000:900100003::1,"S+U Alexanderplatz, Gleis 1",52.5219,13.4132,0,900100003,

            """)
        let routes = try Fixtures.parse(
            Route.self,
            """
            route_id,agency_id,route_short_name,route_type,route_color
            M4,796,M4,900,D4281E
            100,796,100,700,

            """)
        let stopTimes = try Fixtures.parse(
            StopTime.self,
            """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,shape_dist_traveled
            T1,24:58:00,24:59:30,de:11000:900100003::1,0,0,0
            T1,25:03:00,25:03:00,900100003,1,1,1234.5
            T1,,,900100003,2,,

            """)
        let calendar = try Fixtures.parse(
            ServiceCalendar.self,
            """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            WD,1,1,1,1,1,0,0,20250101,20251231

            """)
        let dates = try Fixtures.parse(CalendarDate.self, "service_id,date,exception_type\nWD,20251231,2\nWD,20250301,1\n")
        let fares = try Fixtures.parse(
            FareProduct.self, "fare_product_id,amount,currency\nsingle,3.80,EUR\ndiscount,-1.2,EUR\nfree,0,EUR\n")
        try store.pool.write { db in
            try TableInserter<Stop>().insert(stops, into: db)
            try TableInserter<Route>().insert(routes, into: db)
            try TableInserter<StopTime>().insert(stopTimes, into: db)
            try TableInserter<ServiceCalendar>().insert(calendar, into: db)
            try TableInserter<CalendarDate>().insert(dates, into: db)
            try TableInserter<FareProduct>().insert(fares, into: db)
        }
        return store
    }

    @Test("Values come back with real types: times and dates integers, coordinates real, amounts exact text")
    func types() throws {
        let folder = try TemporaryFolder()
        let store = try Self.sampleStore(folder)
        try store.pool.read { db in
            let times = try GRDB.Row.fetchAll(
                db,
                sql: """
                    SELECT typeof(arrival_time) AS type, arrival_time, departure_time, pickup_type, drop_off_type, timepoint,
                           typeof(shape_dist_traveled) AS distanceType, shape_dist_traveled
                    FROM stop_times ORDER BY stop_sequence
                    """)
            #expect(times.map { $0["type"] as String } == ["integer", "integer", "null"])
            #expect(times.map { $0["arrival_time"] as Int? } == [89880, 90180, nil])
            #expect(times.map { $0["departure_time"] as Int? } == [89970, 90180, nil])
            #expect(times.map { $0["pickup_type"] as Int } == [0, 1, 0])
            #expect(times.map { $0["drop_off_type"] as Int } == [0, 0, 0])
            #expect(times.map { $0["timepoint"] as Int } == [1, 1, 1])
            #expect(times.map { $0["distanceType"] as String } == ["real", "real", "null"])
            #expect(times[1]["shape_dist_traveled"] as Double == 1234.5)

            let calendar = try #require(
                try GRDB.Row.fetchOne(db, sql: "SELECT typeof(start_date) AS type, start_date, end_date, monday, sunday FROM calendar"))
            #expect(calendar["type"] as String == "integer")
            #expect(calendar["start_date"] as Int == 20250101)
            #expect(calendar["end_date"] as Int == 20251231)
            #expect(calendar["monday"] as Int == 1 && calendar["sunday"] as Int == 0)
            #expect(try Int.fetchAll(db, sql: "SELECT date FROM calendar_dates ORDER BY date") == [20250301, 20251231])

            let stop = try #require(
                try GRDB.Row.fetchOne(
                    db,
                    sql: """
                        SELECT stop_name, typeof(stop_lat) AS latType, stop_lat, stop_lon, location_type, parent_station, wheelchair_boarding
                        FROM stops WHERE stop_id = 'de:11000:900100003::1'
                        """))
            #expect(stop["stop_name"] as String == "S+U Alexanderplatz, Gleis 1")
            #expect(stop["latType"] as String == "real")
            #expect(stop["stop_lat"] as Double == 52.5219 && stop["stop_lon"] as Double == 13.4132)
            #expect(stop["location_type"] as Int == 0)
            #expect(stop["parent_station"] as String == "900100003")
            #expect(stop["wheelchair_boarding"] as Int == 0)
            #expect(try String.fetchOne(db, sql: "SELECT stop_code FROM stops WHERE stop_id = '900100003'") == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT location_type FROM stops WHERE stop_id = '900100003'") == 1)

            let routes = try GRDB.Row.fetchAll(db, sql: "SELECT route_type, route_color, route_text_color, continuous_pickup FROM routes ORDER BY route_id")
            #expect(routes.map { $0["route_type"] as Int } == [700, 900])
            #expect(routes.map { $0["route_color"] as String } == ["FFFFFF", "D4281E"])
            #expect(routes.map { $0["route_text_color"] as String } == ["000000", "000000"])
            #expect(routes.map { $0["continuous_pickup"] as Int } == [1, 1])

            let amounts = try GRDB.Row.fetchAll(db, sql: "SELECT typeof(amount) AS type, amount FROM fare_products ORDER BY fare_product_id")
            #expect(amounts.map { $0["type"] as String } == ["text", "text", "text"])
            #expect(amounts.map { $0["amount"] as String } == ["-1.2", "0", "3.80"])
            #expect(amounts.compactMap { CurrencyAmount($0["amount"] as String) } == [
                CurrencyAmount(units: -12, scale: 1), CurrencyAmount(units: 0, scale: 0), CurrencyAmount(units: 380, scale: 2),
            ])
            let sum = try Double.fetchOne(db, sql: "SELECT sum(CAST(amount AS REAL)) FROM fare_products") ?? 0
            #expect(abs(sum - 2.6) < 1e-9)
        }
    }

    @Test("The views show times as HH:MM:SS past 24 hours and dates as YYYY-MM-DD")
    func readableViews() throws {
        let folder = try TemporaryFolder()
        let store = try Self.sampleStore(folder)
        try store.pool.read { db in
            let times = try GRDB.Row.fetchAll(db, sql: "SELECT arrival_time, departure_time FROM stop_times_readable ORDER BY stop_sequence")
            #expect(times.map { $0["arrival_time"] as String? } == ["24:58:00", "25:03:00", nil])
            #expect(times.map { $0["departure_time"] as String? } == ["24:59:30", "25:03:00", nil])
            let calendar = try #require(try GRDB.Row.fetchOne(db, sql: "SELECT start_date, end_date FROM calendar_readable"))
            #expect(calendar["start_date"] as String == "2025-01-01")
            #expect(calendar["end_date"] as String == "2025-12-31")
            #expect(try String.fetchAll(db, sql: "SELECT date FROM calendar_dates_readable ORDER BY date") == ["2025-03-01", "2025-12-31"])
        }
    }

    @Test("Multi-row statements and their remainders insert every row once", arguments: [1, 7, 50, 64, 2000])
    func chunking(rowsPerStatement: Int) throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        var total = 0
        for count in [0, 1, 31, 49, 50, 51, 137] {
            let stops = try Fixtures.stops(ids: (0 ..< count).map { "S\(total + $0)" })
            let inserted = try store.pool.write { db in
                try TableInserter<Stop>(rowsPerStatement: rowsPerStatement).insert(stops, into: db)
            }
            #expect(inserted == count)
            total += count
        }
        try store.pool.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM stops") == total)
            let ids = Set(try String.fetchAll(db, sql: "SELECT stop_id FROM stops"))
            #expect(ids == Set((0 ..< total).map { "S\($0)" }))
            // The last stop of the last call (137 stops from S182): values and ids stay paired across statements.
            #expect(try String.fetchOne(db, sql: "SELECT stop_name FROM stops WHERE stop_id = 'S318'") == "Stop 136")
        }
    }

    @Test("A duplicate key rejects only its row when a handler is given, and is thrown otherwise")
    func duplicates() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        var ids = (0 ..< 120).map { "S\($0)" }
        ids[10] = "S3"
        ids[75] = "S74"
        let stops = try Fixtures.stops(ids: ids)
        var refused: [(GTFSID, String)] = []
        var indexes: [Int] = []
        let inserted = try store.pool.write { db in
            try TableInserter<Stop>().insert(stops, into: db) { index, stop, error in
                indexes.append(index)
                refused.append((stop.stopID, error.message ?? ""))
            }
        }
        #expect(inserted == 118)
        #expect(refused.map(\.0) == ["S3", "S74"])
        #expect(indexes == [10, 75])
        #expect(refused.allSatisfy { $0.1 == "UNIQUE constraint failed: the key of a row of stops" })
        #expect(try store.rowCounts()[.stops] == 118)
        // The stop named "Stop 10" was the refused duplicate; the first S3 stays.
        let name = try store.pool.read { db in try String.fetchOne(db, sql: "SELECT stop_name FROM stops WHERE stop_id = 'S3'") }
        #expect(name == "Stop 3")

        let again = try Fixtures.stops(ids: ["X1", "S5"])
        #expect {
            try store.pool.write { db in try TableInserter<Stop>().insert(again, into: db) }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT
        }
        #expect(try store.rowCounts()[.stops] == 118)
    }

    @Test("Keys with optional parts treat two empty values as equal")
    func optionalKeyParts() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let transfers = try Fixtures.parse(
            Transfer.self,
            """
            from_stop_id,to_stop_id,from_route_id,to_route_id,transfer_type,min_transfer_time
            A,B,,,2,120
            A,B,R1,,2,180
            A,B,,,2,240

            """)
        var refused: [Int?] = []
        let inserted = try store.pool.write { db in
            try TableInserter<Transfer>().insert(transfers, into: db) { _, transfer, _ in refused.append(transfer.minTransferTime) }
        }
        #expect(inserted == 2)
        #expect(refused == [240])
    }

    @Test("A binding that does not fill every column is an error, and nothing is inserted")
    func bindCountMismatch() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        #expect {
            try store.pool.write { db in try TableInserter<ShortLevel>().insert([ShortLevel(id: "L1")], into: db) }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_MISUSE
        }
        #expect(try store.rowCounts()[.levels] == 0)
    }
}

/// A record type whose writing forgets two of the three fields of `levels`.
private struct ShortLevel: GTFSRecord {
    static let file = GTFSFile.levels
    typealias Field = Level.Field
    var id: String

    init(id: String) { self.id = id }
    init(row: CSVRow<Field>) throws { id = try row.requiredText(.levelID) }

    func write<Sink: FieldSink>(to sink: inout Sink) { sink.write(id) }
}
