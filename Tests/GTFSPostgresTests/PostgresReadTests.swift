import Foundation
import GTFS
import GTFSImport
@testable import GTFSPostgres
import TestSupport
import Testing

/// The read API of ``FeedStore`` answers the same in both stores: boards, stops near a point and by name,
/// trips, services and zones, on the Berlin sample and on a feed with frequencies and a clock change.
@Suite("PostgreSQL store: the read API answers as the SQLite store's", .serialized)
struct PostgresReadTests {
    static let subset = Repository.berlin.appendingPathComponent("vbb-2025-subset").path
    static let stopTimes = Repository.berlin.appendingPathComponent("vbb-2025-generated/stop_times.txt.gz").path

    /// Every answer of `store`, each written out as text, for a comparison of two stores.
    static func answers(_ store: any FeedStore) throws -> [String] {
        var answers: [String] = []
        func add(_ label: String, _ value: Any) { answers.append("\(label): \(value)") }
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        func instant(_ text: String, _ zone: TimeZone = berlin) throws -> Date {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            return try #require(formatter.date(from: text))
        }
        let station = "de:11000:900100003"
        let morning = try instant("2025-11-24 08:00")
        add("departures", try store.departures(from: station, between: morning, and: morning + 3600, feed: "vbb"))
        add("arrivals", try store.arrivals(at: station, between: morning, and: morning + 3600, feed: "vbb", limit: 7))
        add("feed names", try store.feedNames())
        add("service dates", try store.serviceDates(feed: "vbb") as Any)
        add("service dates t", try store.serviceDates(feed: "t") as Any)
        add("service dates of no feed", try store.serviceDates(feed: "nope") as Any)
        // An unknown stop or feed is an error, not an empty board.
        for (stop, feed) in [("nowhere", "vbb"), (station, "nope")] {
            do {
                add("departures of \(stop) in \(feed)", try store.departures(from: stop, between: morning, and: morning + 3600, feed: feed))
            } catch {
                add("departures of \(stop) in \(feed)", error)
            }
            do {
                add("arrivals at \(stop) in \(feed)", try store.arrivals(at: stop, between: morning, and: morning + 3600, feed: feed))
            } catch {
                add("arrivals at \(stop) in \(feed)", error)
            }
        }
        let midnight = try instant("2025-11-24 23:30")
        add("past midnight", try store.departures(from: station, between: midnight, and: midnight + 7200, feed: "vbb"))
        add("network", try store.departures(between: morning, and: morning + 1200, feed: "vbb", limit: 100_000))
        var night = 0
        try store.forEachDeparture(between: midnight, and: midnight + 3600, feed: "vbb", limit: nil) { _ in night += 1 }
        add("network at night", night)
        var week = 0
        try store.forEachDeparture(from: station, between: morning, and: morning + 7 * 86_400, feed: "vbb", limit: nil) { _ in week += 1 }
        add("a week", week)

        add("near", try store.stops(near: 52.5219, 13.4132, within: 300, feed: "vbb", limit: nil))
        add("near, five", try store.stops(near: 52.5219, 13.4132, within: 2_000, feed: "vbb", limit: 5))
        add("near nothing", try store.stops(near: 0, 0, within: 1_000, feed: "vbb", limit: nil))
        for text in ["alexanderpl", "S U", "Zoologischer Garten", "hauptbahnhof berlin", "straße", "STRASSE", "", "---", "xyzzy"] {
            add("named \(text)", try store.stops(named: text, feed: "vbb", limit: 20).map(\.stopID))
            add("count \(text)", try store.countStops(named: text, feed: "vbb"))
        }
        add("stop", try store.stop(station, feed: "vbb") as Any)
        add("in station", try store.stops(inStation: station, feed: "vbb").map(\.stopID))
        if let trip = try store.departures(from: station, between: morning, and: morning + 3600, feed: "vbb").first?.tripID {
            add("trip", try store.trip(trip.description, feed: "vbb") as Any)
        }
        add("services", try store.services(on: GTFSDate(year: 2025, month: 11, day: 24)!, feed: "vbb"))
        add("zone", try store.timeZone(feed: "vbb") as Any)

        // The small feed: runs of a frequency-based trip, the night the clocks change, trips past midnight.
        let spring = try instant("2025-03-28 00:00")
        for stop in ["A", "B", "C"] {
            add("departures \(stop)", try store.departures(from: stop, between: spring, and: spring + 6 * 86_400, feed: "t"))
            add("arrivals \(stop)", try store.arrivals(at: stop, between: spring, and: spring + 6 * 86_400, feed: "t"))
        }
        add("network t", try store.departures(between: spring, and: spring + 6 * 86_400, feed: "t", limit: 100_000))
        add("services t", try store.services(on: GTFSDate(year: 2025, month: 3, day: 30)!, feed: "t"))
        add("near t", try store.stops(near: 52.5, 13.4, within: 20_000, feed: "t", limit: nil))
        return answers
    }

    /// Imports the Berlin sample as `vbb` and the small feed as `t`.
    static func fill(_ store: any FeedStore, small: String) throws {
        for path in [subset, stopTimes] {
            var options = ImportOptions()
            options.feed = "vbb"
            _ = try store.importFeedSynchronously(from: try FeedSource(path: path), options: options)
        }
        var options = ImportOptions()
        options.feed = "t"
        _ = try store.importFeedSynchronously(from: try FeedSource(path: small), options: options)
    }

    @Test("Boards, stops near and by name, trips, services and zones: the same answers")
    func sameAnswers() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let small = try PostgresFailureTests.feed(PostgresTimetableTests.feed(zone: "Europe/Berlin"), in: folder, named: "t")
        let postgres = try PostgresStore(connectionString: server.connectionString)
        defer { postgres.close() }
        let sqlite = try GTFSStore(path: folder.file("s.sqlite"))
        defer { try? sqlite.close() }
        try Self.fill(postgres, small: small)
        try Self.fill(sqlite, small: small)

        let expected = try Self.answers(sqlite)
        let answers = try Self.answers(postgres)
        #expect(answers.count == expected.count)
        for (answer, wanted) in zip(answers, expected) where answer != wanted {
            Issue.record("PostgreSQL \(answer.prefix(600))\nSQLite     \(wanted.prefix(600))")
        }
        // Not two empty answers: the sample has departures, more than a cursor's batch in a week, and names.
        #expect(try postgres.departures(from: "de:11000:900100003", between: Date(timeIntervalSince1970: 1_763_967_600),
            and: Date(timeIntervalSince1970: 1_763_971_200), feed: "vbb").count > 10)
        #expect(answers.contains { $0.hasPrefix("a week: ") && (Int($0.dropFirst(8)) ?? 0) > 1_000 })
        #expect(answers.contains { $0.hasPrefix("count S U: ") && (Int($0.dropFirst(11)) ?? 0) > 20 })
        #expect(answers.contains { $0.hasPrefix("network at night: ") && (Int($0.dropFirst(18)) ?? 0) > 100 })
        #expect(answers.contains { $0.hasPrefix("network t: ") && $0.contains("F1") })
        #expect(answers.contains("departures of nowhere in vbb: no stop \"nowhere\" in feed vbb"))
        #expect(answers.contains("service dates: Optional(ClosedRange(20251104...20261212))"), "\(answers.filter { $0.hasPrefix("service dates") })")
        #expect(answers.contains("arrivals at de:11000:900100003 in nope: no feed \"nope\"; the store holds t, vbb"))
        #expect(try postgres.stops(named: "alexanderpl", feed: "vbb", limit: 1).first?.stopName?.contains("Alexanderplatz") == true)
        #expect(try postgres.departures(from: "A", between: Date(timeIntervalSince1970: 1_743_116_400),
            and: Date(timeIntervalSince1970: 1_743_631_200), feed: "t").contains { $0.tripID == "F1" })
        // The ends of a trip on a board: its last stop where it has no headsign, its first stop on arrivals,
        // its short name; the same in both stores (the answers above), and as the feed says.
        let (from, to) = (Date(timeIntervalSince1970: 1_743_116_400), Date(timeIntervalSince1970: 1_743_631_200))
        let atB = try sqlite.departures(from: "B", between: from, and: to, feed: "t")
        #expect(atB.contains { $0.tripID == "T2" && $0.headsign == nil && $0.lastStopName == "Alpha" && $0.destination == "Alpha" })
        #expect(atB.contains { $0.tripID == "F1" && $0.tripShortName == "177" } == false, "F1 ends at B")
        #expect(atB.filter { $0.headsign != nil }.allSatisfy { $0.lastStopName == nil && $0.origin == nil })
        let arrivingB = try postgres.arrivals(at: "B", between: from, and: to, feed: "t")
        #expect(arrivingB.contains { $0.tripID == "T2" && $0.origin == "Gamma" } && arrivingB.contains { $0.tripID == "F1" && $0.origin == "Alpha" && $0.tripShortName == "177" })
        let network = try postgres.departures(between: from, and: to, feed: "t", limit: 1_000)
        #expect(network.contains { $0.tripID == "T2" && $0.stopID == "B" && $0.lastStopName == "Alpha" } && network.allSatisfy { $0.origin == nil })
    }

    @Test("A read inside a board's body is refused with a clear error, and the store reads again afterwards")
    func nestedRead() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let small = try PostgresFailureTests.feed(PostgresTimetableTests.feed(zone: "Europe/Berlin"), in: folder, named: "t")
        let postgres = try PostgresStore(connectionString: server.connectionString)
        defer { postgres.close() }
        _ = try postgres.importFeedSynchronously(from: try FeedSource(path: small))
        let spring = Date(timeIntervalSince1970: 1_743_116_400)
        let nested = #expect(throws: PostgresError.self) {
            try postgres.forEachDeparture(from: "A", between: spring, and: spring + 6 * 86_400) { _ in _ = try postgres.stop("B", feed: "default") }
        }
        #expect(nested?.message.contains("inside another read or import of this store") == true)
        #expect(try postgres.stop("B", feed: "default")?.stopName == "Beta")
        #expect(try !postgres.departures(from: "A", between: spring, and: spring + 6 * 86_400).isEmpty)
    }

    @Test("Too many words are refused by both stores alike; a schema without feeds has none, and no board")
    func limits() throws {
        let server = try TestServer()
        defer { server.stop() }
        let postgres = try PostgresStore(connectionString: server.connectionString)
        defer { postgres.close() }
        let text = Array(repeating: "a", count: FeedStoreLimits.maxNameWords + 1).joined(separator: " ")
        #expect(throws: StoreError.tooManyWords(count: 33, limit: 32)) { try postgres.stops(named: text) }
        #expect(try postgres.stops(named: "alpha").isEmpty)
        #expect(throws: StoreError.unknownFeed(name: "default", feeds: [])) { try postgres.departures(from: "A", between: Date(), and: Date() + 3600) }
        #expect(try postgres.feedNames().isEmpty)
        #expect(try postgres.timeZone() == nil)
        #expect(try postgres.feeds().isEmpty)
    }
}

/// `gtfs-query --db postgresql://…` prints what it prints for an SQLite file holding the same feed.
@Suite("PostgreSQL store: gtfs-query", .serialized)
struct PostgresQueryToolTests {
    @Test("Departures, arrivals, stops by name and near a point: the same output as from SQLite; errors name the server")
    func sameOutput() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let db = folder.file("berlin.sqlite")
        for input in [PostgresReadTests.subset, PostgresReadTests.stopTimes] {
            for target in [db, server.uri] {
                let result = try ToolRunner.run("gtfs-import", ["--db", target, "--quiet", "--no-postgis", input])
                #expect(result.status == 0, "\(result.stderr)")
            }
        }
        let queries: [[String]] = [
            ["departures", "Alexanderplatz", "--at", "2025-11-24 08:00", "--minutes", "20"],
            ["departures", "de:11000:900100003", "--arrivals", "--at", "2025-11-24 23:50", "--minutes", "30", "--json"],
            ["departures", "hauptbahnhof", "--at", "2025-11-24 12:00", "--limit", "3"],
            ["stops", "--name", "hauptbahnhof"],
            ["stops", "--near", "52.5219,13.4132", "--within", "400", "--json"],
        ]
        for query in queries {
            let fromFile = try ToolRunner.run("gtfs-query", query + ["--db", db])
            let fromServer = try ToolRunner.run("gtfs-query", query + ["--db", server.uri])
            #expect(fromFile.status == 0 && fromServer.status == 0, "\(query): \(fromServer.stderr)")
            #expect(!fromFile.stdout.isEmpty)
            #expect(fromServer.stdoutText == fromFile.stdoutText, "\(query)")
        }
        let missing = try ToolRunner.run("gtfs-query", ["departures", "Nowhere Platz", "--db", server.uri])
        #expect(missing.status == 1 && missing.stderr.contains("no stop \"Nowhere Platz\" in feed default"), "\(missing.stderr)")
        let wrong = "postgresql://nobody:s3cret@/postgres?host=\(server.folder)&port=\(server.port)"
        let refused = try ToolRunner.run("gtfs-query", ["stops", "--name", "x", "--db", wrong])
        #expect(refused.status == 1 && refused.stderr.contains("cannot connect") && !refused.stderr.contains("s3cret"), "\(refused.stderr)")
    }
}
