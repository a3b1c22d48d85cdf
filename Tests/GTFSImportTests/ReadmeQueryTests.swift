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

    @Test("The example queries answer on the Quick start's database, as the Swift read API does")
    func examples() throws {
        let queries = try Self.queries()
        #expect(queries.count == 7)
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("vbb.sqlite"))
        _ = try store.importFeedSynchronously(from: try FeedSource(path: Fixtures.berlin.appendingPathComponent("vbb-2025-subset").path))
        _ = try store.importFeedSynchronously(
            from: try FeedSource(path: Fixtures.berlin.appendingPathComponent("vbb-2025-generated/stop_times.txt.gz").path))
        let results = try store.pool.read { db in try queries.map { try GRDB.Row.fetchAll(db, sql: $0) } }

        // The departures query lists what departures(from:between:and:) does.
        let start = try #require(ISO8601DateFormatter().date(from: "2025-11-24T07:00:00Z"))
        let departures = try store.departures(from: "de:11000:900100003", between: start, and: start + 600)
        #expect(!departures.isEmpty)
        #expect(results[0].map { $0["headsign"] as String? } == departures.map(\.headsign))
        #expect(results[0].map { $0["departure_local"] as String? }.first == "2025-11-24T08:00:00+01:00")
        // The whole network's departures in 20 minutes: every stop time in the window, the station's among them.
        let network = try store.departures(between: start, and: start + 1200, limit: 100_000)
        #expect(results[1].count >= network.count && network.count > 100 && results[1].count < network.count + 200)
        #expect(results[1].filter { ($0["stop_name"] as String?) == departures.first?.stopName }.count >= departures.count)
        let services = try store.services(on: try #require(GTFSDate(integerValue: 20251124)))
        #expect(results[2].count == 5 && results[2].allSatisfy { services.map(\.description).contains($0["service_id"] as String? ?? "") })
        #expect(results[3].count == departures.count)
        let near = try store.stops(near: 52.5219, 13.4132, within: 150)
        #expect(Set(results[4].map { $0["stop_id"] as String? ?? "" }).isSuperset(of: near.map(\.stop.stopID.description)))
        #expect(!results[5].isEmpty && results[5].allSatisfy { ($0["stop_name"] as String?)?.contains("Hackescher Markt") == true })
        #expect(results[5].map { $0["stop_id"] as String? } == (try store.stops(named: "hackescher mark", limit: 100)).map(\.stopID.description))
        let feeds = try #require(results.last)
        #expect(feeds.map { $0["name"] as String? } == ["default"])
        #expect(feeds.first?["stops"] as Int? == 634)
    }
}
