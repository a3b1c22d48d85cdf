import Foundation
import GTFS
@testable import GTFSFetch
import GTFSImport
import GTFSStoreCore
import TestHTTPServer
import TestSupport
import Testing

/// Fast retries, and no proxy from the environment of the machine running the tests. The idle timeout
/// leaves room for a machine busy with the other tests; the tests of stalls set a short one.
let testFetch: FetchOptions = {
    var options = FetchOptions()
    options.retries = 3
    options.retryDelay = .milliseconds(10)
    options.idleTimeout = .seconds(10)
    options.connectTimeout = .seconds(2)
    options.environment = [:]
    return options
}()

/// A store in a folder of its own, with a served feed. Its properties never change.
final class Fixture: @unchecked Sendable {
    let folder: TemporaryFolder
    let store: GTFSStore
    let feed: ServedFeed

    init(version: Int = 1) async throws {
        folder = try TemporaryFolder()
        store = try GTFSStore(path: folder.file("gtfs.sqlite"))
        feed = try await ServedFeed(body: FeedFixture.zip(version: version))
    }

    func importFeed(_ fetch: FetchOptions = testFetch, update: ImportOptions.Update = .automatic) async throws -> URLImportOutcome {
        var options = ImportOptions()
        options.update = update
        return try await store.importFeed(from: feed.url, options: options, fetch: fetch, directory: URL(fileURLWithPath: folder.path))
    }

    /// What a failed fetch must leave as it was: the feeds, their versions and rows.
    func state() throws -> [String] {
        try store.feeds().map { "\($0.name) \($0.contentHash ?? "-") \($0.importID ?? 0) \($0.rowCount)" }
    }

    /// The files left in the folder beside the database.
    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".gtfs-download") }
    }

    /// Imports the first version, then runs `body` expecting its failure, and checks nothing changed.
    func expectFailure(_ fetch: FetchOptions = testFetch, _ faults: ServedFeed.Fault..., publish: Int? = 2) async throws -> String {
        _ = try await importFeed()
        let before = try state()
        if let publish { feed.publish(FeedFixture.zip(version: publish), etag: "\"v\(publish)\"") }
        for fault in faults { feed.fail(fault) }
        var message = ""
        do {
            _ = try await importFeed(fetch)
            Issue.record("the import did not fail")
        } catch {
            message = "\(error)"
        }
        #expect(try state() == before)
        #expect(try leftovers().isEmpty)
        #expect(try store.feedCheck(named: "default")?.result == .failed)
        return message
    }
}

@Suite("Importing from a URL: conditional, resumed, retried, bounded")
struct URLImportTests {
    @Test("a feed is imported, then not modified (304), then imported again when it changes, unchanged for the same bytes")
    func conditional() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        guard case .imported(let summary) = try await fixture.importFeed() else { Issue.record("not imported"); return }
        #expect(summary.rowsStored > 0)
        #expect(try fixture.store.feeds().first?.source == fixture.feed.url.absoluteString)
        let check = try #require(try fixture.store.feedCheck(named: "default"))
        #expect(check.etag == "\"v1\"" && check.result == .imported && check.holdsCheckedVersion)

        guard case .notModified(let since) = try await fixture.importFeed() else { Issue.record("not a 304"); return }
        #expect(since == "Wed, 25 Nov 2026 10:00:00 GMT")
        #expect(fixture.feed.requests.last?.header("If-None-Match") == "\"v1\"")
        #expect(try fixture.store.feeds().first?.importCount == 1)

        // The same bytes under another tag: downloaded, not imported.
        fixture.feed.publish(FeedFixture.zip(version: 1), etag: "\"v1b\"")
        guard case .unchanged = try await fixture.importFeed() else { Issue.record("not unchanged"); return }
        #expect(try fixture.store.feedCheck(named: "default")?.etag == "\"v1b\"")

        fixture.feed.publish(FeedFixture.zip(version: 2), etag: "\"v2\"")
        guard case .imported(let second) = try await fixture.importFeed() else { Issue.record("not imported"); return }
        #expect(second.kind == .incremental && second.changes.updated == 200)
        #expect(try fixture.store.stop("S1", feed: "default")?.stopName == "Stop 1 v2")
        #expect(try fixture.leftovers().isEmpty)
    }

    @Test("Last-Modified alone makes the request conditional; --full fetches unconditionally")
    func lastModifiedAndFull() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        fixture.feed.publish(FeedFixture.zip(version: 1), etag: nil, lastModified: "Thu, 26 Nov 2026 08:00:00 GMT")
        _ = try await fixture.importFeed()
        guard case .notModified = try await fixture.importFeed() else { Issue.record("not a 304"); return }
        #expect(fixture.feed.requests.last?.header("If-Modified-Since") == "Thu, 26 Nov 2026 08:00:00 GMT")
        guard case .imported = try await fixture.importFeed(update: .full) else { Issue.record("--full did not import"); return }
        #expect(fixture.feed.requests.last?.header("If-Modified-Since") == nil)
    }

    @Test("a feed removed, or imported from a file since, is fetched whole")
    func validatorsBelongToTheVersion() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        _ = try await fixture.importFeed()
        try fixture.store.removeFeed(named: "default")
        guard case .imported = try await fixture.importFeed() else { Issue.record("a removed feed was not imported"); return }
        #expect(fixture.feed.requests.last?.header("If-None-Match") == nil)
        let path = try fixture.folder.write(FeedFixture.zip(version: 3), name: "v3.zip")
        _ = try fixture.store.importFeedSynchronously(from: try FeedSource(path: path))
        guard case .imported = try await fixture.importFeed() else { Issue.record("a feed imported from a file was not fetched"); return }
        #expect(try fixture.store.stop("S1", feed: "default")?.stopName == "Stop 1 v1")
    }

    @Test("a connection dropped half-way resumes with Range and If-Range")
    func resumes() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        fixture.feed.fail(.dropHalf)
        guard case .imported = try await fixture.importFeed() else { Issue.record("not imported"); return }
        let last = try #require(fixture.feed.requests.last)
        #expect(fixture.feed.requests.count == 2)
        #expect(last.header("Range") == "bytes=\(FeedFixture.zip(version: 1).count / 2)-" && last.header("If-Range") == "\"v1\"")
    }

    @Test("a server that ignores Range starts the body over")
    func startsOver() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        fixture.feed.fail(.dropHalf, .ignoreRange)
        guard case .imported = try await fixture.importFeed() else { Issue.record("not imported"); return }
        #expect(try fixture.store.stop("S1", feed: "default")?.stopName == "Stop 1 v1")
    }

    @Test("a part that does not follow what was received is dropped, and the body fetched whole")
    func misplacedPart() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        fixture.feed.fail(.dropHalf, .misplacedPart)
        guard case .imported = try await fixture.importFeed() else { Issue.record("not imported"); return }
        #expect(fixture.feed.requests.count == 3 && fixture.feed.requests.last?.header("Range") == nil)
        #expect(try fixture.store.stop("S1", feed: "default")?.stopName == "Stop 1 v1")
    }

    @Test("a server that ignores If-Range and sends another version's rest: the parts are not spliced")
    func spliced() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        fixture.feed.fail(.dropHalf, .spliced(body: FeedFixture.zip(version: 2), etag: "\"v2\""))
        guard case .imported = try await fixture.importFeed() else { Issue.record("not imported"); return }
        #expect(fixture.feed.requests.count == 3 && fixture.feed.requests.last?.header("Range") == nil)
        #expect(try fixture.store.stop("S1", feed: "default")?.stopName == "Stop 1 v2")
    }

    @Test("a 304 from another URL than the held version's (the redirects lead elsewhere now) is asked again whole")
    func notModifiedElsewhere() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        let entry = URL(string: fixture.feed.server.url("/latest"))!
        fixture.feed.state.withLock { $0.routes["/latest"] = .answer(status: 302, headers: [("Location", "/feed.zip?build=1")]) }
        let directory = URL(fileURLWithPath: fixture.folder.path)
        guard case .imported = try await fixture.store.importFeed(from: entry, fetch: testFetch, directory: directory) else {
            Issue.record("not imported"); return
        }
        guard case .notModified = try await fixture.store.importFeed(from: entry, fetch: testFetch, directory: directory) else {
            Issue.record("not a 304"); return
        }
        fixture.feed.state.withLock { $0.routes["/latest"] = .answer(status: 302, headers: [("Location", "/feed.zip?build=2")]) }
        guard case .unchanged = try await fixture.store.importFeed(from: entry, fetch: testFetch, directory: directory) else {
            Issue.record("the 304 of another URL was taken"); return
        }
        let last = fixture.feed.requests.suffix(2)
        #expect(last.map(\.target) == ["/latest", "/feed.zip?build=2"] && last.allSatisfy { $0.header("If-None-Match") == nil })
    }

    @Test("a Retry-After of any size ends the fetch with its message, never a crash")
    func hugeRetryAfter() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        let message = try await fixture.expectFailure(testFetch, .status(503, headers: [("Retry-After", "9223372036854775807")]))
        #expect(message.hasSuffix("the server asks to retry after 86400 s, longer than allowed"))
        #expect(RetryPolicy.retryAfter("-5") == .zero && RetryPolicy.retryAfter("99999999999999999999") == nil)
    }

    @Test("500 and 503 are retried; 429 waits for Retry-After")
    func retries() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        fixture.feed.fail(.status(500), .status(503))
        guard case .imported = try await fixture.importFeed() else { Issue.record("not imported"); return }
        #expect(fixture.feed.requests.count == 3)
        fixture.feed.publish(FeedFixture.zip(version: 2), etag: "\"v2\"")
        fixture.feed.fail(.status(429, headers: [("Retry-After", "1")]))
        let start = ContinuousClock.now
        guard case .imported = try await fixture.importFeed() else { Issue.record("not imported"); return }
        #expect(ContinuousClock.now - start >= .seconds(1))
    }

    @Test("too many failures end the import with the last answer; nothing changes")
    func failuresLeaveTheStore() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        let message = try await fixture.expectFailure(testFetch, .status(503), .status(503), .status(503), .status(503))
        #expect(message == "\(fixture.feed.url.absoluteString): the server answered 503 Service Unavailable (4 attempts)")
    }

    @Test("a stall after the headers times out and is retried, then fails")
    func stall() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        var fetch = testFetch
        fetch.retries = 1
        fetch.idleTimeout = .milliseconds(500)
        let message = try await fixture.expectFailure(fetch, .stall, .stall)
        #expect(message.hasSuffix("no data for 0.5 s (idle timeout) (2 attempts)"))
    }

    @Test("a body shorter than its Content-Length is retried, then fails")
    func shortBody() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        let length = FeedFixture.zip(version: 2).count
        var fetch = testFetch
        fetch.retries = 1
        let message = try await fixture.expectFailure(fetch, .declaredLength(length + 100), .declaredLength(length + 100))
        #expect(message.contains("(2 attempts)"))
    }

    @Test("a body longer than its Content-Length is cut there, and the cut zip is refused")
    func longBody() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        let length = FeedFixture.zip(version: 2).count
        let message = try await fixture.expectFailure(testFetch, .declaredLength(length - 40))
        #expect(message.contains(fixture.feed.url.absoluteString) || message.contains("zip"))
    }

    @Test("an endless body stops at --max-download")
    func endless() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        var fetch = testFetch
        fetch.maxDownload = 1 << 20
        let message = try await fixture.expectFailure(fetch, .endless)
        #expect(message == "\(fixture.feed.url.absoluteString): the body passed the limit of 1 MiB (--max-download)")
    }

    @Test("an HTML page with status 200 is refused with its first bytes escaped")
    func html() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        let message = try await fixture.expectFailure(testFetch, .html)
        #expect(message.contains("is not a zip feed; it begins \"<html>\\n<title>Maintenance</title>\\x1b[31m we are down</html>\""))
    }

    @Test("404 is not retried")
    func notFound() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        _ = try await fixture.importFeed()
        let count = fixture.feed.requests.count
        let message = try await fixture.expectFailure(testFetch, .status(404))
        #expect(message.hasSuffix("the server answered 404 Not Found"))
        #expect(fixture.feed.requests.count == count + 2)
    }

    @Test("a redirect loop and an eleventh redirect are refused")
    func redirects() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        fixture.feed.state.withLock {
            $0.routes["/a"] = .answer(status: 301, headers: [("Location", "/b")])
            $0.routes["/b"] = .answer(status: 307, headers: [("Location", "/a")])
            for hop in 0..<11 { $0.routes["/hop\(hop)"] = .answer(status: 302, headers: [("Location", "/hop\(hop + 1)")]) }
        }
        let loop = try await fixture.expectFailure(testFetch, .redirect("/a"))
        #expect(loop.hasSuffix("redirects lead back to a URL already visited (a redirect loop)"))
        let chain = try await fixture.expectFailure(testFetch, .redirect("/hop0"), publish: nil)
        #expect(chain.hasSuffix("more than 10 redirects"))
        // Ten are followed.
        fixture.feed.state.withLock { $0.routes["/hop8"] = .answer(status: 302, headers: [("Location", "/feed.zip?final")]) }
        fixture.feed.publish(FeedFixture.zip(version: 4), etag: "\"v4\"")
        fixture.feed.fail(.redirect("/hop0"))
        guard case .imported = try await fixture.importFeed() else { Issue.record("ten redirects were not followed"); return }
    }

    @Test("headers go to the URL's origin only, and no header value or query reaches a message or the store")
    func secrets() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        let other = try await TestHTTPServer { _ in .answer(status: 403, body: Array("denied".utf8)) }
        defer { other.stop() }
        var fetch = testFetch
        fetch.headers = [try HTTPHeaderField(parsing: "X-Api-Key: s3cret-value")]
        fixture.feed.fail(.redirect(other.url("/elsewhere?token=s3cret-token")))
        var options = ImportOptions()
        options.feed = "keyed"
        let url = URL(string: fixture.feed.url.absoluteString + "?key=s3cret-query")!
        var message = ""
        do {
            _ = try await fixture.store.importFeed(from: url, options: options, fetch: fetch, directory: URL(fileURLWithPath: fixture.folder.path))
        } catch {
            message = "\(error)"
        }
        #expect(fixture.feed.requests.last?.header("X-Api-Key") == "s3cret-value")
        #expect(other.requests.last?.header("X-Api-Key") == nil)
        #expect(message == "http://127.0.0.1:\(other.port)/elsewhere?…: the server answered 403 Forbidden")
        guard case .imported = try await fixture.store.importFeed(
            from: url, options: options, fetch: fetch, directory: URL(fileURLWithPath: fixture.folder.path))
        else { Issue.record("not imported"); return }
        let stored = try fixture.store.feeds().first { $0.name == "keyed" }
        #expect(stored?.source == fixture.feed.url.absoluteString + "?…")
        #expect(try fixture.store.feedCheck(named: "keyed")?.source == fixture.feed.url.absoluteString + "?…")
        #expect("\(fetch.headers)" == "[X-Api-Key: …]")
        for bad in ["X-Bad\r\nInjected: 1", "Authorization: Bearer s3cret\u{1B}", "Authorization: s3cret\u{7F}"] {
            let error = #expect(throws: FetchError.self) { try HTTPHeaderField(parsing: bad) }
            #expect(!"\(error!)".contains("s3cret"))
        }
        // A URL that does not parse is not shown whole either.
        for text in ["https://user:s3cret@feeds.example.org:80x/gtfs.zip?key=s3cret", "https://feeds example.org/gtfs.zip?key=s3cret"] {
            do {
                #expect(!(try FeedFetcher(url: text).displayURL.contains("s3cret")))
            } catch {
                #expect(!"\(error)".contains("s3cret") && "\(error)".hasPrefix("https://"), "\(error)")
            }
        }
        #expect(KeptFeed(name: "a", url: fixture.feed.url, every: .zero).every == .seconds(1))
    }

    @Test("HTTP_PROXY is used, NO_PROXY bypasses it")
    func proxy() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        // The client tunnels through the proxy (CONNECT), which refuses here: the request shows it was asked.
        var fetch = testFetch
        fetch.retries = 0
        fetch.environment = ["HTTP_PROXY": "http://127.0.0.1:\(fixture.feed.server.port)", "NO_PROXY": "localhost,.internal"]
        fixture.feed.state.withLock { $0.routes["feeds.example.org:80"] = .answer(status: 403) }
        await #expect(throws: FetchError.self) {
            try await fixture.store.importFeed(
                from: URL(string: "http://feeds.example.org/feed.zip")!, fetch: fetch, directory: URL(fileURLWithPath: fixture.folder.path))
        }
        #expect(fixture.feed.requests.last?.method == "CONNECT" && fixture.feed.requests.last?.target == "feeds.example.org:80")
        #expect(ProxySettings.proxy(for: URL(string: "http://a.internal/x")!, environment: fetch.environment) == nil)
        #expect(ProxySettings.proxy(for: URL(string: "https://a.example/x")!, environment: ["https_proxy": "proxy:3128"])?.port == 3128)
    }

    @Test("cancelling the task ends a stalled download, long before its idle timeout, leaving nothing")
    func cancel() async throws {
        let fixture = try await Fixture()
        defer { fixture.feed.stop() }
        fixture.feed.fail(.stall)
        var fetch = testFetch
        fetch.idleTimeout = .seconds(120)
        let task = Task { try await fixture.importFeed(fetch) }
        try await Task.sleep(for: .milliseconds(300))
        let start = ContinuousClock.now
        task.cancel()
        let result = await task.result
        // Milliseconds alone; the bound leaves room for a machine busy with the other tests (gtfs-import sync's
        // test measures a signal's stop within a second).
        #expect(ContinuousClock.now - start < .seconds(60))
        guard case .failure(let error) = result, case .cancelled = error as? FetchError else { Issue.record("not cancelled: \(result)"); return }
        #expect(try fixture.leftovers().isEmpty && fixture.store.feeds().isEmpty)
    }
}

@Suite("Importing from a URL over https")
struct TLSTests {
    @Test("a certificate the system does not trust is refused at once; trusted, the feed is imported; https never redirects to http")
    func verified() async throws {
        let plain = try await ServedFeed(body: FeedFixture.zip(version: 1))
        defer { plain.stop() }
        let secure = try await TestHTTPServer(tls: true) { request in
            request.target == "/down" ? .answer(status: 301, headers: [("Location", plain.url.absoluteString)]) : .answer(status: 200, body: FeedFixture.zip(version: 2))
        }
        defer { secure.stop() }
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("gtfs.sqlite"))
        let directory = URL(fileURLWithPath: folder.path)
        var refused: (any Error)?
        do {
            _ = try await store.importFeed(from: URL(string: secure.url("/feed.zip"))!, fetch: testFetch, directory: directory)
        } catch {
            refused = error
        }
        guard case .connection(_, let message, let attempts) = refused as? FetchError else { Issue.record("not refused: \(String(describing: refused))"); return }
        #expect(message.hasPrefix("TLS failed: ") && attempts == 1, "\(message)")
        #expect(secure.requests.isEmpty)

        var trusting = testFetch
        trusting.certificateAuthorities = try folder.write(TestCertificate.certificate, name: "ca.pem")
        guard case .imported = try await store.importFeed(from: URL(string: secure.url("/feed.zip"))!, fetch: trusting, directory: directory)
        else { Issue.record("not imported"); return }
        #expect(try store.stop("S1", feed: "default")?.stopName == "Stop 1 v2")
        let downgrade = await #expect(throws: FetchError.self) {
            try await store.importFeed(from: URL(string: secure.url("/down"))!, fetch: trusting, directory: directory)
        }
        #expect("\(downgrade!)".hasSuffix("refused a redirect from https to http (\(plain.url.absoluteString))"))
        #expect(plain.requests.isEmpty)
    }
}
