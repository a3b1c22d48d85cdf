public import Dispatch
public import Foundation
public import GTFS
import Synchronization

/// A cancellable import of a GTFS feed into a store (``FeedStore``): a Foundation `Operation`, so it can go
/// on an `OperationQueue`, wait for dependencies, and be cancelled with `cancel()`.
///
/// Reading, inflating and parsing run on a thread of their own while the store writes on another, with a
/// bounded hand-off between them, so both cores work and memory stays flat. An atomic import (the default)
/// is one transaction: a cancel, an error or a killed process leaves the store as it was, and readers see
/// the old feed until the new one is complete.
///
/// ```swift
/// let operation = ImportOperation(source: try FeedSource(path: "vbb.zip"), store: store,
///                                 progressQueue: .main) { progress in
///     print(Int((progress.fractionCompleted ?? 0) * 100), "%", progress.rowsStored, "rows")
/// }
/// operation.completionBlock = {
///     switch operation.result {
///     case .success(let summary)?: print(summary.rowsStored, "rows stored")
///     case .failure(let error)?: print(error)
///     case nil: break
///     }
/// }
/// OperationQueue().addOperation(operation)
/// ```
public final class ImportOperation: Operation, @unchecked Sendable {
    /// The feed.
    public let source: FeedSource
    /// The import's options.
    public let options: ImportOptions
    /// Progress in input bytes (compressed bytes for gzip and zip); cancelling it cancels the import.
    /// It is updated at the same moments the progress handler is called.
    public let progress: Progress

    /// The store's import.
    package let job: any FeedImport
    /// Where the import offers its progress.
    package let reporter: ProgressReporter
    private let outcome = Mutex<Result<ImportSummary, ImportError>?>(nil)

    /// Creates an import into a store.
    ///
    /// - Parameters:
    ///   - source: the feed: a file, gzip, directory, zip or standard input.
    ///   - store: the store.
    ///   - options: the feed's name, strict or lenient, and the rest.
    ///   - progressQueue: where `progressHandler` runs; a private serial queue when `nil`.
    ///   - progressHandler: called at most once per 1% of the input and at most every 50 ms while
    ///     loading, and once per later phase; never more than one call waits on `progressQueue`.
    public convenience init(
        source: FeedSource, store: any FeedStore, options: ImportOptions = ImportOptions(),
        progressQueue: DispatchQueue? = nil, progressHandler: (@Sendable (ImportProgress) -> Void)? = nil
    ) {
        self.init(source: source, options: options, progressQueue: progressQueue, progressHandler: progressHandler) { reporter in
            store.makeImport(from: source, options: options, reporter: reporter)
        }
    }

    /// The one initializer behind the others: `makeJob` prepares the store's import with the reporter.
    package init(
        source: FeedSource, options: ImportOptions, progressQueue: DispatchQueue?, progressHandler: (@Sendable (ImportProgress) -> Void)?,
        makeJob: (ProgressReporter) -> any FeedImport
    ) {
        self.source = source
        self.options = options
        let progress = Progress(totalUnitCount: -1)
        self.progress = progress
        let reporter = ProgressReporter(queue: progressQueue ?? DispatchQueue(label: "GTFSStoreCore.progress"), handler: progressHandler, progress: progress)
        self.reporter = reporter
        let job = makeJob(reporter)
        self.job = job
        super.init()
        progress.cancellationHandler = { job.cancel() }
    }

    /// The outcome once the operation has finished: the summary, or why it did not complete
    /// (``ImportError/cancelled(stoppedAt:)`` after a cancel); `nil` before.
    public var result: Result<ImportSummary, ImportError>? {
        if let result = outcome.withLock({ $0 }) { return result }
        // An operation cancelled before it started finishes without running `main()`.
        return isCancelled && isFinished ? .failure(.cancelled(stoppedAt: nil)) : nil
    }

    /// The outcome once `start()` has returned or the operation finished on a queue (an operation that
    /// never ran counts as cancelled).
    package var finalResult: Result<ImportSummary, ImportError> { result ?? .failure(.cancelled(stoppedAt: nil)) }

    /// Progress reports handed to the progress queue so far (each runs the handler once); for tests.
    package var progressReportCount: Int { reporter.reportsSent }

    /// Runs the import on the operation's thread.
    public override func main() {
        let result: Result<ImportSummary, ImportError>
        if isCancelled {
            result = .failure(.cancelled(stoppedAt: nil))
        } else {
            result = Result { () throws(ImportError) in try job.run() }
        }
        outcome.withLock { $0 = result }
    }

    /// Cancels the import: it finishes within about 100 ms in every phase; in an atomic import the store is
    /// left as it was.
    public override func cancel() {
        super.cancel()
        job.cancel()
    }
}

extension ImportOperation {
    /// Runs the operation on a thread of its own (it blocks that thread for its whole length: not one of the
    /// cooperative pool's); cancelling the task cancels it.
    package func runOnThread() async -> Result<ImportSummary, ImportError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<ImportSummary, ImportError>, Never>) in
                let thread = Thread {
                    self.start()
                    continuation.resume(returning: self.finalResult)
                }
                thread.name = "GTFSStoreCore.import"
                thread.start()
            }
        } onCancel: {
            self.cancel()
        }
    }
}
