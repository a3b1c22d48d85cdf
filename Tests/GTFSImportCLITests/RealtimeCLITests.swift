import Foundation
import GRDB
import GTFS
import GTFSRealtime
import TestHTTPServer
import TestSupport
import Testing

/// The scenario of the realtime tests, as files a user would have: a weekday timetable in Berlin (the one
/// of `RealtimeTestFeed`) and GTFS-Realtime messages about Friday 2026-11-27.
enum RealtimeScenario {
    /// The timetable (`RealtimeTestFeed`).
    static let files = RealtimeTestFeed.files

    /// No proxy from the machine's environment.
    static let environment = ["NO_PROXY": "*", "no_proxy": "*"]

    /// 2026-11-27, a Friday, at `time` in Berlin (UTC+1 in November).
    static func at(_ time: String, day: Int = 27) -> Date {
        let seconds = Int(GTFSTime(time)!.seconds)
        return Date(timeIntervalSince1970: Double(1_795_734_000 + (day - 27) * 86_400 + seconds))
    }

    static func unix(_ time: String, day: Int = 27) -> Int64 { Int64(at(time, day: day).timeIntervalSince1970) }

    /// Now, as a header's timestamp: what a publisher writes, so that the predictions are fresh for the
    /// tools' default --max-age of 10 minutes, whatever the clock says.
    static var now: Int64 { Int64(Date().timeIntervalSince1970) }

    /// A database holding the feed as `default`, imported by gtfs-import from a directory.
    static func database(in folder: TemporaryFolder) throws -> String {
        for (name, text) in files { try folder.write(text, name: "feed/\(name)") }
        let db = folder.file("gtfs.sqlite")
        let result = try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", folder.file("feed")])
        #expect(result.status == 0, "\(result.stderr)")
        return db
    }

    /// T1 of that Friday, `seconds` late from its second stop (stop_sequence 2).
    static func tripUpdates(delay seconds: Int, timestamp: Int64 = now) -> RealtimeMessage {
        RealtimeMessage(
            timestamp: timestamp,
            tripUpdates: [
                RealtimeTripUpdate(
                    entityID: "e1", trip: RealtimeTrip(tripID: "T1", startDate: "20261127"),
                    stopTimeUpdates: [RealtimeStopTimeUpdate(stopSequence: 2, arrival: RealtimeStopTimeEvent(delay: seconds))])
            ])
    }

    /// A bus of R1 near S1, one of R2 in Munich, a strike at S1 (that morning) and a detour of R2.
    static func positionsAndAlerts(timestamp: Int64 = now) -> RealtimeMessage {
        let near = RealtimeVehicle(
            entityID: "v1", trip: RealtimeTrip(tripID: "T1", routeID: "R1"), vehicle: RealtimeVehicleDescriptor(id: "7", label: "bus 7"),
            latitude: 52.5201, longitude: 13.4001, timestamp: timestamp)
        let far = RealtimeVehicle(
            entityID: "v2", trip: RealtimeTrip(tripID: "F1", routeID: "R2"), vehicle: RealtimeVehicleDescriptor(id: "9", label: "far 9"),
            latitude: 48.1, longitude: 11.5, timestamp: timestamp)
        let strike = RealtimeAlert(
            entityID: "a1", activePeriods: [.init(start: unix("07:00:00"), end: unix("12:00:00"))], informedEntities: [.init(stopID: "S1")],
            cause: "STRIKE", effect: "NO_SERVICE", header: [.init("Streik", language: "de")],
            description: [.init("Keine Abfahrten bis Mittag", language: "de")])
        let detour = RealtimeAlert(entityID: "a2", informedEntities: [.init(routeID: "R2")], effect: "DETOUR", header: [.init("Umleitung")])
        return RealtimeMessage(timestamp: timestamp, vehicles: [near, far], alerts: [strike, detour])
    }

    /// Writes a message's protobuf bytes to a file of the folder and returns its path.
    @discardableResult
    static func write(_ message: RealtimeMessage, name: String, in folder: TemporaryFolder) throws -> String {
        try folder.write(Array(try message.serializedData()), name: name)
    }

    static func importer(_ arguments: [String], stdin: Data? = nil, directory: String? = nil) throws -> ToolRunner.Output {
        try ToolRunner.run("gtfs-import", arguments, stdin: stdin, directory: directory, environment: environment)
    }

    static func query(_ arguments: [String]) throws -> ToolRunner.Output {
        try ToolRunner.run("gtfs-query", arguments)
    }

    /// The board of a stop from 08:00 that Friday, predictions of any age shown.
    static func board(_ db: String, _ stop: String, _ extra: [String] = []) throws -> ToolRunner.Output {
        try query(["departures", stop, "--db", db, "--at", "2026-11-27 08:00", "--realtime", "--max-age", "365d"] + extra)
    }

    /// A JSON board's rows.
    static func rows(_ output: ToolRunner.Output) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [[String: Any]], "\(output.stdoutText)")
    }

    /// One line of `gtfs-import realtime`: `TIME  SOURCE  WHAT  0.01 s`.
    struct Line: CustomStringConvertible {
        let time: String, source: String, text: String, seconds: String
        var description: String { "\(time)  \(source)  \(text)  \(seconds)" }
    }

    /// The lines of standard output, each split into its four fields (`nil` fields when it has other than four).
    static func lines(_ output: ToolRunner.Output) -> [Line] {
        output.stdoutText.split(separator: "\n").map { line in
            let fields = line.components(separatedBy: "  ")
            guard fields.count == 4 else { return Line(time: "", source: "", text: String(line), seconds: "") }
            return Line(time: fields[0], source: fields[1], text: fields[2], seconds: fields[3])
        }
    }

    /// Whether a line's time is an instant of the last minutes and its duration a number of seconds.
    static func isWellFormed(_ line: Line) -> Bool {
        guard let time = try? Date(line.time, strategy: .iso8601), abs(time.timeIntervalSinceNow) < 600 else { return false }
        return line.seconds.hasSuffix(" s") && Double(line.seconds.dropLast(2)) != nil
    }

    /// Every row of the database's feeds, imports and realtime tables, as text: what a refused message must
    /// leave as it was.
    /// The database read-only, as a reader beside the tool: a poll's transaction is waited for, not failed on.
    static func readOnly(_ db: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: db, configuration: configuration)
    }

    static func snapshot(_ db: String) throws -> [String] {
        let queue = try readOnly(db)
        defer { try? queue.close() }
        return try queue.read { db in
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'realtime_%' OR name IN ('feeds', 'imports')) ORDER BY name")
            #expect(tables.count == 12, "\(tables)")
            return try tables.flatMap { table in try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { "\(table) \($0)" }.sorted() }
        }
    }

    /// The predictions the database holds: `trip seq stop status departure-delay`.
    static func predictions(_ db: String) throws -> [String] {
        let queue = try readOnly(db)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT trip_id, stop_sequence, stop_id, status, departure_delay, source FROM realtime_predictions ORDER BY trip_id, stop_sequence"
            ).map { row in
                let delay: Int? = row["departure_delay"]
                return "\(row["trip_id"] as String) \(row["stop_sequence"] as Int) \(row["stop_id"] as String) \(row["status"] as String) "
                    + "\(delay.map(String.init) ?? "-") \(row["source"] as String)"
            }
        }
    }
}

fileprivate extension Array {
    /// The only element; `nil` when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}

/// `gtfs-import realtime` and `gtfs-query departures --realtime` / `vehicles`, end to end, as a user and an
/// attacker run them.
@Suite("gtfs-import realtime and gtfs-query --realtime")
struct RealtimeCLITests {
    typealias S = RealtimeScenario

    @Test("a trip update is applied, the same message again writes nothing; the board shows +3 as text and JSON")
    func applyAndBoard() throws {
        let folder = try TemporaryFolder()
        let db = try S.database(in: folder)
        try S.write(S.tripUpdates(delay: 180), name: "trips.pb", in: folder)
        // As a user types it, in the folder of the files: the source is named as given.
        let first = try S.importer(["realtime", "trips.pb", "--db", "gtfs.sqlite"], directory: folder.path)
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        let lines = S.lines(first)
        #expect(lines.count == 1 && lines.allSatisfy(S.isWellFormed), "\(lines)")
        #expect(lines.first?.source == "trips.pb")
        #expect(lines.first?.text == "1 entities, 1 changed, 0 removed; 1 trips matched, 0 not found; 7 rows written, 0 deleted", "\(lines)")
        #expect(try S.predictions(db) == ["T1 2 S2 predicted 180 trips.pb", "T1 3 S3 predicted 180 trips.pb", "T1 4 S4 predicted 180 trips.pb", "T1 5 S5 predicted 180 trips.pb"])
        let applied = try S.snapshot(db)

        let again = try S.importer(["realtime", "trips.pb", "--db", "gtfs.sqlite"], directory: folder.path)
        #expect(again.status == 0 && again.stderr.isEmpty)
        #expect(S.lines(again).map(\.text) == ["unchanged, nothing written"] && S.lines(again).allSatisfy(S.isWellFormed))
        #expect(try S.snapshot(db) == applied)

        // S3 is the last stop of T2 and F1: T1 is its only departure. At S2, T2 has no prediction.
        let board = try S.board(db, "S3")
        #expect(board.status == 0 && board.stderr.isEmpty, "\(board.stderr)")
        #expect(board.stdoutText == """
            Departures from Three (S3), Fri 2026-11-27 08:00 to 09:00, Europe/Berlin

            time   live      line  platform  to
            08:10  08:13 +3  M4              Nord

            1 departure

            """)
        #expect(try S.board(db, "S2").stdoutText == """
            Departures from Two (S2), Fri 2026-11-27 08:00 to 09:00, Europe/Berlin

            time   live      line  platform  to
            08:05  08:08 +3  M4              Nord
            08:35            M4              Nord

            2 departures

            """)

        let json = try S.board(db, "S3", ["--json"])
        #expect(json.status == 0 && json.stderr.isEmpty)
        let t1 = try #require(try S.rows(json).only)
        #expect(t1["tripID"] as? String == "T1" && t1["stopID"] as? String == "S3")
        #expect(t1["status"] as? String == "predicted" && t1["delay"] as? Int == 180)
        #expect(t1["predictedTime"] as? String == "2026-11-27T08:13:00+01:00" && t1["time"] as? String == "2026-11-27T08:10:00+01:00")
        let t2 = try #require(try S.rows(S.board(db, "S2", ["--json"])).last)
        #expect(t2["tripID"] as? String == "T2" && t2["status"] as? String == "scheduled" && t2["delay"] is NSNull && t2["predictedTime"] is NSNull)
        // Without --realtime: the timetable's board, without the three fields.
        let plain = try S.query(["departures", "S3", "--db", db, "--at", "2026-11-27 08:00", "--json"])
        let plainRow = try #require(try S.rows(plain).only)
        #expect(plainRow["tripID"] as? String == "T1" && plainRow["time"] as? String == "2026-11-27T08:10:00+01:00")
        #expect(plainRow["status"] == nil && plainRow["delay"] == nil && plainRow["predictedTime"] == nil)
        #expect(!plain.stdoutText.contains("\"status\""))
    }

    @Test("several sources in one call; vehicles near a point and of a route; an alert under the board of its stop")
    func severalSources() throws {
        let folder = try TemporaryFolder()
        let db = try S.database(in: folder)
        let trips = try S.write(S.tripUpdates(delay: 180), name: "trips.pb", in: folder)
        let positions = try S.write(S.positionsAndAlerts(), name: "positions.pb", in: folder)
        let run = try S.importer(["realtime", trips, positions, "--db", db])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let lines = S.lines(run)
        #expect(lines.map(\.source) == [trips, positions] && lines.allSatisfy(S.isWellFormed), "\(lines)")
        #expect(lines.map(\.text) == [
            "1 entities, 1 changed, 0 removed; 1 trips matched, 0 not found; 7 rows written, 0 deleted",
            "4 entities, 4 changed, 0 removed; 14 rows written, 0 deleted",
        ])

        let near = try S.query(["vehicles", "--near", "52.52,13.40", "--within", "500", "--db", db, "--json"])
        #expect(near.status == 0 && near.stderr.isEmpty, "\(near.stderr)")
        let vehicle = try #require(try S.rows(near).only)
        #expect(vehicle["vehicleID"] as? String == "7" && vehicle["label"] as? String == "bus 7" && vehicle["routeID"] as? String == "R1")
        #expect(vehicle["tripID"] as? String == "T1" && vehicle["meters"] as? Double == 13)
        let text = try S.query(["vehicles", "--near", "52.52,13.40", "--within", "500", "--db", db]).stdoutText
        #expect(text.contains("bus 7") && text.contains("52.52010,13.40010") && !text.contains("far 9"), "\(text)")
        let byRoute = try S.query(["vehicles", "--route", "R1", "--db", db]).stdoutText
        #expect(byRoute.contains("bus 7") && !byRoute.contains("far 9"), "\(byRoute)")
        let r2 = try S.rows(S.query(["vehicles", "--route", "R2", "--db", db, "--json"]))
        #expect(r2.map { $0["label"] as? String } == ["far 9"] && r2.first?["meters"] == nil)
        #expect(try S.rows(S.query(["vehicles", "--db", db, "--json"])).map { $0["label"] as? String } == ["bus 7", "far 9"])
        #expect(try S.query(["vehicles", "--near", "52.52,13.40", "--within", "10", "--db", db]).stdoutText == "no vehicles\n")

        // S1 stands for its station: the strike at S1 is under the station's board, R2's detour is not (no X9 there).
        let board = try S.board(db, "S1")
        #expect(board.status == 0 && board.stderr.isEmpty, "\(board.stderr)")
        #expect(board.stdoutText == """
            Departures from Station (ST), Fri 2026-11-27 08:00 to 09:00, Europe/Berlin

            time   live  line  platform  to
            08:00        M4              Nord
            08:30        M4              Nord

            2 departures

            Alerts:
            ! Streik (STRIKE, NO_SERVICE): Keine Abfahrten bis Mittag

            """)
        // S5 has F1 (X9): its detour; as JSON the alerts go to standard error.
        let json = try S.board(db, "S5", ["--json"])
        #expect(json.status == 0 && json.stderr == "gtfs-query: ! Umleitung (DETOUR)\n", "\(json.stderr)")
        #expect(try S.rows(json).count == 6)
        // The strike's period has ended by the afternoon.
        let afternoon = try S.query(["departures", "S1", "--db", db, "--at", "2026-11-27 13:00", "--realtime"])
        #expect(!afternoon.stdoutText.contains("Alerts:") && !afternoon.stdoutText.contains("Streik"), "\(afternoon.stdoutText)")
    }

    /// A source that must be refused: the arguments after `realtime`, standard input, and what the line says after `failed: `.
    struct Refused: CustomStringConvertible {
        let name: String, arguments: [String], stdin: Data?, source: String, message: String
        var description: String { name }
    }

    /// Inputs a broken or hostile publisher (or a typing user) gives.
    static func refusedCases(in folder: TemporaryFolder) throws -> [Refused] {
        let good = try S.tripUpdates(delay: 60).serializedData()
        var generator = SeededGenerator(seed: 20261127)
        let random = Data((0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let differential = try S.tripUpdates(delay: 60).with { $0.incrementality = .differential }.serializedData()
        let long = RealtimeAlert(entityID: "big", header: [.init(String(repeating: "x", count: 2000))])
        let big = try RealtimeMessage(timestamp: S.now, alerts: [long]).serializedData()
        let files = [("missing.pb", nil), ("random.pb", random), ("truncated.pb", good.dropLast(3)), ("differential.pb", differential),
                     ("big.pb", big), ("empty.pb", Data()), ("good.pb", good)]
        var paths: [String: String] = [:]
        for (name, bytes) in files {
            paths[name] = try bytes.map { try folder.write(Array($0), name: name) } ?? folder.file(name)
        }
        func file(_ name: String, _ message: String, _ extra: [String] = []) -> Refused {
            Refused(name: name, arguments: [paths[name]!] + extra, stdin: nil, source: paths[name]!, message: message)
        }
        return [
            file("missing.pb", "\(paths["missing.pb"]!): No such file or directory"),
            file("random.pb", "bytes 0…: field 6 has wire type 6, which does not exist"),
            file("truncated.pb", "bytes 15…: field 2 declares 30 bytes, only 27 follow"),
            file("differential.pb", "\(paths["differential.pb"]!): DIFFERENTIAL messages are refused (the specification leaves their meaning unsettled); ask the publisher for FULL_DATASET"),
            file("big.pb", "\(paths["big.pb"]!): more than 1024 bytes, the largest message allowed (--max-message)", ["--max-message", "1K"]),
            file("empty.pb", "header: the message has no header (field 1)"),
            file("good.pb", "no feed named nope: import its static feed first", ["--feed", "nope"]),
            Refused(name: "a directory", arguments: [folder.path], stdin: nil, source: folder.path,
                    message: "\(folder.path): is a directory, not a message"),
            Refused(name: "/dev/zero", arguments: ["/dev/zero", "--max-message", "1K"], stdin: nil, source: "/dev/zero",
                    message: "/dev/zero: more than 1024 bytes, the largest message allowed (--max-message)"),
            Refused(name: "truncated on standard input", arguments: ["-"], stdin: good.dropLast(3), source: "-",
                    message: "bytes 15…: field 2 declares 30 bytes, only 27 follow"),
            Refused(name: "too large on standard input", arguments: ["-", "--max-message", "1K"], stdin: big, source: "-",
                    message: "standard input: more than 1024 bytes, the largest message allowed (--max-message)"),
        ]
    }

    @Test("refused inputs: exit 1 naming the source, the message on its line, the database and the board as before")
    func refusedInputs() throws {
        let folder = try TemporaryFolder()
        let db = try S.database(in: folder)
        let trips = try S.write(S.tripUpdates(delay: 180), name: "trips.pb", in: folder)
        #expect(try S.importer(["realtime", trips, "--db", db]).status == 0)
        let (before, board) = (try S.snapshot(db), try S.board(db, "S2").stdoutText)
        for input in try Self.refusedCases(in: folder) {
            let run = try S.importer(["realtime"] + input.arguments + ["--db", db], stdin: input.stdin)
            #expect(run.status == 1, "\(input)")
            #expect(run.stderr == "gtfs-import: failed: \(input.source)\n", "\(input): \(run.stderr)")
            let line = S.lines(run).only
            #expect(line?.source == input.source && line.map(S.isWellFormed) == true, "\(input): \(run.stdoutText)")
            #expect(line?.text == "failed: \(input.message)", "\(input)")
            #expect(try S.snapshot(db) == before, "\(input)")
        }
        #expect(try S.board(db, "S2").stdoutText == board)

        // Polling standard input is a usage error: nothing read, nothing written.
        let polled = try S.importer(["realtime", "-", "--every", "30s", "--db", db], stdin: try S.tripUpdates(delay: 60).serializedData())
        #expect(polled.status == 2 && polled.stdout.isEmpty, "\(polled.stderr)")
        #expect(polled.stderr.contains("standard input (-) can be read once, not polled with --every"), "\(polled.stderr)")
        for bad in [["--every", "soon"], ["--max-age", "-1m"], ["--max-message", "2G"], ["--max-message", "0"]] {
            let usage = try S.importer(["realtime", trips, "--db", db] + bad)
            #expect(usage.status == 2 && usage.stdout.isEmpty, "\(bad): \(usage.stderr)")
        }
        // A database that does not exist is not created.
        let nowhere = folder.file("none.sqlite")
        let missing = try S.importer(["realtime", trips, "--db", nowhere])
        #expect(missing.status == 1 && missing.stderr == "gtfs-import: \(nowhere): no such database (gtfs-import writes one)\n", "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: nowhere))
        #expect(try S.snapshot(db) == before)
    }

    @Test("a good and a bad source in one call: the good one is applied, the bad one named; then a message on standard input")
    func partialFailureAndStandardInput() throws {
        let folder = try TemporaryFolder()
        let db = try S.database(in: folder)
        let trips = try S.write(S.tripUpdates(delay: 180), name: "trips.pb", in: folder)
        let broken = try folder.write(Array("not protobuf at all".utf8), name: "broken.pb")
        let run = try S.importer(["realtime", broken, trips, "--db", db])
        #expect(run.status == 1 && run.stderr == "gtfs-import: failed: \(broken)\n", "\(run.stderr)")
        #expect(S.lines(run).map(\.source) == [broken, trips] && S.lines(run).last?.text.hasPrefix("1 entities, 1 changed") == true)
        #expect(try S.board(db, "S3").stdoutText.contains("08:10  08:13 +3  M4"))
        // Standard input is a source of its own, named -.
        let piped = try S.importer(["realtime", "-", "--db", db], stdin: try S.positionsAndAlerts().serializedData())
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
        #expect(S.lines(piped).map(\.source) == ["-"] && S.lines(piped).first?.text == "4 entities, 4 changed, 0 removed; 14 rows written, 0 deleted")
        #expect(try S.rows(S.query(["vehicles", "--route", "R1", "--db", db, "--json"])).map { $0["label"] as? String } == ["bus 7"])
    }

    @Test("a URL: applied, fetched again by a new process (unchanged), failures named; --header values and the query never shown or stored")
    func urlSource() async throws {
        let folder = try TemporaryFolder()
        let db = try S.database(in: folder)
        let feed = try await ServedFeed(body: Array(try S.tripUpdates(delay: 180).serializedData()), etag: "\"rt1\"")
        defer { feed.stop() }
        let url = feed.server.url("/trips.pb?key=q-s3cr3t-query")
        let shown = feed.server.url("/trips.pb") + "?…"
        let options = ["--db", db, "--header", "X-Api-Key: s3cr3t-value", "--retries", "0", "--idle-timeout", "2"]
        let first = try S.importer(["realtime", url] + options)
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        #expect(S.lines(first).map(\.source) == [shown] && S.lines(first).allSatisfy(S.isWellFormed))
        #expect(S.lines(first).first?.text == "1 entities, 1 changed, 0 removed; 1 trips matched, 0 not found; 7 rows written, 0 deleted")
        #expect(feed.requests.last?.header("X-Api-Key") == "s3cr3t-value" && feed.requests.last?.target == "/trips.pb?key=q-s3cr3t-query")
        #expect(try S.board(db, "S3").stdoutText.contains("08:10  08:13 +3  M4"))
        let applied = try S.snapshot(db)

        // A new process holds no validators: it fetches the whole message, which is the same.
        let second = try S.importer(["realtime", url] + options)
        #expect(second.status == 0 && S.lines(second).map(\.text) == ["unchanged, nothing written"], "\(second.stdoutText)")
        #expect(feed.requests.count == 2 && feed.requests.last?.header("If-None-Match") == nil)
        #expect(try S.snapshot(db) == applied)

        // Failures: a refusal, a captive portal's page, a body cut short; each leaves the database as it was.
        var outputs = [first, second]
        for (fault, message) in [
            (ServedFeed.Fault.status(401), "\(shown): the server answered 401 Unauthorized"),
            (.html, "bytes 0…: end of group 7 without its start"),
            (.dropHalf, "\(shown): "),
        ] {
            feed.fail(fault)
            let failed = try S.importer(["realtime", url] + options)
            outputs.append(failed)
            #expect(failed.status == 1 && failed.stderr == "gtfs-import: failed: \(shown)\n", "\(fault): \(failed.stderr)")
            #expect(S.lines(failed).only?.text.hasPrefix("failed: \(message)") == true, "\(fault): \(failed.stdoutText)")
            #expect(try S.snapshot(db) == applied)
        }
        // Userinfo in the URL is a secret too.
        let withUser = feed.server.url("/trips.pb").replacingOccurrences(of: "http://", with: "http://me:s3cr3t-password@")
        outputs.append(try S.importer(["realtime", withUser] + options))
        #expect(outputs.last?.status == 0 && S.lines(outputs.last!).only?.source == feed.server.url("/trips.pb"))
        for output in outputs {
            #expect(!output.stdoutText.contains("s3cr3t") && !output.stderr.contains("s3cr3t"), "\(output.stdoutText) \(output.stderr)")
        }
        #expect(try !S.snapshot(db).joined().contains("s3cr3t"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".gtfs-download") }.isEmpty)
    }

    @Test("a URL's message over --max-message is refused, naming the option that limits it")
    func urlOverTheLimit() async throws {
        let folder = try TemporaryFolder()
        let db = try S.database(in: folder)
        let long = RealtimeAlert(entityID: "big", header: [.init(String(repeating: "x", count: 2000))])
        let feed = try await ServedFeed(body: Array(try RealtimeMessage(timestamp: S.now, alerts: [long]).serializedData()))
        defer { feed.stop() }
        let before = try S.snapshot(db)
        let run = try S.importer(["realtime", feed.server.url("/alerts.pb"), "--db", db, "--max-message", "1K", "--retries", "0"])
        #expect(run.status == 1 && run.stderr == "gtfs-import: failed: \(feed.server.url("/alerts.pb"))\n", "\(run.stderr)")
        let text = S.lines(run).only?.text ?? ""
        #expect(text.hasPrefix("failed: \(feed.server.url("/alerts.pb")): ") && text.contains("1024 bytes"), "\(text)")
        #expect(text.contains("--max-message") && !text.contains("--max-download"), "\(text)")
        #expect(try S.snapshot(db) == before)
    }

    /// Waits at most `timeout` until `condition` holds.
    static func waitUntil(timeout: Duration = .seconds(30), _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }

    /// The digest of the last message a source applied, as the database holds it.
    static func lastDigest(_ db: String, source: String) throws -> String? {
        let queue = try S.readOnly(db)
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchOne(db, sql: "SELECT message_digest FROM realtime_sources WHERE source = ?", arguments: [source])
        }
    }

    @Test("--every 1s polls a file: unchanged, then the changed message; SIGTERM ends it with status 0 within a second")
    func pollingAFile() throws {
        let folder = try TemporaryFolder()
        let db = try S.database(in: folder)
        let path = try S.write(S.tripUpdates(delay: 180), name: "trips.pb", in: folder)
        let running = try ToolRunner.start("gtfs-import", ["realtime", path, "--every", "1s", "--db", db], environment: S.environment)
        // The tool's standard output is read only at its end: the database tells when a poll has applied.
        #expect(try Self.waitUntil { try Self.lastDigest(db, source: path) != nil })
        let first = try Self.lastDigest(db, source: path)
        Thread.sleep(forTimeInterval: 2.2)  // a second poll at least: the same message
        try S.tripUpdates(delay: 300).serializedData().write(to: URL(fileURLWithPath: path), options: .atomic)
        #expect(try Self.waitUntil { try Self.lastDigest(db, source: path) != first })
        let signalled = ContinuousClock.now
        running.send(SIGTERM)
        let output = try #require(running.wait(timeout: .seconds(10)))
        #expect(ContinuousClock.now - signalled < .seconds(1))
        #expect(output.status == 0 && !output.wasSignalled)
        #expect(output.stderr == "gtfs-import: stopped by SIGTERM; \(db) holds the last applied messages\n", "\(output.stderr)")
        let lines = S.lines(output)
        #expect(lines.allSatisfy { $0.source == path && S.isWellFormed($0) }, "\(lines)")
        let texts = lines.map(\.text)
        let changed = try #require(texts.firstIndex { $0.contains("1 changed") && $0 != texts.first }, "\(texts)")
        #expect(texts.first == "1 entities, 1 changed, 0 removed; 1 trips matched, 0 not found; 7 rows written, 0 deleted")
        #expect(texts[changed] == "1 entities, 1 changed, 0 removed; 1 trips matched, 0 not found; 7 rows written, 7 deleted")
        #expect(changed >= 2 && texts[1 ..< changed].allSatisfy { $0 == "unchanged, nothing written" }, "\(texts)")
        #expect(texts[(changed + 1)...].allSatisfy { $0 == "unchanged, nothing written" }, "\(texts)")
        #expect(try S.board(db, "S3").stdoutText.contains("08:10  08:15 +5  M4"))
    }

    @Test("--every 1s polls a URL conditionally: the second request carries the first answer's ETag and gets 304")
    func pollingAURL() async throws {
        let folder = try TemporaryFolder()
        let db = try S.database(in: folder)
        let feed = try await ServedFeed(body: Array(try S.tripUpdates(delay: 180).serializedData()), etag: "\"rt1\"")
        defer { feed.stop() }
        let url = feed.server.url("/trips.pb")
        let running = try ToolRunner.start("gtfs-import", ["realtime", url, "--every", "1s", "--db", db], environment: S.environment)
        let deadline = ContinuousClock.now + .seconds(30)
        while feed.requests.count < 3 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        running.send(SIGINT)
        let output = try #require(running.wait(timeout: .seconds(10)))
        #expect(output.status == 0 && output.stderr == "gtfs-import: stopped by SIGINT; \(db) holds the last applied messages\n", "\(output.stderr)")
        let texts = S.lines(output).map(\.text)
        #expect(texts.count >= 3 && texts.first?.hasSuffix("7 rows written, 0 deleted") == true, "\(texts)")
        #expect(texts.dropFirst().allSatisfy { $0 == "not modified" }, "\(texts)")
        #expect(feed.requests.first?.header("If-None-Match") == nil && feed.requests.dropFirst().allSatisfy { $0.header("If-None-Match") == "\"rt1\"" })
    }

    @Test("--max-age: a stale trip update makes no predictions when applied; a board hides predictions older than its --max-age")
    func maxAge() throws {
        let folder = try TemporaryFolder()
        let db = try S.database(in: folder)
        let hourOld = try S.write(S.tripUpdates(delay: 180, timestamp: S.now - 3600), name: "old.pb", in: folder)
        let stale = try S.importer(["realtime", hourOld, "--db", db])
        #expect(stale.status == 0 && S.lines(stale).first?.text == "1 entities, 1 changed, 0 removed; 1 trips matched, 0 not found; 1 stale; 3 rows written, 0 deleted")
        #expect(try S.predictions(db).isEmpty)
        // The board's text: no live cell (the column is as wide as its title).
        #expect(try S.board(db, "S3").stdoutText.contains("\n08:10        M4              Nord\n"))

        // Applied with a larger --max-age, the hour-old message predicts; boards show it only when they allow its age.
        try S.write(S.tripUpdates(delay: 240, timestamp: S.now - 3600), name: "old.pb", in: folder)
        let allowed = try S.importer(["realtime", hourOld, "--db", db, "--max-age", "2h"])
        #expect(allowed.status == 0 && S.lines(allowed).first?.text.contains("1 trips matched, 0 not found; 7 rows written, 3 deleted") == true, "\(allowed.stdoutText)")
        let base = ["departures", "S3", "--db", db, "--at", "2026-11-27 08:00", "--realtime", "--json"]
        for (age, status, delay) in [(nil, "scheduled", nil), ("59m", "scheduled", nil), ("61m", "predicted", 240), ("365d", "predicted", 240)] as [(String?, String, Int?)] {
            let row = try S.rows(S.query(base + (age.map { ["--max-age", $0] } ?? []))).only
            #expect(row?["status"] as? String == status && row?["delay"] as? Int == delay, "--max-age \(age ?? "default")")
        }
        #expect(try S.query(Array(base.dropLast()) + ["--max-age", "61m"]).stdoutText.contains("\n08:10  08:14 +4  M4              Nord\n"))

        // Vehicles age the same way: by their own timestamp.
        let positions = try S.write(S.positionsAndAlerts(timestamp: S.now - 1200), name: "positions.pb", in: folder)
        #expect(try S.importer(["realtime", positions, "--db", db]).status == 0)
        #expect(try S.query(["vehicles", "--db", db]).stdoutText == "no vehicles\n")
        #expect(try S.rows(S.query(["vehicles", "--db", db, "--max-age", "30m", "--json"])).count == 2)
        for bad in [["departures", "S3", "--realtime", "--max-age", "soon"], ["vehicles", "--max-age", "0s"]] {
            let usage = try S.query(bad + ["--db", db])
            #expect(usage.status == 2 && usage.stderr.contains("--max-age is not an interval"), "\(bad): \(usage.stderr)")
        }
    }

    @Test("a hostile predicted time (int64 max) is refused or passed over, never a crash; the database as before")
    func hostileTimes() throws {
        let folder = try TemporaryFolder()
        let db = try S.database(in: folder)
        let trips = try S.write(S.tripUpdates(delay: 180), name: "trips.pb", in: folder)
        #expect(try S.importer(["realtime", trips, "--db", db]).status == 0)
        let before = try S.predictions(db)
        var message = S.tripUpdates(delay: 0)
        message.tripUpdates[0].stopTimeUpdates = [RealtimeStopTimeUpdate(stopSequence: 2, arrival: RealtimeStopTimeEvent(time: .max))]
        let hostile = try S.write(message, name: "hostile.pb", in: folder)
        let run = try S.importer(["realtime", hostile, "--db", db])
        // Passed over with a note: stored, no predictions; the other source's stand.
        #expect(!run.wasSignalled && run.status == 0, "\(run.status) \(run.stderr.prefix(300))")
        let line = S.lines(run).only
        #expect(line?.source == hostile && line?.text.contains("0 trips matched, 1 not found") == true, "\(run.stdoutText)")
        #expect(line?.text.contains("1 passed over") == true, "\(run.stdoutText)")
        #expect(try S.predictions(db) == before)
        #expect(try S.board(db, "S3").stdoutText.contains("08:10  08:13 +3  M4"))
    }

    @Test("sync --once: a feed's realtime source is polled after the feed's check; a failing source is named")
    func syncRealtimeSources() async throws {
        var zip = TestZip()
        for (name, text) in S.files.sorted(by: { $0.key < $1.key }) { zip.add(name, text) }
        let feed = try await ServedFeed(body: zip.archive())
        defer { feed.stop() }
        let message = Array(try S.tripUpdates(delay: 180).serializedData())
        feed.state.withLock {
            $0.routes["/trips.pb"] = .answer(status: 200, body: message)
            $0.routes["/gone.pb"] = .answer(status: 404)
        }
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        let (trips, gone) = (feed.server.url("/trips.pb"), feed.server.url("/gone.pb"))
        let file = try folder.write(
            "[{\"name\": \"default\", \"url\": \"\(feed.url.absoluteString)\", \"realtime\": [{\"url\": \"\(trips)\", \"every\": \"30s\"}]}]",
            name: "feeds.json")
        let run = try S.importer(["sync", file, "--db", db, "--once", "--retries", "0"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines.first?.contains("  default  imported (full: ") == true, "\(lines)")
        #expect(lines.last?.contains("  default realtime \(trips)  1 entities, 1 changed, 0 removed; 1 trips matched") == true, "\(lines)")
        #expect(try S.board(db, "S3").stdoutText.contains("08:10  08:13 +3  M4"))

        let failing = try folder.write(
            "[{\"name\": \"default\", \"url\": \"\(feed.url.absoluteString)\", \"realtime\": [{\"url\": \"\(gone)\"}]}]", name: "gone.json")
        let failed = try S.importer(["sync", failing, "--db", db, "--once", "--retries", "0"])
        #expect(failed.status == 1 && failed.stderr == "gtfs-import: failed: default realtime \(gone)\n", "\(failed.stderr)")
        #expect(failed.stdoutText.contains("  default realtime \(gone)  failed: \(gone): the server answered 404"), "\(failed.stdoutText)")
        // Entries' realtime sources are checked like the feeds: an unknown field is named.
        let typo = try folder.write("[{\"name\": \"a\", \"url\": \"\(trips)\", \"realtime\": [{\"url\": \"\(trips)\", \"evry\": \"1m\"}]}]", name: "typo.json")
        let refused = try S.importer(["sync", typo, "--db", db, "--once"])
        #expect(refused.status == 1 && refused.stderr.contains("entry 1 (\"a\"): \"realtime\" 1: unknown field \"evry\""), "\(refused.stderr)")
    }

    @Test("two sources predicting one trip: when the one applied last drops it, the other's prediction is on the board again")
    func twoSourcesOneTrip() throws {
        let folder = try TemporaryFolder()
        let db = try S.database(in: folder)
        let city = try S.write(S.tripUpdates(delay: 180), name: "city.pb", in: folder)
        var regional = S.tripUpdates(delay: 60)
        regional.tripUpdates[0].entityID = "r1"
        let region = try S.write(regional, name: "region.pb", in: folder)
        #expect(try S.importer(["realtime", city, region, "--db", db]).status == 0)
        // Where two sources predict one call, the first source by name counts: city.pb.
        #expect(try S.board(db, "S3").stdoutText.contains("08:10  08:13 +3  M4"))
        regional.tripUpdates = []
        try S.write(regional, name: "region.pb", in: folder)
        let dropped = try S.importer(["realtime", region, city, "--db", db])
        #expect(S.lines(dropped).map(\.text) == ["0 entities, 0 changed, 1 removed; 0 rows written, 7 deleted", "unchanged, nothing written"])
        // Each source's predictions are its own: the region's went with its entity, the city's stand.
        let (board, predictions) = (try S.board(db, "S3").stdoutText, try S.predictions(db))
        #expect(board.contains("08:10  08:13 +3  M4"), "\(board)")
        #expect(predictions.count == 4, "\(predictions)")
    }
}

extension RealtimeMessage {
    /// A copy changed by `body`.
    func with(_ body: (inout RealtimeMessage) -> Void) -> RealtimeMessage {
        var copy = self
        body(&copy)
        return copy
    }
}
