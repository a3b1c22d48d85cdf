public import Foundation
public import GTFSStoreCore

/// A feed that a ``FeedKeeper`` keeps fresh.
public struct KeptFeed: Sendable, Hashable {
    /// The feed's name in the store (`ImportOptions.feed`).
    public var name: String
    /// Its publisher's URL.
    public var url: URL
    /// Headers for its URL (API keys).
    public var headers: [HTTPHeaderField]
    /// How often it is checked.
    public var every: Duration

    /// Its GTFS-Realtime sources, each polled at its own interval (`gtfs-import sync`).
    public var realtime: [KeptRealtimeSource]

    /// A feed checked every `every` (an hour unless given; at least a second).
    public init(name: String, url: URL, headers: [HTTPHeaderField] = [], every: Duration = .seconds(3600), realtime: [KeptRealtimeSource] = []) {
        self.name = name
        self.url = url
        self.headers = headers
        self.every = max(every, .seconds(1))
        self.realtime = realtime
    }
}

/// A GTFS-Realtime source of a kept feed: its URL, headers and interval.
public struct KeptRealtimeSource: Sendable, Hashable {
    public var url: URL
    public var headers: [HTTPHeaderField]
    /// How often it is polled (at least a second).
    public var every: Duration

    public init(url: URL, headers: [HTTPHeaderField] = [], every: Duration = .seconds(30)) {
        (self.url, self.headers, self.every) = (url, headers, max(every, .seconds(1)))
    }
}

/// What one check of a feed came to.
public struct FeedCheckReport: Sendable {
    /// The feed's name.
    public let feed: String
    /// When the check began.
    public let started: Date
    /// How long it took.
    public let duration: Duration
    /// The import's outcome, or why the check failed (``FetchError`` or `ImportError`).
    public let outcome: Result<URLImportOutcome, any Error>
    /// When the feed is checked next: after its interval, or sooner after a failure (backing off).
    public let nextCheck: Date

    /// Whether the check failed.
    public var failed: Bool { if case .failure = outcome { true } else { false } }
}

/// Keeps feeds fresh in one store, as `gtfs-import sync` does: each feed is checked against its URL when due
/// (conditionally: an unchanged feed costs a request), one check at a time, and a failed check is retried
/// sooner, backing off, while the store keeps the last good version. Readers of the store are never
/// blocked: each import is one transaction they do not wait for.
///
/// ```swift
/// let keeper = FeedKeeper(store: store, feeds: [KeptFeed(name: "vbb", url: vbbURL, every: .seconds(6 * 3600))]) { report in
///     print(report.feed, report.outcome)
/// }
/// let task = Task { await keeper.run() }   // until task.cancel()
/// ```
public actor FeedKeeper {
    private let feeds: [KeptFeed]
    private let makeImport: @Sendable (KeptFeed) throws -> URLImport
    private let lastCheck: @Sendable (String) -> FeedCheck?
    private let report: @Sendable (FeedCheckReport) -> Void
    /// The first wait after a failure; it doubles with each failure in a row, up to the feed's interval.
    private let retryAfterFailure: Duration
    private var failures: [String: Int] = [:]

    /// A keeper of `feeds` in `store`.
    /// - Parameters:
    ///   - store: the store the feeds are imported into.
    ///   - feeds: the feeds, with their URLs and intervals.
    ///   - options: the imports' options (each feed's name replaces `ImportOptions.feed`).
    ///   - fetch: headers (each feed's are added), timeouts, retries and limits of every download.
    ///   - directory: where downloads are kept while imported (the system's temporary directory unless given).
    ///   - retryAfterFailure: the first wait after a failed check (a minute unless given).
    ///   - report: told of every check as it ends, on the keeper's task (not of one the keeper's end cancels).
    public init(
        store: any FeedStore, feeds: [KeptFeed], options: ImportOptions = ImportOptions(), fetch: FetchOptions = FetchOptions(),
        directory: URL? = nil, retryAfterFailure: Duration = .seconds(60), report: @escaping @Sendable (FeedCheckReport) -> Void
    ) {
        self.init(
            feeds: feeds, retryAfterFailure: retryAfterFailure,
            makeImport: { feed throws(FetchError) in
                var options = options
                options.feed = feed.name
                var fetch = fetch
                fetch.headers += feed.headers
                return try store.urlImport(feed.url, options: options, fetch: fetch, directory: directory, progress: nil)
            },
            lastCheck: { try? store.feedCheck(named: $0) }, report: report)
    }

    /// A keeper whose imports the caller makes (the SQLite tool's, by path).
    package init(
        feeds: [KeptFeed], retryAfterFailure: Duration, makeImport: @escaping @Sendable (KeptFeed) throws -> URLImport,
        lastCheck: @escaping @Sendable (String) -> FeedCheck?, report: @escaping @Sendable (FeedCheckReport) -> Void
    ) {
        self.feeds = feeds
        self.makeImport = makeImport
        self.lastCheck = lastCheck
        self.report = report
        self.retryAfterFailure = retryAfterFailure
    }

    /// Checks every feed once, in order, one after the other.
    /// - Returns: the reports, in the feeds' order (the last one's cut short when the task is cancelled).
    public func checkAll() async -> [FeedCheckReport] {
        var reports: [FeedCheckReport] = []
        for feed in feeds {
            if Task.isCancelled { break }
            reports.append(await check(feed))
        }
        return reports
    }

    /// Checks each feed when due until the task is cancelled; a check in flight is then cancelled (its
    /// import rolls back). A feed checked successfully before (a keeper started again) is due its interval
    /// after that check; the others at once.
    public func run() async {
        var due: [String: Date] = [:]
        for feed in feeds {
            // Checked before from this URL and not failed: due its interval after that check.
            let origin = URLImport.digest(feed.url.absoluteString)
            let last = lastCheck(feed.name).flatMap { $0.result != .failed && ($0.urlDigest ?? "").hasPrefix(origin) ? $0 : nil }
            due[feed.name] = last.map { $0.checkedAt.addingTimeInterval(feed.every / .seconds(1)) } ?? Date()
        }
        while !Task.isCancelled {
            guard let next = feeds.min(by: { due[$0.name]! < due[$1.name]! }) else { return }
            let wait = due[next.name]!.timeIntervalSinceNow
            if wait > 0 {
                do { try await Task.sleep(for: .seconds(wait)) } catch { return }
            }
            let report = await check(next)
            due[next.name] = report.nextCheck
        }
    }

    /// One check, after the one in flight, if any: a keeper's checks never overlap, also when ``run()`` and
    /// ``checkAll()`` are called together (an actor lets another call in while one awaits).
    private func check(_ feed: KeptFeed) async -> FeedCheckReport {
        let previous = inFlight
        let task = Task { () -> FeedCheckReport in
            _ = await previous?.value
            return await self.perform(feed)
        }
        inFlight = task
        return await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
    }

    /// The check in flight, or the last one.
    private var inFlight: Task<FeedCheckReport, Never>?

    /// One check, reported.
    private func perform(_ feed: KeptFeed) async -> FeedCheckReport {
        let started = Date()
        let clock = ContinuousClock.now
        let outcome: Result<URLImportOutcome, any Error>
        do {
            outcome = .success(try await makeImport(feed).run(progress: nil))
        } catch {
            outcome = .failure(error)
        }
        var next = feed.every
        if case .failure = outcome {
            let count = failures[feed.name, default: 0] + 1
            failures[feed.name] = count
            next = min(feed.every, retryAfterFailure * (1 << min(count - 1, 20)))
        } else {
            failures[feed.name] = 0
        }
        let report = FeedCheckReport(
            feed: feed.name, started: started, duration: ContinuousClock.now - clock, outcome: outcome,
            nextCheck: Date().addingTimeInterval(next / .seconds(1)))
        // A check cut short by the keeper's end is not one to report.
        if !Task.isCancelled { self.report(report) }
        return report
    }
}
