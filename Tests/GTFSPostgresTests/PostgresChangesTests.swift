import Foundation
import GRDB
import GTFS
import GTFSImport
@testable import GTFSPostgres
import Synchronization
import TestSupport
import Testing

/// The changes of an import into PostgreSQL, reported (`changeHandler`) and kept (`keepsChanges`), are the
/// SQLite store's, row for row and value for value.
@Suite("PostgreSQL store: the changes of an import", .serialized)
struct PostgresChangesTests {
    /// Imports `versions` in turn into `store` as the feed `f`, with the changes reported and kept.
    /// - Returns: the changes each import reported, as text, sorted (the stores report them in other orders).
    static func changes(of versions: [String], into store: any FeedStore, update: ImportOptions.Update = .automatic) throws -> [[String]] {
        try versions.map { path in
            let reported = Mutex<[String]>([])
            var options = ImportOptions()
            options.feed = "f"
            options.update = update
            options.keepsChanges = true
            options.changeHandler = { change in reported.withLock { $0.append("\(change)") } }
            _ = try store.importFeedSynchronously(from: try FeedSource(path: path), options: options)
            return reported.withLock { $0 }.sorted()
        }
    }

    /// The kept changes of each import as text: table, kind, key and columns, sorted within an import.
    static func kept(_ rows: [[String?]]) -> [String] {
        rows.map { $0.map { $0 ?? "∅" }.joined(separator: " | ") }
    }

    static let keptQuery = """
        SELECT import_id, table_name, kind, key, columns FROM changes ORDER BY import_id, table_name, kind, key, columns
        """

    @Test("Every kind of change, incremental and full, and groups compared one by one: reported and kept as in SQLite")
    func sameAsSQLite() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let v1 = try PostgresFailureTests.feed(PostgresIncrementalTests.version1, in: folder, named: "v1")
        let v2 = try PostgresFailureTests.feed(PostgresIncrementalTests.version2, in: folder, named: "v2")
        // A grouped file whose groups are compared one by one: a time changed, a stop gone, a trip gone, one new.
        let g1 = try PostgresFailureTests.feed(["stop_times.txt": PostgresGroupTests.stopTimes(trips: 1 ... 40)], in: folder, named: "g1")
        let g2Text = PostgresGroupTests.stopTimes(trips: Array(1 ... 6) + Array(8 ... 41)) { trip, stop, row in
            if trip == 5 && stop == 2 { return "T5,08:02:00,08:02:45,S2,2" }
            if trip == 6 && stop == 3 { return nil }
            return row
        }
        let g2 = try PostgresFailureTests.feed(["stop_times.txt": g2Text], in: folder, named: "g2")
        let versions = [v1, v2, v1, g1, g2]

        let postgres = try PostgresStore(connectionString: server.connectionString)
        defer { postgres.close() }
        let sqlite = try GTFSStore(path: folder.file("s.sqlite"))
        defer { try? sqlite.close() }
        let reported = try Self.changes(of: versions, into: postgres)
        let expected = try Self.changes(of: versions, into: sqlite)
        #expect(reported.map(\.count) == expected.map(\.count))
        for (index, (ours, theirs)) in zip(reported, expected).enumerated() where ours != theirs {
            Issue.record("import \(index + 1): PostgreSQL \(ours.filter { !theirs.contains($0) })\nSQLite \(theirs.filter { !ours.contains($0) })")
        }
        // Not nothing: the second import changes rows of every kind, the last ones only the groups that changed.
        #expect(reported[1].contains { $0.contains("): update") } && reported[1].contains { $0.contains("): delete") })
        // Trip 5's time, trip 6's third stop, trip 7's three stops, trip 41's three.
        #expect(reported[4].count == 1 + 1 + 3 + 3, "\(reported[4])")

        let keptHere = Self.kept(try postgres.connection.query(Self.keptQuery.replacingOccurrences(of: "FROM changes", with: "FROM gtfs.changes"), [], "read"))
        let keptThere = Self.kept(try sqlite.pool.read { db in
            try Row.fetchAll(db, sql: Self.keptQuery).map { row in (0 ..< 5).map { (row[$0] as DatabaseValue).storage.value.map { "\($0)" } } }
        })
        #expect(keptHere == keptThere, "PostgreSQL \(keptHere.filter { !keptThere.contains($0) })\nSQLite \(keptThere.filter { !keptHere.contains($0) })")
        #expect(keptHere.contains { $0.contains("| replace |") } && keptHere.contains { $0.contains("| update |") })

        // A full import reports every row it removes and stores, and keeps one replace row per table.
        let full = try Self.changes(of: [v2], into: postgres, update: .full)
        #expect(full == (try Self.changes(of: [v2], into: sqlite, update: .full)))
    }

    @Test("gtfs-import --changes and --keep-changes into PostgreSQL: the same lines as into SQLite")
    func tool() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let v1 = try PostgresFailureTests.feed(PostgresIncrementalTests.version1, in: folder, named: "v1")
        let v2 = try PostgresFailureTests.feed(PostgresIncrementalTests.version2, in: folder, named: "v2")
        var lines: [String: [String]] = [:]
        for target in [server.uri, folder.file("s.sqlite")] {
            for path in [v1, v2] {
                let out = folder.file("changes.jsonl")
                let run = try ToolRunner.run("gtfs-import", ["--db", target, "--quiet", "--keep-changes", "--changes", out, path])
                #expect(run.status == 0 || run.status == 3, "\(run.stderr)")
                lines[target] = (try String(contentsOfFile: out, encoding: .utf8)).split(separator: "\n").map(String.init).sorted()
            }
        }
        #expect(lines[server.uri]?.isEmpty == false)
        #expect(lines[server.uri] == lines[folder.file("s.sqlite")])
    }
}
