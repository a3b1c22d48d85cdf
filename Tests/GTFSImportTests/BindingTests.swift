import GRDB
import GTFS
@testable import GTFSImport
import TestSupport
import Testing

@Suite("Binding values")
struct BindingTests {
    @Test("A parameter reused across executions gets NULL after a value and a value after NULL", arguments: [1, 2, 3, 50])
    func nullsAcrossExecutions(rowsPerStatement: Int) throws {
        let codes: [String?] = ["A", nil, nil, "B", "C", nil, nil, nil, "D", "E", nil]
        let rows = codes.enumerated().map { index, code in "S\(index),\(code ?? ""),Stop \(index),52.5,13.4" }
        let stops = try Fixtures.parse(Stop.self, "stop_id,stop_code,stop_name,stop_lat,stop_lon\n" + rows.joined(separator: "\n") + "\n")
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        // Twice, so the second insert starts with statements whose parameters were used before.
        for round in 0 ..< 2 {
            let renamed = try Fixtures.parse(
                Stop.self,
                "stop_id,stop_code,stop_name,stop_lat,stop_lon\n"
                    + codes.enumerated().map { index, code in "R\(round)-\(index),\(code ?? ""),Stop \(index),52.5,13.4" }
                    .joined(separator: "\n") + "\n")
            _ = try store.pool.write { db in try TableInserter<Stop>(rowsPerStatement: rowsPerStatement).insert(round == 0 ? stops : renamed, into: db) }
        }
        let stored = try store.pool.read { db in
            try GRDB.Row.fetchAll(db, sql: "SELECT stop_id, stop_code FROM stops WHERE stop_id LIKE 'S%' ORDER BY CAST(substr(stop_id, 2) AS INTEGER)")
        }
        #expect(stored.map { $0["stop_code"] as String? } == codes)
        let second = try store.pool.read { db in
            try GRDB.Row.fetchAll(db, sql: "SELECT stop_code FROM stops WHERE stop_id LIKE 'R1-%' ORDER BY CAST(substr(stop_id, 4) AS INTEGER)")
        }
        #expect(second.map { $0["stop_code"] as String? } == codes)
    }

    @Test("Long and many texts in one statement come back intact (text buffers spill to new blocks)")
    func longTexts() throws {
        let descriptions = [
            String(repeating: "x", count: 20_000), String(repeating: "y", count: 9_000), String(repeating: "z", count: 9_000),
            "Gleis 1, \"Nord\"", "Ümläüte ß €", String(repeating: "ä", count: 5_000),
        ]
        let rows = descriptions.enumerated().map { index, text in
            "S\(index),Stop \(index),\"\(text.replacingOccurrences(of: "\"", with: "\"\""))\",52.5,13.4"
        }
        let stops = try Fixtures.parse(Stop.self, "stop_id,stop_name,stop_desc,stop_lat,stop_lon\n" + rows.joined(separator: "\n") + "\n")
        #expect(stops.map(\.stopDescription) == descriptions)
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        _ = try store.pool.write { db in try TableInserter<Stop>(rowsPerStatement: 4).insert(stops, into: db) }
        let stored = try store.pool.read { db in
            try String.fetchAll(db, sql: "SELECT stop_desc FROM stops ORDER BY CAST(substr(stop_id, 2) AS INTEGER)")
        }
        #expect(stored == descriptions)
    }
}
