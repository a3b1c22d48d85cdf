import Foundation
import GRDB
import GTFS
import GTFSImport
@testable import GTFSPostgres
import TestSupport
import Testing

/// Both stores tell one import story (the core's `ImportDriver`): the same feeds in the same order give
/// the same plans, summaries, warnings and refusals.
@Suite("PostgreSQL store: the import story is the SQLite store's", .serialized)
struct PostgresStoryTests {
    /// What a summary says of the story, without the timings and the bytes a store reads on its own.
    static func story(_ result: Result<ImportSummary, ImportError>) -> [String] {
        guard case .success(let summary) = result else {
            if case .failure(let error) = result { return ["failed: \(error)"] }
            return []
        }
        var lines = [
            "kind \(summary.kind.rawValue), changed nothing \(summary.changedNothing)",
            "replaced \(summary.replacedTables.map(\.rawValue))",
            "skipped \(summary.skippedFiles)",
            "warnings \(summary.warnings.map(\.message))",
        ]
        if summary.changedNothing { lines.append("bytes \(summary.bytesRead)") }
        lines += summary.tables.map { table in
            "\(table.fileName): stored \(table.rowsStored), \(table.changes), unchanged file \(table.isUnchangedFile)"
        }
        return lines
    }

    /// Imports each `(path, options)` in turn into `store`.
    static func stories(_ imports: [(String, ImportOptions)], into store: any FeedStore) throws -> [[String]] {
        try imports.map { path, options in
            let source = try FeedSource(path: path)
            return story(Result { () throws(ImportError) -> ImportSummary in try store.importFeedSynchronously(from: source, options: options) })
        }
    }

    /// `imports` as `feed kind outcome` lines, in order.
    static let historySQL = "SELECT feed_name, kind, outcome FROM imports ORDER BY import_id"

    static func history(_ store: PostgresStore) throws -> [String] {
        try store.connection.query(historySQL.replacingOccurrences(of: "FROM imports", with: "FROM gtfs.imports"), [], "read")
            .map { $0.map { $0 ?? "∅" }.joined(separator: " ") }
    }

    static func history(_ store: GTFSStore) throws -> [String] {
        try store.pool.read { db in
            try Row.fetchAll(db, sql: historySQL).map { row in (0 ..< 3).map { "\((row[$0] as String?) ?? "∅")" }.joined(separator: " ") }
        }
    }

    /// Runs `imports` into a PostgreSQL store of `server` and a new SQLite file in `folder`, expects the
    /// same story of each, and hands both stores to `then` before they close.
    /// - Returns: the PostgreSQL store's stories.
    static func sameStories(
        _ imports: [(String, ImportOptions)], server: TestServer, folder: TemporaryFolder,
        then: (PostgresStore, GTFSStore) throws -> Void = { _, _ in }
    ) throws -> [[String]] {
        let postgres = try PostgresStore(connectionString: server.connectionString)
        defer { postgres.close() }
        let sqlite = try GTFSStore(path: folder.file("s.sqlite"))
        defer { try? sqlite.close() }
        let ours = try stories(imports, into: postgres)
        let theirs = try stories(imports, into: sqlite)
        for (index, (here, there)) in zip(ours, theirs).enumerated() {
            #expect(here == there, "import \(index + 1)")
        }
        try then(postgres, sqlite)
        return ours
    }

    @Test("Same feed again, a file beside the feed, replacement of the imported tables only, an empty feed, no GTFS file")
    func sameStory() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        var withReadme = PostgresIncrementalTests.version1
        withReadme["README.md"] = "not a GTFS file\n"
        let v1 = try PostgresFailureTests.feed(withReadme, in: folder, named: "v1")
        let onlyStops = try PostgresFailureTests.feed(
            ["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\nE,Epsilon,52.9,13.8\n"], in: folder, named: "stops")
        let headersOnly = try PostgresFailureTests.feed(
            ["agency.txt": "agency_id,agency_name,agency_url,agency_timezone\n", "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n"],
            in: folder, named: "empty")
        let nothing = try PostgresFailureTests.feed(["notes.txt": "hello\n"], in: folder, named: "nothing")
        let options = ImportOptions()
        var importedOnly = ImportOptions()
        importedOnly.replacement = .importedTables
        var other = ImportOptions()
        other.feed = "other"
        var full = ImportOptions()
        full.update = .full
        let imports = [
            (v1, options), (v1, options), (onlyStops, importedOnly), (v1, full), (headersOnly, other), (nothing, options),
        ]

        var history: ([String], [String]) = ([], [])
        let ours = try Self.sameStories(imports, server: server, folder: folder) { postgres, sqlite in
            history = (try Self.history(postgres), try Self.history(sqlite))
        }
        // The stories say what they should: nothing changed the second time, the README was skipped, the
        // stops-only import kept the routes, the empty feed was named, the folder without GTFS refused.
        #expect(ours[1].first == "kind incremental, changed nothing true")
        #expect(ours[0].contains("skipped [\"README.md\"]"))
        #expect(ours[2].contains("replaced [\"stops\"]"))
        #expect(ours[4].contains { $0.contains("the feed is empty") })
        #expect(ours[5].first?.contains("holds no file of the GTFS reference") == true)
        // The same history: the refused folder, like the unchanged feed, leaves no row in `imports`.
        let (here, there) = history
        #expect(here == there)
        #expect(here.count == 4, "\(here)")
    }

    @Test("A replacement other than the source's default, then the whole feed again: the same tables stored and skipped")
    func replacementThenFeedAgain() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let v1 = try PostgresFailureTests.feed(PostgresIncrementalTests.version1, in: folder, named: "v1")
        let stops = PostgresIncrementalTests.version1["stops.txt"] ?? ""
        let stopsFile = folder.file("stops.txt")
        try stops.write(toFile: stopsFile, atomically: true, encoding: .utf8)
        let stopsFolder = try PostgresFailureTests.feed(["stops.txt": stops], in: folder, named: "stops-only")
        var all = ImportOptions()
        all.replacement = .allTables
        var importedOnly = ImportOptions()
        importedOnly.replacement = .importedTables
        // A single file replacing every table, then the feed: its other tables must be loaded again.
        // A folder replacing only its own table, then the feed: the other tables are as stored.
        let imports = [(v1, ImportOptions()), (stopsFile, all), (v1, ImportOptions()), (stopsFolder, importedOnly), (v1, ImportOptions())]

        var counts: ([GTFSFile: Int], [GTFSFile: Int]) = ([:], [:])
        let ours = try Self.sameStories(imports, server: server, folder: folder) { postgres, sqlite in
            counts = (try postgres.rowCounts(feed: "default"), try sqlite.rowCounts(feed: "default"))
        }
        #expect(counts.0.filter { $0.value > 0 } == counts.1.filter { $0.value > 0 }, "\(counts)")
        #expect(counts.0[.routes] == 2)
        #expect(ours[4].first == "kind incremental, changed nothing true", "\(ours[4])")
    }

    @Test("Service ids equal only after Unicode normalisation, or with a quote before a combining mark: each keeps its own days")
    func unicodeServiceIDs() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        // Monday, Tuesday, Wednesday: `é` precomposed, `e` + U+0301, and a quote followed by U+0301.
        let services = ["\u{E9}", "e\u{301}", "A\"\u{301}B"]
        func csv(_ id: String) -> String {
            // Scalar by scalar: the quote and the mark after it are one Character.
            var quoted = String.UnicodeScalarView()
            for scalar in id.unicodeScalars {
                if scalar == "\"" { quoted.append(scalar) }
                quoted.append(scalar)
            }
            return "\"" + String(quoted) + "\""
        }
        let feed = try PostgresFailureTests.feed([
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA1,Agency,https://a.example,Europe/Berlin\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\nB,Beta,52.6,13.5\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A1,1,3\n",
            "trips.txt": "route_id,service_id,trip_id\n" + services.indices.map { "R1,\(csv(services[$0])),T\($0)\n" }.joined(),
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + services.indices.map { "T\($0),08:00:00,08:00:00,A,1\nT\($0),08:10:00,08:10:00,B,2\n" }.joined(),
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                + services.indices.map { index in
                    csv(services[index]) + "," + (0 ..< 7).map { $0 == index ? "1" : "0" }.joined(separator: ",") + ",20250101,20251231\n"
                }.joined(),
        ], in: folder, named: "unicode")
        let postgres = try PostgresStore(connectionString: server.connectionString)
        defer { postgres.close() }
        let sqlite = try GTFSStore(path: folder.file("s.sqlite"))
        defer { try? sqlite.close() }
        for store in [postgres, sqlite] as [any FeedStore] {
            _ = try store.importFeedSynchronously(from: try FeedSource(path: feed))
            for (index, service) in services.enumerated() {
                let date = try #require(GTFSDate(year: 2025, month: 11, day: 24 + index))
                // Bytes, not `String` equality, which takes `é` and `e` + U+0301 for one.
                #expect(try store.services(on: date, feed: "default").map { Array($0.description.utf8) } == [Array(service.utf8)], "\(store) \(date)")
                let morning = try #require(Calendar(identifier: .gregorian).date(from: DateComponents(
                    timeZone: TimeZone(identifier: "Europe/Berlin"), year: 2025, month: 11, day: 24 + index, hour: 7)))
                #expect(try store.departures(from: "A", between: morning, and: morning + 7200).map(\.tripID.description) == ["T\(index)"], "\(store)")
            }
        }
    }
}
