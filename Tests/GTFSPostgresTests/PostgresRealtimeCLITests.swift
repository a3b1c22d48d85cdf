import Foundation
import GTFS
import GTFSRealtime
import TestSupport
import Testing

/// `gtfs-import realtime` and `gtfs-query --realtime` / `vehicles` against a PostgreSQL server: the same
/// messages give the same lines, boards and vehicles as an SQLite file does.
@Suite("PostgreSQL store: gtfs-import realtime and gtfs-query --realtime", .serialized)
struct PostgresRealtimeCLITests {
    /// The timetable (`RealtimeTestFeed`).
    static let files = RealtimeTestFeed.files

    /// Now as a header's timestamp, so that predictions and positions are fresh for the default --max-age.
    static var now: Int64 { Int64(Date().timeIntervalSince1970) }

    /// 2026-11-27 at `hour`:00 in Berlin, in seconds since 1970.
    static func morning(_ hour: Int) -> Int64 { 1_795_734_000 + Int64(hour) * 3600 }

    /// T1 of Friday 2026-11-27, `seconds` late from stop_sequence 2.
    static func tripUpdates(delay seconds: Int, incrementality: RealtimeMessage.Incrementality = .fullDataset) -> RealtimeMessage {
        RealtimeMessage(
            incrementality: incrementality, timestamp: now,
            tripUpdates: [
                RealtimeTripUpdate(
                    entityID: "e1", trip: RealtimeTrip(tripID: "T1", startDate: "20261127"),
                    stopTimeUpdates: [RealtimeStopTimeUpdate(stopSequence: 2, arrival: RealtimeStopTimeEvent(delay: seconds))])
            ])
    }

    /// A bus of R1 near S1, one of R2 far away, a strike at S1 that morning.
    static func positionsAndAlerts() -> RealtimeMessage {
        RealtimeMessage(
            timestamp: now,
            vehicles: [
                RealtimeVehicle(
                    entityID: "v1", trip: RealtimeTrip(tripID: "T1", routeID: "R1"), vehicle: RealtimeVehicleDescriptor(id: "7", label: "bus 7"),
                    latitude: 52.5201, longitude: 13.4001, timestamp: now),
                RealtimeVehicle(
                    entityID: "v2", trip: RealtimeTrip(tripID: "F1", routeID: "R2"), vehicle: RealtimeVehicleDescriptor(id: "9", label: "far 9"),
                    latitude: 48.1, longitude: 11.5, timestamp: now),
            ],
            alerts: [
                RealtimeAlert(
                    entityID: "a1", activePeriods: [.init(start: morning(7), end: morning(12))], informedEntities: [.init(stopID: "S1")],
                    cause: "STRIKE", effect: "NO_SERVICE", header: [.init("Streik", language: "de")])
            ])
    }

    /// What each line of `gtfs-import realtime` says, without its time, source and duration.
    static func texts(_ output: ToolRunner.Output) -> [String] {
        output.stdoutText.split(separator: "\n").map { line in
            let fields = line.components(separatedBy: "  ")
            return fields.count == 4 ? fields[2] : String(line)
        }
    }

    /// Runs `gtfs-import realtime` on the SQLite file and on the server; expects the same lines of both.
    static func apply(_ sources: [String], targets: [String], expect expected: [String], status: Int32 = 0) throws {
        for target in targets {
            let run = try ToolRunner.run("gtfs-import", ["realtime"] + sources + ["--db", target])
            #expect(run.status == status, "\(target): \(run.stderr)")
            #expect(texts(run) == expected, "\(target)")
        }
    }

    @Test("the same messages on PostgreSQL as on SQLite: the same lines, JSON and text boards, alerts and vehicles")
    func sameAsSQLite() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        for (name, text) in Self.files { try folder.write(text, name: "feed/\(name)") }
        let targets = [folder.file("rt.sqlite"), server.uri]
        for target in targets {
            let result = try ToolRunner.run("gtfs-import", ["--db", target, "--quiet", "--no-postgis", folder.file("feed")])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let trips = try folder.write(Array(try Self.tripUpdates(delay: 180).serializedData()), name: "trips.pb")
        let positions = try folder.write(Array(try Self.positionsAndAlerts().serializedData()), name: "positions.pb")
        try Self.apply([trips, positions], targets: targets, expect: [
            "1 entities, 1 changed, 0 removed; 1 trips matched, 0 not found; 7 rows written, 0 deleted",
            "3 entities, 3 changed, 0 removed; 9 rows written, 0 deleted",
        ])
        try Self.apply([trips, positions], targets: targets, expect: ["unchanged, nothing written", "unchanged, nothing written"])

        let board = ["departures", "S3", "--at", "2026-11-27 08:00", "--realtime", "--max-age", "365d"]
        let fromServer = try ToolRunner.run("gtfs-query", board + ["--json", "--db", server.uri])
        #expect(fromServer.status == 0 && fromServer.stderr.isEmpty, "\(fromServer.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: fromServer.stdout) as? [[String: Any]])
        #expect(rows.count == 1 && rows.first?["tripID"] as? String == "T1" && rows.first?["status"] as? String == "predicted")
        #expect(rows.first?["delay"] as? Int == 180 && rows.first?["predictedTime"] as? String == "2026-11-27T08:13:00+01:00")
        try Self.expectSameOutput(targets, queries: [
            board + ["--json"], board, ["departures", "S2", "--at", "2026-11-27 08:00", "--realtime", "--json"],
            ["departures", "S1", "--at", "2026-11-27 08:00", "--realtime"], ["departures", "S1", "--at", "2026-11-27 08:00", "--realtime", "--json"],
            ["vehicles", "--near", "52.52,13.40", "--within", "500", "--json"], ["vehicles", "--route", "R2", "--json"], ["vehicles", "--json"],
        ])

        // A changed message replaces the entity's rows; a DIFFERENTIAL one is refused on both.
        try folder.write(Array(try Self.tripUpdates(delay: 300).serializedData()), name: "trips.pb")
        try Self.apply([trips], targets: targets, expect: ["1 entities, 1 changed, 0 removed; 1 trips matched, 0 not found; 7 rows written, 7 deleted"])
        let differential = try folder.write(Array(try Self.tripUpdates(delay: 60, incrementality: .differential).serializedData()), name: "d.pb")
        try Self.apply([differential], targets: targets, expect: [
            "failed: \(differential): DIFFERENTIAL messages are refused (the specification leaves their meaning unsettled); ask the publisher for FULL_DATASET",
        ], status: 1)
        let after = try ToolRunner.run("gtfs-query", board + ["--db", server.uri]).stdoutText
        #expect(after.contains("08:10  08:15 +5  M4"), "\(after)")
        try Self.expectSameOutput(targets, queries: [board + ["--json"], ["departures", "S2", "--at", "2026-11-27 08:00", "--realtime"]])
    }

    /// Each query prints the same on both targets (standard output and error), and succeeds.
    static func expectSameOutput(_ targets: [String], queries: [[String]]) throws {
        for query in queries {
            let outputs = try targets.map { try ToolRunner.run("gtfs-query", query + ["--db", $0]) }
            #expect(outputs.allSatisfy { $0.status == 0 } && !outputs[0].stdout.isEmpty, "\(query): \(outputs.map(\.stderr))")
            #expect(outputs[1].stdoutText == outputs[0].stdoutText, "\(query)")
            #expect(outputs[1].stderr == outputs[0].stderr, "\(query)")
        }
    }
}
