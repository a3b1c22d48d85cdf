public import Foundation
package import GTFS
public import GTFSStoreCore

/// How an import from a URL ended.
public enum URLImportOutcome: Sendable {
    /// The feed was downloaded and imported.
    case imported(ImportSummary)
    /// The server answered 304 to the held version's validators: nothing was written but the check.
    /// `since` is the held version's `Last-Modified`, else when it was imported or last confirmed.
    case notModified(since: String)
    /// The downloaded bytes hash to those of the held version: nothing was written but the check.
    case unchanged
}

/// What an import from a URL reports: the download, then the import.
public enum URLImportProgress: Sendable {
    /// Bytes of the body received.
    case download(DownloadProgress)
    /// The import's progress.
    case importing(ImportProgress)
}

/// An import from a URL on a store that the caller reaches through three functions: the SQLite tool imports
/// by path (its fastest paths need the file closed), the API through a ``FeedStore``.
package struct URLImport: Sendable {
    package let fetcher: FeedFetcher
    package let options: ImportOptions
    /// Where the download goes.
    package let directory: URL
    /// The feed's last check, `nil` when there is none or the store does not exist yet.
    package let readCheck: @Sendable () throws -> FeedCheck?
    /// Imports the downloaded zip with the options given.
    package let importFeed: @Sendable (FeedSource, ImportOptions) async throws -> ImportSummary
    /// Records a check; not called for a failure of a feed never checked before (a store that may not
    /// exist yet, or a feed it does not list).
    package let recordCheck: @Sendable (FeedCheck) throws -> Void

    package init(
        fetcher: FeedFetcher, options: ImportOptions, directory: URL, readCheck: @escaping @Sendable () throws -> FeedCheck?,
        importFeed: @escaping @Sendable (FeedSource, ImportOptions) async throws -> ImportSummary,
        recordCheck: @escaping @Sendable (FeedCheck) throws -> Void
    ) {
        self.fetcher = fetcher
        self.options = options
        self.directory = directory
        self.readCheck = readCheck
        self.importFeed = importFeed
        self.recordCheck = recordCheck
    }

    /// Fetches and imports, recording the check. A failed check is recorded with the validators of the
    /// version still held, which stays.
    /// - Throws: ``FetchError`` or `ImportError`.
    package func run(progress: (@Sendable (DownloadProgress) -> Void)?) async throws -> URLImportOutcome {
        let previous = try readCheck()
        let origin = originDigest
        // The held version's validators count only while it is the version they came with, from this URL.
        let usable = previous.flatMap {
            $0.holdsCheckedVersion && ($0.urlDigest ?? "").hasPrefix(origin) && options.update != .full ? $0 : nil
        }
        let validators = usable.map { FeedValidators(etag: $0.etag, lastModified: $0.lastModified) }.flatMap { $0.isEmpty ? nil : $0 }
        var check = FeedCheck(
            feed: options.feed, source: fetcher.displayURL, urlDigest: usable?.urlDigest ?? origin, etag: usable?.etag,
            lastModified: usable?.lastModified, bodyDigest: usable?.bodyDigest, contentHash: usable?.contentHash, checkedAt: Date(),
            result: .failed, message: nil)
        var outcome: FetchOutcome
        do {
            outcome = try await fetcher.fetch(validators: validators, into: directory, progress: progress)
            // A 304 from another URL than the one the held version came from (the redirects lead elsewhere
            // now) says nothing about that version: asked again, unconditionally.
            if case .notModified(let final) = outcome, usable?.urlDigest != Self.urlDigest(origin: origin, final: final) {
                outcome = try await fetcher.fetch(validators: nil, into: directory, progress: progress)
            }
        } catch {
            if case .cancelled = error { throw error }
            record(&check, .failed, message: error.description, storeExists: previous != nil)
            throw error
        }
        switch outcome {
        case .notModified:
            record(&check, .notModified, storeExists: true)
            return .notModified(since: usable?.lastModified ?? Self.text(previous?.checkedAt ?? Date()))
        case .downloaded(let feed):
            // Still this process's to remove if it must end during the import.
            DownloadFile.inProgress.withLock { _ = $0.insert(feed.file.path) }
            defer {
                try? FileManager.default.removeItem(at: feed.file)
                DownloadFile.inProgress.withLock { _ = $0.remove(feed.file.path) }
            }
            return try await take(feed, check: &check, usable: usable, hadCheck: previous != nil)
        }
    }

    /// The downloaded body: unchanged bytes, or an import.
    private func take(_ feed: DownloadedFeed, check: inout FeedCheck, usable: FeedCheck?, hadCheck: Bool) async throws -> URLImportOutcome {
        let held = (check.etag, check.lastModified, check.urlDigest)
        check.etag = feed.validators.etag
        check.lastModified = feed.validators.lastModified
        check.urlDigest = Self.urlDigest(origin: originDigest, final: feed.finalURL)
        if let usable, usable.bodyDigest == feed.sha256 {
            record(&check, .unchanged, storeExists: true)
            return .unchanged
        }
        var options = self.options
        options.sourceName = fetcher.displayURL
        do {
            let summary = try await importFeed(.zip(path: feed.file.path), options)
            check.bodyDigest = feed.sha256
            check.contentHash = summary.contentHash
            record(&check, .imported, storeExists: true)
            return .imported(summary)
        } catch {
            if (error as? ImportError)?.isCancellation == true { throw error }
            // The version held stays, and with it the validators it came with.
            (check.etag, check.lastModified, check.urlDigest) = held
            record(&check, .failed, message: "\(error)", storeExists: hadCheck)
            throw error
        }
    }

    /// Records the check's end; a record that fails costs only a download next time.
    private func record(_ check: inout FeedCheck, _ result: FeedCheck.Result, message: String? = nil, storeExists: Bool) {
        check.result = result
        check.message = message
        check.checkedAt = Date()
        guard storeExists || result != .failed else { return }
        try? recordCheck(check)
    }

    /// What `feed_checks.url_digest` holds: the SHA-256 of the URL asked for, a space, and that of the URL
    /// the redirects led to.
    static func urlDigest(origin: String, final: URL) -> String { origin + " " + digest(final.absoluteString) }

    static func digest(_ text: String) -> String { ContentHasher.hash(text) ?? "" }

    /// The digest of the URL asked for.
    private var originDigest: String { Self.digest(fetcher.url.absoluteString) }

    static func text(_ date: Date) -> String { date.formatted(.iso8601) }
}

extension FeedStore {
    /// Downloads the feed at `url` and imports it, conditionally: the version the store holds (checked
    /// from this URL) is asked for with its `ETag` and `Last-Modified`, and neither a 304 nor a body with the
    /// same bytes writes anything but the check (`feedCheck(named:)`). The import is the file import's:
    /// atomic, incremental, cancellable (cancel the task).
    ///
    /// ```swift
    /// let outcome = try await store.importFeed(from: URL(string: "https://example.org/gtfs.zip")!,
    ///                                          options: ImportOptions(feed: "vbb"))
    /// ```
    /// - Parameters:
    ///   - url: an http or https URL of a zip feed.
    ///   - options: the import's options; `ImportOptions.Update.full` fetches and imports unconditionally.
    ///   - fetch: headers, timeouts, retries, limits.
    ///   - directory: where the download is kept while it is imported (the system's temporary directory
    ///     unless given); it is removed afterwards.
    ///   - progress: the download's bytes, then the import's progress.
    /// - Throws: ``FetchError`` or `ImportError`; the store then holds what it held.
    public func importFeed(
        from url: URL, options: ImportOptions = ImportOptions(), fetch: FetchOptions = FetchOptions(), directory: URL? = nil,
        progress: (@Sendable (URLImportProgress) -> Void)? = nil
    ) async throws -> URLImportOutcome {
        try await urlImport(url, options: options, fetch: fetch, directory: directory, progress: progress).run { progress?(.download($0)) }
    }

    /// The ``URLImport`` of `url` into this store.
    package func urlImport(
        _ url: URL, options: ImportOptions, fetch: FetchOptions, directory: URL?, progress: (@Sendable (URLImportProgress) -> Void)?
    ) throws(FetchError) -> URLImport {
        let fetcher = try FeedFetcher(url: url, options: fetch)
        let feed = options.feed
        var importProgress: (@Sendable (ImportProgress) -> Void)?
        if let progress { importProgress = { progress(.importing($0)) } }
        let handler = importProgress
        let readCheck: @Sendable () throws -> FeedCheck? = { try self.feedCheck(named: feed) }
        let importFeed: @Sendable (FeedSource, ImportOptions) async throws -> ImportSummary = { source, options in
            try await self.importFeed(from: source, options: options, progressQueue: nil, progress: handler)
        }
        return URLImport(
            fetcher: fetcher, options: options, directory: directory ?? FileManager.default.temporaryDirectory,
            readCheck: readCheck, importFeed: importFeed,
            recordCheck: { try self.recordFeedCheck($0) })
    }
}
