import Foundation
import GTFS
import GTFSImport
@testable import GTFSPostgres
import TestSupport
import Testing

@Suite("PostgreSQL store", .serialized)
struct PostgresImportTests {
    @Test("The Berlin sample: every table holds what the SQLite store holds, row counts equal")
    func berlinSample() throws {
        let server = try TestServer()
        defer { server.stop() }
        let subset = Repository.berlin.appendingPathComponent("vbb-2025-subset").path
        let store = try PostgresStore(connectionString: server.connectionString, schema: "gtfs")
        defer { store.close() }
        let summary = try store.importFeed(from: try FeedSource(path: subset), named: "vbb")
        #expect(summary.rowsStored[.stops] == 634)

        let folder = try TemporaryFolder()
        let sqlite = try GTFSStore(path: folder.file("s.sqlite"))
        _ = try sqlite.importFeedSynchronously(from: try FeedSource(path: subset))
        let expected = try sqlite.rowCounts().filter { $0.value > 0 }
        try sqlite.close()
        #expect(try store.rowCounts(feed: "vbb") == expected)
    }
}
