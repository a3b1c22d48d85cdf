import Foundation
import GRDB
import GTFS
import GTFSImport
import TestSupport
import Testing

@Suite("README: the example queries run on an imported feed")
struct ReadmeQueryTests {
    /// The statements of the README's `sql` block under "Example queries".
    static func queries() throws -> [String] {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "Example queries"))
        let block = try #require(readme[start.upperBound...].range(of: "```sql\n"))
        let end = try #require(readme[block.upperBound...].range(of: "```"))
        return readme[block.upperBound ..< end.lowerBound].components(separatedBy: ";\n")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    @Test("Departures at a stop, stops of a route, trips per line, the feeds: valid SQL; the last two answer on the Berlin subset")
    func examples() throws {
        let queries = try Self.queries()
        #expect(queries.count == 4)
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("vbb.sqlite"))
        _ = try store.importFeedSynchronously(from: try FeedSource(path: Fixtures.berlin.appendingPathComponent("vbb-2025-subset").path))
        let results = try store.pool.read { db in try queries.map { try GRDB.Row.fetchAll(db, sql: $0) } }
        let perLine = try #require(results.dropLast().last)
        #expect(perLine.count == 5)
        #expect(perLine.allSatisfy { ($0["trips"] as Int? ?? 0) > 0 })
        let feeds = try #require(results.last)
        #expect(feeds.map { $0["name"] as String? } == ["default"])
        #expect(feeds.first?["stops"] as Int? == 634)
    }
}
