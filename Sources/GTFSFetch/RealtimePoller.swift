public import Foundation
public import GTFSRealtime
import Platform

/// Where GTFS-Realtime messages come from: a file, standard input, or a publisher's URL.
public enum RealtimeLocation: Sendable {
    case file(String)
    case standardInput
    case url(FeedFetcher)

    /// `-` is standard input, an http or https URL a URL (fetched with `options`), anything else a file.
    public init(parsing text: String, options: FetchOptions) throws(FetchError) {
        if text == "-" {
            self = .standardInput
        } else if FeedFetcher.isURL(text) {
            self = .url(try FeedFetcher(url: text, options: options))
        } else {
            self = .file(text)
        }
    }

    /// The source's name in the store and in output: a URL without its user, password or query.
    public var displayName: String {
        switch self {
        case .file(let path): path
        case .standardInput: "-"
        case .url(let fetcher): fetcher.displayURL
        }
    }
}

/// What one poll of a realtime source came to.
public struct RealtimePollReport: Sendable {
    /// How a poll ended when it did not fail.
    public enum Outcome: Sendable {
        /// The message was applied (or was the same as the last one, `RealtimeSummary.unchangedMessage`).
        case applied(RealtimeSummary)
        /// The server answered 304 Not Modified.
        case notModified
    }

    /// The source's ``RealtimeLocation/displayName``.
    public let source: String
    /// When the poll began, and how long it took.
    public let started: Date, duration: Duration
    /// What it did, or why it failed (``FetchError``, `RealtimeDecodingError`, `RealtimeError`, the store's error).
    public let outcome: Result<Outcome, any Error>

    /// Whether the poll failed.
    public var failed: Bool { if case .failure = outcome { true } else { false } }
}

/// Polls a feed's GTFS-Realtime sources and applies each message to a store, as `gtfs-import realtime`
/// does: URLs conditionally (the validators of the last message), each message in one transaction that
/// writes only what changed. Memory is bounded by the largest message allowed.
///
/// ```swift
/// let poller = RealtimePoller(store: store, feed: "vbb", sources: [.url(try FeedFetcher(url: tripUpdatesURL))])
/// let task = Task { await poller.run(every: .seconds(30)) { print($0.source, $0.outcome) } }   // until task.cancel()
/// ```
public actor RealtimePoller {
    private let store: any FeedStore
    private let feed: String
    private let sources: [RealtimeLocation]
    private let maxAge: TimeInterval
    private let maxBytes: Int
    private let directory: URL?
    private var validators: [String: FeedValidators] = [:]

    /// A poller of `sources` for the feed named `feed`.
    /// - Parameters:
    ///   - store: the store the messages are applied to.
    ///   - feed: the static feed the messages are about.
    ///   - sources: where the messages come from, polled in order.
    ///   - maxAge: trip updates older than this make no predictions (`RealtimeOptions.maxAge`).
    ///   - maxBytes: the largest message read (`RealtimeFeed.defaultMaxBytes`, 32 MiB, by default).
    ///   - directory: where a URL's body is written while it arrives; the temporary directory when `nil`.
    public init(
        store: any FeedStore, feed: String, sources: [RealtimeLocation], maxAge: TimeInterval = RealtimeOptions.defaultMaxAge,
        maxBytes: Int = RealtimeFeed.defaultMaxBytes, directory: URL? = nil
    ) {
        (self.store, self.feed, self.sources, self.maxAge, self.maxBytes, self.directory) = (store, feed, sources, maxAge, maxBytes, directory)
    }

    /// Polls every source once, in order.
    public func pollOnce() async -> [RealtimePollReport] {
        var reports: [RealtimePollReport] = []
        for source in sources {
            if Task.isCancelled { break }
            reports.append(await poll(source))
        }
        return reports
    }

    /// Polls every source, then again each `every` after the last round began, until the task is cancelled.
    public func run(every: Duration, report: @Sendable (RealtimePollReport) -> Void) async {
        let clock = ContinuousClock()
        while !Task.isCancelled {
            let started = clock.now
            for source in sources {
                if Task.isCancelled { return }
                report(await poll(source))
            }
            try? await clock.sleep(until: started + every)
        }
    }

    private func poll(_ source: RealtimeLocation) async -> RealtimePollReport {
        let (started, clock) = (Date(), ContinuousClock())
        let begun = clock.now
        let outcome: Result<RealtimePollReport.Outcome, any Error>
        do {
            outcome = .success(try await apply(source))
        } catch {
            outcome = .failure(error)
        }
        return RealtimePollReport(source: source.displayName, started: started, duration: clock.now - begun, outcome: outcome)
    }

    private func apply(_ source: RealtimeLocation) async throws -> RealtimePollReport.Outcome {
        let name = source.displayName
        let bytes: Data
        var received: FeedValidators?
        switch source {
        case .file(let path):
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { throw FetchError.unreadable(path: path, message: System.message(forErrno: errno)) }
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                close(descriptor)
                throw FetchError.unreadable(path: path, message: "is a directory, not a message")
            }
            bytes = try Self.read(FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), name: path, limit: maxBytes)
        case .standardInput: bytes = try Self.read(FileHandle.standardInput, name: "standard input", limit: maxBytes)
        case .url(let fetcher):
            var options = fetcher.options
            (options.requiresZip, options.maxDownload) = (false, Int64(maxBytes))
            let limited = try FeedFetcher(url: fetcher.url, options: options)
            let into = directory ?? URL(fileURLWithPath: NSTemporaryDirectory())
            let outcome: FetchOutcome
            do {
                outcome = try await limited.fetch(validators: validators[name], into: into)
            } catch {
                guard case .tooLarge = error else { throw error }
                throw FetchError.unreadable(path: name, message: "more than \(maxBytes) bytes, the largest message allowed (--max-message)")
            }
            switch outcome {
            case .notModified: return .notModified
            case .downloaded(let body):
                defer { try? FileManager.default.removeItem(at: body.file) }
                bytes = try Data(contentsOf: body.file)
                received = body.validators
            }
        }
        let message = try RealtimeFeed(data: bytes, maxBytes: maxBytes)
        let summary = try store.applyRealtime(message, source: name, feed: feed, options: RealtimeOptions(maxAge: maxAge, now: Date()))
        if let received { validators[name] = received }
        return .applied(summary)
    }

    /// Reads a file or a pipe to its end, refusing more than `limit` bytes without holding them.
    static func read(_ handle: FileHandle, name: String, limit: Int) throws -> Data {
        var data = Data()
        while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
            guard data.count + chunk.count <= limit else {
                throw FetchError.unreadable(path: name, message: "more than \(limit) bytes, the largest message allowed (--max-message)")
            }
            data.append(chunk)
        }
        return data
    }
}
