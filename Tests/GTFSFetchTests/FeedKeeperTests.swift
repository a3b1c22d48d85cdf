import Foundation
import GTFSFetch
import GTFSImport
import GTFSStoreCore
import TestHTTPServer
import TestSupport
import Testing

@Suite("FeedKeeper: feeds checked when due, one at a time, failures retried sooner")
struct FeedKeeperTests {
    /// Reports as they come.
    final class Reports: Sendable {
        let list = Locked<[FeedCheckReport]>([])
        var all: [FeedCheckReport] { list.withLock { $0 } }
        func add(_ report: FeedCheckReport) { list.withLock { $0.append(report) } }
    }

    @Test("checkAll checks each feed in order; run backs off a failing feed and leaves a fresh one to its interval")
    func schedule() async throws {
        let feed = try await ServedFeed(body: FeedFixture.zip(version: 1))
        defer { feed.stop() }
        feed.state.withLock { $0.routes["/gone.zip"] = .answer(status: 404) }
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("gtfs.sqlite"))
        let feeds = [
            KeptFeed(name: "vbb", url: feed.url, every: .seconds(3600)),
            KeptFeed(name: "gone", url: URL(string: feed.server.url("/gone.zip"))!, every: .seconds(3600)),
        ]
        let reports = Reports()
        let keeper = FeedKeeper(
            store: store, feeds: feeds, fetch: testFetch, directory: URL(fileURLWithPath: folder.path), retryAfterFailure: .milliseconds(200)
        ) { reports.add($0) }
        let once = await keeper.checkAll()
        #expect(once.map(\.feed) == ["vbb", "gone"] && once.map(\.failed) == [false, true])
        guard case .success(.imported) = once[0].outcome else { Issue.record("vbb not imported"); return }
        // The failing feed is due again in a moment, the fresh one in an hour (a machine busy with other tests
        // may take seconds over a check: the bounds leave room for that).
        #expect(once[1].nextCheck.timeIntervalSince(once[1].started) < 600)
        #expect(once[0].nextCheck.timeIntervalSince(once[0].started) > 3500)

        // Started again: vbb was checked a moment ago, so only the failing feed is due, at 0.2, 0.4, 0.8 s …
        let running = Task { await keeper.run() }
        let deadline = ContinuousClock.now + .seconds(60)
        while reports.all.count < 5 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        running.cancel()
        await running.value
        let later = reports.all.dropFirst(2)
        #expect(later.allSatisfy { $0.feed == "gone" && $0.failed })
        #expect(later.count >= 3, "\(later.count) checks")
        // The wait after each check ended: 0.2, 0.4, 0.8 s …
        let waits = later.map { $0.nextCheck.timeIntervalSince($0.started) - $0.duration / .seconds(1) }
        #expect(zip(waits, waits.dropFirst()).allSatisfy { $0 < $1 }, "\(waits)")
        #expect(try store.feedCheck(named: "gone") == nil && store.feedCheck(named: "vbb")?.result == .imported)
    }
}
