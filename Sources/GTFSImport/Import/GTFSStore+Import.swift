public import Dispatch
public import GTFS
import Foundation

extension GTFSStore {
    /// Imports a feed with `async`/`await`: an ``ImportOperation`` on its own threads, cancelled when the
    /// task is.
    ///
    /// ```swift
    /// let store = try GTFSStore(path: "vbb.sqlite")
    /// let summary = try await store.importFeed(from: try FeedSource(path: "vbb.zip"))
    /// print(summary.table(.stopTimes)?.rowsStored ?? 0)
    /// ```
    ///
    /// - Parameters:
    ///   - source: the feed.
    ///   - options: atomic or batched, strict or lenient, and the rest.
    ///   - progressQueue: where `progress` runs; a private serial queue when `nil`.
    ///   - progress: receives throttled progress reports (see ``ImportOperation``).
    /// - Returns: the summary.
    /// - Throws: ``/GTFSStoreCore/ImportError`` (``/GTFSStoreCore/ImportError/cancelled(stoppedAt:)`` when the task is cancelled).
    public func importFeed(
        from source: FeedSource, options: ImportOptions = ImportOptions(),
        progressQueue: DispatchQueue? = nil, progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws -> ImportSummary {
        let operation = ImportOperation(
            source: source, store: self, options: options, progressQueue: progressQueue, progressHandler: progress)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ImportSummary, any Error>) in
                // The import blocks its thread for its whole length: give it one of its own, not the
                // cooperative pool's.
                let thread = Thread {
                    operation.start()
                    continuation.resume(with: operation.finalResult.mapError { $0 })
                }
                thread.name = "GTFSImport"
                thread.start()
            }
        } onCancel: {
            operation.cancel()
        }
    }

    /// Imports a feed on the calling thread, which it blocks until the end.
    ///
    /// - Parameters:
    ///   - source: the feed.
    ///   - options: atomic or batched, strict or lenient, and the rest.
    /// - Returns: the summary.
    /// - Throws: ``/GTFSStoreCore/ImportError``.
    public func importFeedSynchronously(from source: FeedSource, options: ImportOptions = ImportOptions()) throws(ImportError) -> ImportSummary {
        let operation = ImportOperation(source: source, store: self, options: options)
        operation.start()
        return try operation.finalResult.get()
    }
}
