import Foundation
import GRDB
import TestHTTPServer
import TestSupport
import Testing

/// `gtfs-import URL`, `list` with checks, and `sync`, against a feed served on 127.0.0.1.
@Suite("gtfs-import: feeds from URLs and sync")
struct GTFSImportURLTests {
    /// No proxy from the machine's environment; fast retries.
    static let environment = ["NO_PROXY": "*", "no_proxy": "*"]
    static let fast = ["--retries", "1", "--idle-timeout", "0.5"]

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ToolRunner.Output {
        try ToolRunner.run("gtfs-import", arguments, environment: Self.environment.merging(environment) { $1 })
    }

    /// The feeds' versions and rows as `list --json` gives them: what a failure must leave as it was.
    static func state(_ db: String) throws -> String {
        let list = try run(["list", "--db", db, "--json"]).stdoutText
        return list.split(separator: "\n").filter { !$0.contains("\"check\"") && !$0.contains("checkedAt") && !$0.contains("\"result\"") && !$0.contains("\"message\"") }
            .joined(separator: "\n")
    }

    /// A served feed whose first version `gtfs.sqlite` in a folder of its own holds, its second version
    /// published; the database's state before anything else happens.
    static func secondVersionPublished() async throws -> (ServedFeed, TemporaryFolder, String) {
        let feed = try await ServedFeed(body: FeedFixture.zip(version: 1))
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        #expect(try Self.run([feed.url.absoluteString, "--db", db, "--quiet"]).status == 0)
        let before = try Self.state(db)
        feed.publish(FeedFixture.zip(version: 2), etag: "\"v2\"")
        return (feed, folder, before)
    }

    @Test("a URL is imported, then not modified (exit 0, nothing written); list shows the check")
    func importAndNotModified() async throws {
        let feed = try await ServedFeed(body: FeedFixture.zip(version: 1))
        defer { feed.stop() }
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        let url = feed.url.absoluteString
        let first = try Self.run([url, "--db", db])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdoutText.contains(url))
        let second = try Self.run([url, "--db", db])
        #expect(second.status == 0 && second.stdoutText == "feed default: not modified since Wed, 25 Nov 2026 10:00:00 GMT (\(url)); \(db) is unchanged\n")
        let list = try Self.run(["list", "--db", db]).stdoutText
        #expect(list.contains(url) && list.contains("not modified") && list.contains("\"v1\"") && list.contains("Wed, 25 Nov 2026 10:00:00 GMT"))
        let json = try Self.run([url, "--db", db, "--json"]).stdoutText
        #expect(json.contains("\"result\" : \"not modified\"") && json.contains("\"since\" : \"Wed, 25 Nov 2026 10:00:00 GMT\""))
        // Nothing left beside the database.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.hasPrefix(".gtfs-download") })
    }

    @Test("SIGINT during a download exits 130, the database unchanged; --changes lists a URL import's rows")
    func interruptAndChanges() async throws {
        let (feed, folder, before) = try await Self.secondVersionPublished()
        defer { feed.stop() }
        let (db, url) = (folder.file("gtfs.sqlite"), feed.url.absoluteString)
        // Every attempt stalls, so that the signal lands during the download however slow the machine is
        // (a single stall let a loaded CI machine's retry finish the import before the signal came).
        feed.fail(.stall, .stall, .stall, .stall, .stall, .stall)
        let running = try ToolRunner.start("gtfs-import", [url, "--db", db], environment: Self.environment)
        let deadline = ContinuousClock.now + .seconds(60)
        while feed.requests.count < 2 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        try await Task.sleep(for: .milliseconds(200))
        running.send(SIGINT)
        let output = try #require(running.wait(timeout: .seconds(10)))
        feed.state.withLock { $0.faults = [] }
        #expect(output.status == 130 && output.stderr.hasSuffix("cancelled by SIGINT; \(db) is unchanged\n"), "\(output.stderr)")
        #expect(try Self.state(db) == before)

        let changes = folder.file("changes.jsonl")
        let run = try Self.run([url, "--db", db, "--quiet", "--changes", changes])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOfFile: changes, encoding: .utf8).split(separator: "\n")
        // The stops' 200 new names, then the summary line.
        #expect(lines.count == 201 && lines.dropLast().allSatisfy { $0.contains("\"change\":\"update\"") && $0.contains(" v2\"}") })
        #expect(lines.last?.contains("\"complete\":true") == true)
    }

    @Test("failures exit 1 with their message and leave the database as it was", arguments: [
        (ServedFeed.Fault.status(404), "the server answered 404 Not Found"),
        (.html, "is not a zip feed; it begins \"<html>\\n<title>Maintenance</title>"),
        (.endless, "the body passed the limit of 1 MiB (--max-download)"),
        (.redirect("/feed.zip"), "redirects lead back to a URL already visited (a redirect loop)"),
        (.stall, "no data for 0.5 s (idle timeout) (2 attempts)"),
    ])
    func failures(fault: ServedFeed.Fault, message: String) async throws {
        let (feed, folder, before) = try await Self.secondVersionPublished()
        defer { feed.stop() }
        let (db, url) = (folder.file("gtfs.sqlite"), feed.url.absoluteString)
        for _ in 0..<2 { feed.fail(fault) }
        let run = try Self.run([url, "--db", db, "--max-download", "1M"] + Self.fast)
        #expect(run.status == 1)
        #expect(run.stderr.contains(message) && run.stderr.hasSuffix("; nothing was imported\n"), "\(run.stderr)")
        #expect(try Self.state(db) == before)
        #expect(try Self.run(["list", "--db", db]).stdoutText.contains("failed: "))
    }

    @Test("--header values and the URL's query never reach the output")
    func secrets() async throws {
        let feed = try await ServedFeed(body: FeedFixture.zip(version: 1))
        defer { feed.stop() }
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        let url = feed.url.absoluteString + "?key=query-secret-1"
        let ok = try Self.run([url, "--db", db, "--header", "X-Api-Key: header-secret-2", "--json"])
        #expect(ok.status == 0 && feed.requests.last?.header("X-Api-Key") == "header-secret-2")
        feed.fail(.status(401))
        let denied = try Self.run([url, "--db", db, "--header", "X-Api-Key: header-secret-2", "--full"])
        let bad = try Self.run([url, "--db", db, "--header", "X-Api-Key header-secret-3"])
        #expect(denied.status == 1 && bad.status == 2)
        let list = try Self.run(["list", "--db", db, "--json"])
        for output in [ok.stdoutText, ok.stderr, denied.stdoutText, denied.stderr, bad.stderr, list.stdoutText] {
            #expect(!output.contains("secret"), "\(output)")
        }
        let stored = try await DatabaseQueue(path: db).read { db in
            try String.fetchAll(db, sql: "SELECT source FROM feeds UNION ALL SELECT source FROM imports")
                + String.fetchAll(db, sql: "SELECT coalesce(source || url_digest || etag || last_modified || result || coalesce(message, ''), '') FROM feed_checks")
        }
        #expect(!stored.joined().contains("secret") && stored.first?.hasSuffix("?…") == true, "\(stored)")
    }

    @Test("sync --once: each feed checked, a failure named, exit 1; the file's errors name entry and field")
    func syncOnce() async throws {
        let feed = try await ServedFeed(body: FeedFixture.zip(version: 1))
        defer { feed.stop() }
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        let good = feed.url.absoluteString
        let missing = feed.server.url("/missing.zip")
        feed.state.withLock { $0.routes["/missing.zip"] = .answer(status: 404) }
        let file = try folder.write(
            """
            [{"name": "vbb", "url": "\(good)", "every": "6h", "headers": {"X-Key": "${TEST_FEED_KEY}"}},
             {"name": "gone", "url": "\(missing)"}]
            """, name: "feeds.json")
        let first = try Self.run(["sync", file, "--db", db, "--once", "--retries", "0"], environment: ["TEST_FEED_KEY": "env-secret"])
        #expect(first.status == 1 && first.stderr == "gtfs-import: failed: gone\n", "\(first.stderr)")
        let lines = first.stdoutText.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].contains("  vbb  imported (full: ") && lines[1].contains("  gone  failed: \(missing): the server answered 404"))
        #expect(feed.requests.first?.header("X-Key") == "env-secret" && !first.stdoutText.contains("env-secret"))
        feed.state.withLock { $0.routes["/missing.zip"] = .answer(status: 200, body: FeedFixture.zip(version: 3)) }
        let second = try Self.run(["sync", file, "--db", db, "--once"], environment: ["TEST_FEED_KEY": "env-secret"])
        #expect(second.status == 0 && second.stdoutText.contains("  vbb  not modified  ") && second.stdoutText.contains("  gone  imported (full: "))

        for (text, message) in [
            ("{}", "is not a JSON array of feeds"),
            ("[{\"name\": \"a\"}]", "entry 1 (\"a\"): \"url\" is missing or not a text"),
            ("[{\"name\": \"a\", \"url\": \"ftp://x/y.zip\"}]", "entry 1 (\"a\"): \"url\" is not an http or https URL"),
            ("[{\"name\": \"a\", \"url\": \"\(good)\"}, {\"name\": \"b\", \"url\": \"\(good)\", \"every\": \"6x\"}]",
             "entry 2 (\"b\"): \"every\" is not an interval like 30s, 15m, 6h or 1d"),
            ("[{\"name\": \"a\", \"url\": \"\(good)\", \"evry\": \"6h\"}]", "entry 1: unknown field \"evry\""),
            ("[{\"name\": \"a\", \"url\": \"\(good)\", \"headers\": {\"K\": \"${NOT_SET_ANYWHERE}\"}}]",
             "entry 1 (\"a\"): \"headers\": \"K\" names the environment variable NOT_SET_ANYWHERE, which is not set"),
        ] {
            let path = try folder.write(text, name: "bad.json")
            let run = try Self.run(["sync", path, "--db", db, "--once"])
            #expect(run.status == 1 && run.stderr.contains("bad.json: \(message)"), "\(run.stderr)")
        }
    }

    @Test("sync runs until SIGTERM, which stops it within a second with status 0, an import in flight rolled back")
    func syncStops() async throws {
        let feed = try await ServedFeed(body: FeedFixture.zip(version: 1))
        defer { feed.stop() }
        let folder = try TemporaryFolder()
        let db = folder.file("gtfs.sqlite")
        let file = try folder.write("[{\"name\": \"vbb\", \"url\": \"\(feed.url.absoluteString)\", \"every\": \"1s\"}]", name: "feeds.json")
        let running = try ToolRunner.start("gtfs-import", ["sync", file, "--db", db], environment: Self.environment)
        // Two checks: the import, then a 304 a second later.
        let deadline = ContinuousClock.now + .seconds(30)
        while feed.requests.count < 2 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        // The next check stalls mid-body when the signal comes.
        feed.publish(FeedFixture.zip(version: 2), etag: "\"v2\"")
        feed.fail(.stall)
        while feed.requests.count < 3 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let start = ContinuousClock.now
        running.send(SIGTERM)
        let output = try #require(running.wait(timeout: .seconds(5)))
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(output.status == 0 && output.stderr.contains("stopped by SIGTERM"), "\(output.stderr)")
        #expect(output.stdoutText.contains("  vbb  imported (full: ") && output.stdoutText.contains("  vbb  not modified  "))
        let names = try await DatabaseQueue(path: db).read { db in try String.fetchAll(db, sql: "SELECT stop_name FROM stops WHERE stop_id = 'S1'") }
        #expect(names == ["Stop 1 v1"])
    }
}
