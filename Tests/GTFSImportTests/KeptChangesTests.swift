import Foundation
import GRDB
import GTFS
@testable import GTFSImport
import Synchronization
import TestSupport
import Testing

/// `ImportOptions.keepsChanges`: the changes of each import in the store's `changes` table.
@Suite("Kept changes")
struct KeptChangesTests {
    /// An import into the file at `path`, as the command-line tool runs it (a first import builds the file
    /// aside, a full re-import of its only feed replaces it).
    static func importFeed(_ source: FeedSource, into path: String, options: ImportOptions) throws -> ImportSummary {
        let operation = ImportOperation(source: source, databasePath: path, options: options)
        operation.start()
        return try operation.finalResult.get()
    }

    /// Every kept change as `import kind table key columns`, in order.
    static func kept(_ store: GTFSStore) throws -> [String] {
        try store.pool.read { db in
            try GRDB.Row.fetchAll(db, sql: "SELECT import_id, kind, table_name, key, columns FROM changes ORDER BY import_id, seq").map {
                "\($0["import_id"] as Int64) \($0["kind"] as String) \($0["table_name"] as String) \($0["key"] as String? ?? "-") \($0["columns"] as String? ?? "-")"
            }
        }
    }

    @Test("Kept changes: replaced tables of a full import, every reported row of an incremental one, none of a failed one, carried over by a full re-import")
    func keptChanges() throws {
        let folder = try TemporaryFolder()
        let (old, new) = IncrementalImportTests.versions()
        let path = folder.file("kept.sqlite")
        var options = ImportOptions()
        options.keepsChanges = true
        // A first import into a new file, then the new version: both kept.
        let first = try Self.importFeed(
            try FeedSource(path: try FeedFiles.directory(old, in: folder, name: "v1")), into: path, options: options)
        let store = try GTFSStore(path: path)
        #expect(try Self.kept(store) == ["agency.txt", "stops.txt", "routes.txt", "calendar.txt", "trips.txt", "stop_times.txt"].map {
            "\(first.importID ?? -1) replace \($0.dropLast(4)) - -"
        })
        let reported = Mutex<[RowChange]>([])
        options.changeHandler = { change in reported.withLock { $0.append(change) } }
        let second = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(new, in: folder, name: "v2")), options: options)
        let rows = try Self.kept(store).filter { $0.hasPrefix("\(second.importID ?? -1) ") }
        #expect(rows.count == reported.withLock { $0.count } && rows.count == 1 + 1 + 1 + 1 + 1 + 6 + 6 + 2)
        #expect(rows.contains("\(second.importID ?? -1) update stops {\"stop_id\":\"S2\"} {\"stop_name\":{\"old\":\"Stop 2, Berlin\",\"new\":\"Stop 2 (neu), Berlin\"}}"))
        #expect(rows.contains("\(second.importID ?? -1) delete trips {\"trip_id\":\"T4\"} -"))
        #expect(rows.contains("\(second.importID ?? -1) insert stop_times {\"trip_id\":\"T99\",\"stop_sequence\":1} -"))
        // A failed import keeps nothing.
        var broken = new
        broken["stop_times.txt"] = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,xx,08:00:00,S1,1\n"
        var strict = options
        strict.parsing.strict = true
        #expect(throws: (any Error).self) {
            try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(broken, in: folder, name: "v3")), options: strict)
        }
        let before = try Self.kept(store)
        #expect(before.allSatisfy { !$0.hasPrefix("0 ") })
        try store.close()
        // A full re-import of the only feed is built aside: the history and its kept changes come along.
        options.changeHandler = nil
        options.update = .full
        let third = try Self.importFeed(
            try FeedSource(path: try FeedFiles.directory(old, in: folder, name: "v1")), into: path, options: options)
        let after = try Self.kept(try GTFSStore(path: path))
        #expect(Array(after.prefix(before.count)) == before)
        #expect(after.dropFirst(before.count).allSatisfy { $0.hasPrefix("\(third.importID ?? -1) replace ") })
    }
}
