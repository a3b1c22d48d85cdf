import Foundation
import GTFS
import GTFSFetch
@testable import GTFSPostgres
import GTFSStoreCore
import TestHTTPServer
import TestSupport
import Testing

/// Feeds from URLs into PostgreSQL: the same engine as into SQLite, through the store's `FeedStore` side.
@Suite("PostgreSQL store: feeds from URLs", .serialized)
struct PostgresURLImportTests {
    static let fetch: FetchOptions = {
        var options = FetchOptions()
        options.retries = 1
        options.retryDelay = .milliseconds(10)
        options.idleTimeout = .seconds(10)
        options.environment = [:]
        return options
    }()

    static func state(_ store: PostgresStore) throws -> [String] {
        try store.feeds().map { "\($0.name) \($0.contentHash ?? "-") \($0.importID ?? 0) \($0.rowCount)" }
    }

    @Test("imported, not modified, a failure leaving the schema as it was; the check survives a build aside")
    func conditional() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let feed = try await ServedFeed(body: FeedFixture.zip(version: 1))
        defer { feed.stop() }
        let store = try PostgresStore(connectionString: server.connectionString)
        defer { store.close() }
        store.usesPostGIS = false
        guard case .imported = try await store.importFeed(from: feed.url, fetch: Self.fetch) else { Issue.record("not imported"); return }
        #expect(try store.feeds().first?.source == feed.url.absoluteString)
        guard case .notModified = try await store.importFeed(from: feed.url, fetch: Self.fetch) else { Issue.record("not a 304"); return }
        #expect(feed.requests.last?.header("If-None-Match") == "\"v1\"")

        let before = try Self.state(store)
        feed.publish(FeedFixture.zip(version: 2), etag: "\"v2\"")
        feed.fail(.html)
        await #expect(throws: FetchError.self) { try await store.importFeed(from: feed.url, fetch: Self.fetch) }
        feed.fail(.declaredLength(100))
        await #expect(throws: (any Error).self) { try await store.importFeed(from: feed.url, fetch: Self.fetch) }
        #expect(try Self.state(store) == before)
        #expect(try store.feedCheck(named: "default")?.result == .failed)
        #expect(try store.feedCheck(named: "default")?.etag == "\"v1\"")

        // A full import of the schema's only feed is built aside and switched in: the checks stay.
        var options = ImportOptions()
        options.update = .full
        guard case .imported = try await store.importFeed(from: feed.url, options: options, fetch: Self.fetch) else {
            Issue.record("--full not imported"); return
        }
        let check = try #require(try store.feedCheck(named: "default"))
        #expect(check.etag == "\"v2\"" && check.holdsCheckedVersion)
        #expect(try store.stop("S1", feed: "default")?.stopName == "Stop 1 v2")
        guard case .notModified = try await store.importFeed(from: feed.url, fetch: Self.fetch) else { Issue.record("not a 304"); return }
        // So is a build aside from a file, which records no check of its own.
        let folder = try TemporaryFolder()
        let path = try folder.write(FeedFixture.zip(version: 2), name: "v2.zip")
        _ = try await store.importFeed(from: try FeedSource(path: path), options: options)
        #expect(try store.feedCheck(named: "default")?.result == .notModified)
    }

    @Test("gtfs-import URL and sync --once into a server")
    func tool() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let feed = try await ServedFeed(body: FeedFixture.zip(version: 1))
        defer { feed.stop() }
        let folder = try TemporaryFolder()
        let environment = ["NO_PROXY": "*", "no_proxy": "*"]
        let db = ["--db", server.connectionString, "--no-postgis"]
        let first = try ToolRunner.run("gtfs-import", [feed.url.absoluteString] + db, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let file = try folder.write("[{\"name\": \"default\", \"url\": \"\(feed.url.absoluteString)\"}]", name: "feeds.json")
        let sync = try ToolRunner.run("gtfs-import", ["sync", file, "--once"] + db, environment: environment)
        #expect(sync.status == 0 && sync.stdoutText.contains("  default  not modified  "), "\(sync.stdoutText) \(sync.stderr)")
        let list = try ToolRunner.run("gtfs-import", ["list"] + db.prefix(2), environment: environment)
        #expect(list.stdoutText.contains("not modified") && list.stdoutText.contains(feed.url.absoluteString))
    }
}
