import GRDB
import GTFS
@testable import GTFSImport
import TestSupport
import Testing

@Suite("Berlin sample data in the store")
struct BerlinImportTests {
    @Test("The 2025 subset goes in within one transaction with every parsed row, values intact")
    func berlin2025() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("vbb.sqlite"))
        let source = try FeedSource(path: Fixtures.berlin.appendingPathComponent("vbb-2025-subset").path)
        let summary = try store.pool.write { db in
            let summary = try FeedParser(source: source).parse { batch in
                let inserted = try batch.insert(into: db)
                #expect(inserted == batch.count, "\(batch.fileName)")
            }
            try GTFSSchema.createIndexes(db)
            return summary
        }

        let counts = try store.rowCounts()
        let expected: [GTFSFile: Int] = [
            .agency: 4, .stops: 634, .routes: 82, .trips: 11427, .calendar: 285, .calendarDates: 9578,
            .transfers: 1030, .pathways: 176, .levels: 202, .frequencies: 0,
        ]
        for (file, count) in expected {
            #expect(counts[file] == count, "\(file.fileName)")
        }
        // Rows stored + rows rejected = data rows read, for every file.
        for table in summary.tables {
            let file = try #require(table.file)
            #expect(counts[file] == table.rowsParsed, "\(table.fileName)")
            #expect(table.rowsParsed + table.rowsRejected == table.rowsRead, "\(table.fileName)")
        }

        try store.pool.read { db in
            let stop = try #require(
                try GRDB.Row.fetchOne(db, sql: "SELECT stop_name, stop_lat, stop_lon, stop_code, zone_id, level_id FROM stops WHERE stop_id = ?",
                    arguments: ["de:11000:900007104::2"]))
            #expect(stop["stop_name"] as String == "S Nordbahnhof (Berlin)")
            #expect(stop["stop_lat"] as Double == 52.531683)
            #expect(stop["stop_lon"] as Double == 13.388813)
            #expect(stop["stop_code"] as String == "5")
            #expect(stop["zone_id"] as String == "5555 S Nordbahnhof (Berlin)")
            #expect(stop["level_id"] as String == "4")

            let level = try String.fetchOne(db, sql: "SELECT level_name FROM levels WHERE level_id = '10'")
            #expect(level == "Zwischengeschoss U-Bahn, Treppenabsatz U2")
            #expect(try Double.fetchOne(db, sql: "SELECT level_index FROM levels WHERE level_id = '10'") == -2)

            let route = try #require(try GRDB.Row.fetchOne(db, sql: "SELECT route_short_name, route_type, agency_id FROM routes WHERE route_id = '17999_900'"))
            #expect(route["route_short_name"] as String == "M6")
            #expect(route["route_type"] as Int == 900)
            #expect(route["agency_id"] as String == "796")

            let calendar = try #require(try GRDB.Row.fetchOne(db, sql: "SELECT start_date, end_date FROM calendar_readable WHERE service_id = '1'"))
            #expect(calendar["start_date"] as String == "2025-11-04")
            #expect(calendar["end_date"] as String == "2026-12-12")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM calendar_dates WHERE service_id = '1' AND date = 20251110") == 1)

            let pathway = try #require(try GRDB.Row.fetchOne(db, sql: "SELECT traversal_time, length, is_bidirectional, max_slope FROM pathways WHERE pathway_id = '958970'"))
            #expect(pathway["traversal_time"] as Int == 15)
            #expect(pathway["length"] as Double == 21)
            #expect(pathway["is_bidirectional"] as Int == 0)
            #expect(pathway["max_slope"] as Double == 0)

            // Trips of a route, through the trips_route index built above.
            let trips = try Int.fetchOne(db, sql: "SELECT count(*) FROM trips WHERE route_id = '21284_700'") ?? 0
            #expect(trips > 0)
        }
    }
}
