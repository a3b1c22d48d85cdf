import Foundation
import GRDB
import GTFS
@testable import GTFSImport
import TestSupport
import Testing

@Suite("Stop name search: order, feeds and the version 4 index")
struct StopNameSearchTests {
    /// A station with two platforms, two stops without a station and one that does not match.
    static let stops = """
        stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
        P2,Alexanderplatz,52.5215,13.4115,0,S
        X,Alexanderplatz/Memhardstr.,52.5240,13.4110,0,
        S,S+U Alexanderplatz Bhf (Berlin),52.5219,13.4132,1,
        P1,Alexanderplatz,52.5216,13.4116,0,S
        Y,Alexanderplatz,52.5230,13.4100,0,
        Z,Hackescher Markt,52.5225,13.4023,0,
        """

    static func store(_ folder: TemporaryFolder, feeds: [String: String]) throws -> GTFSStore {
        let store = try GTFSStore(path: folder.file("names.sqlite"))
        for (name, stops) in feeds.sorted(by: { $0.key < $1.key }) {
            let directory = try FeedFiles.directory(["stops.txt": stops], in: folder, name: name)
            var options = ImportOptions()
            options.feed = name
            _ = try store.importFeedSynchronously(from: try FeedSource(path: directory), options: options)
        }
        return store
    }

    @Test("Stations first, then stops without a station, then platforms; shorter names first; ties by id")
    func order() throws {
        let folder = try TemporaryFolder()
        let store = try Self.store(folder, feeds: ["default": Self.stops])
        #expect(try store.stops(named: "alexanderpl").map(\.stopID.description) == ["S", "Y", "X", "P1", "P2"])
        #expect(try store.stops(named: "ALEXANDERPLATZ", limit: 2).map(\.stopID.description) == ["S", "Y"])
        #expect(try store.stops(named: "memhard alex").map(\.stopID.description) == ["X"])
        #expect(try store.stops(named: "bhf berlin").map(\.stopID.description) == ["S"])
        #expect(try store.stops(named: "potsdam").isEmpty)
        #expect(try store.countStops(named: "alexanderpl") == 5 && store.countStops(named: "memhard alex") == 1)
        #expect(try store.countStops(named: "potsdam") == 0 && store.countStops(named: "---") == 0 && store.countStops(named: "alex", feed: "nope") == 0)
        #expect(try store.stops(named: " ,; ").isEmpty)
        #expect(try store.stops(named: "alexanderplatz", limit: 0).isEmpty)
    }

    @Test("Letters with a stroke or ligature match their base letters, typed either way")
    func foldedLetters() throws {
        let folder = try TemporaryFolder()
        let stops = """
            stop_id,stop_name,stop_lat,stop_lon
            N,Hjørundhølen,62.1,6.2
            D,Æbeltoft Færgehavn,56.2,10.7
            G,Große Straße,52.5,13.4
            L,Łódź Fabryczna,51.8,19.5
            H,Đakovo,45.3,18.4
            F,Œuvre,48.8,2.3
            O,Other,1,1
            """
        let store = try Self.store(folder, feeds: ["default": stops])
        for (text, expected) in [
            ("hjorundholen", "N"), ("Hjørundhølen", "N"), ("aebeltoft faerge", "D"), ("grosse strasse", "G"), ("straße", "G"),
            ("lodz", "L"), ("Łódź", "L"), ("dakovo", "H"), ("oeuvre", "F"),
        ] {
            #expect(try store.stops(named: text).map(\.stopID.description) == [expected], "\(text)")
        }
    }

    @Test("At most 32 words: the 33rd is refused before the index is asked")
    func wordLimit() throws {
        let folder = try TemporaryFolder()
        let store = try Self.store(folder, feeds: ["default": Self.stops])
        let words = { (count: Int) in Array(repeating: "alexanderplatz", count: count).joined(separator: " ") }
        #expect(try store.stops(named: words(FeedStoreLimits.maxNameWords)).map(\.stopID.description) == ["S", "Y", "X", "P1", "P2"])
        #expect(throws: StoreError.tooManyWords(count: 33, limit: 32)) { try store.stops(named: words(33)) }
        #expect(throws: StoreError.tooManyWords(count: 65_000, limit: 32)) {
            try store.stops(named: Array(repeating: "a", count: 65_000).joined(separator: " "))
        }
    }

    @Test("A search reads its feed only, when two feeds share stop ids")
    func feeds() throws {
        let folder = try TemporaryFolder()
        let other = """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            S,Lübeck Hbf,53.8676,10.6699,1,
            Y,Alexanderplatz Lübeck,53.8700,10.6800,0,
            """
        let store = try Self.store(folder, feeds: ["berlin": Self.stops, "luebeck": other])
        #expect(try store.stops(named: "alexanderplatz", feed: "berlin").map(\.stopID.description) == ["S", "Y", "X", "P1", "P2"])
        let luebeck = try store.stops(named: "alexanderplatz", feed: "luebeck")
        #expect(luebeck.map(\.stopName) == ["Alexanderplatz Lübeck"])
        #expect(try store.stops(named: "lubeck", feed: "luebeck").map(\.stopID.description) == ["S", "Y"])
        #expect(try store.stops(named: "lubeck", feed: "berlin").isEmpty)
        #expect(try store.stops(named: "lubeck", feed: "nowhere").isEmpty)
    }

    @Test("A version 4 store's name index is rebuilt in the new order when the store opens")
    func fromVersion4() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("names.sqlite")
        try Self.store(folder, feeds: ["default": Self.stops]).close()
        // Back to version 4: its index numbered rows as they were inserted.
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier IN ('v5', 'v6', 'v7', 'v8', 'v9')")
                try db.execute(sql: "DROP VIEW realtime_arrivals_departures")
                for table in RealtimeTables.all { try db.execute(sql: "DROP TABLE \(table.name)") }
                try db.execute(sql: "DROP TABLE feed_checks")
                try db.execute(sql: "DROP VIEW arrivals_departures_by_time; DROP VIEW connections_by_time; DROP VIEW arrivals_departures; DROP VIEW connections")
                try db.execute(sql: "DROP INDEX stop_times_departure")
                try db.execute(sql: "DROP TABLE frequency_departures")
                for view in SchemaV4.views { try db.execute(sql: view) }
                try db.execute(sql: "DROP TABLE feed_references")
                try db.execute(sql: "DROP TABLE changes")
                try db.execute(sql: "ALTER TABLE feed_tables DROP COLUMN stored_hash")
                try db.execute(sql: "UPDATE gtfs_meta SET value = 4 WHERE key = 'schema_version'")
                try db.execute(sql: "DELETE FROM stops_names")
                try db.execute(sql: "INSERT INTO stops_names (stop_name, feed, stop_id) SELECT stop_name, feed, stop_id FROM stops")
            }
            try queue.close()
        }
        let store = try GTFSStore(path: path)
        #expect(try store.stops(named: "alexanderplatz").map(\.stopID.description) == ["S", "Y", "X", "P1", "P2"])
        let (version, names, stale) = try store.pool.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT value FROM gtfs_meta WHERE key = 'schema_version'"),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM stops_names"),
                try String.fetchOne(db, sql: "SELECT value FROM gtfs_meta WHERE key = 'timetable_stale'")
            )
        }
        #expect(version == GTFSSchema.version, "\(String(describing: version))")
        #expect(names == 6 && stale == nil, "\(String(describing: names)) \(String(describing: stale))")
    }
}
