public import Dispatch
public import Foundation
public import GTFS
import Synchronization

/// A cancellable import of a GTFS feed into a ``GTFSStore``: a Foundation `Operation`, so it can go on
/// an `OperationQueue`, wait for dependencies, and be cancelled with `cancel()`.
///
/// Reading, inflating and parsing run on the parser's serial queue; SQLite writes run on the store's
/// writer queue; a bounded hand-off sits between them, so both cores work and memory stays flat. By
/// default the whole import is one transaction: a cancel, an error or a killed process leaves the
/// database exactly as it was, and readers see the old feed until the new one is complete.
///
/// ```swift
/// let store = try GTFSStore(path: "vbb.sqlite")
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

    private let run: ImportRun
    private let outcome = Mutex<Result<ImportSummary, ImportError>?>(nil)

    /// Creates an import into an open store.
    ///
    /// - Parameters:
    ///   - source: the feed: a file, gzip, directory, zip or standard input.
    ///   - store: the database.
    ///   - options: atomic or batched, strict or lenient, and the rest.
    ///   - progressQueue: where `progressHandler` runs; a private serial queue when `nil`.
    ///   - progressHandler: called at most once per 1% of the input and at most every 50 ms while
    ///     loading, and once per later phase; never more than one call waits on `progressQueue`.
    public convenience init(
        source: FeedSource, store: GTFSStore, options: ImportOptions = ImportOptions(),
        progressQueue: DispatchQueue? = nil, progressHandler: (@Sendable (ImportProgress) -> Void)? = nil
    ) {
        self.init(
            source: source, destination: .store(store), options: options, progressQueue: progressQueue,
            progressHandler: progressHandler)
    }

    /// Creates an import into the database at `path`, which is opened (or created) when the operation runs.
    ///
    /// When nothing exists at `path` and the mode is ``/GTFSStoreCore/ImportOptions/Mode/atomic``, the store is built
    /// under a temporary name next to it (`PATH.importing-XXXXXXXX`), written once without WAL, and linked
    /// to `path` after its commit: a failed, cancelled or killed first import leaves no file at `path`, and
    /// the next import into `path` deletes what a killed one left. A file created at `path` by someone
    /// else meanwhile is left alone; the import then fails and says so.
    ///
    /// A full import (``/GTFSStoreCore/ImportOptions/Update/full``) of a whole feed into a file that holds only that feed
    /// and that no connection has open is built the same way and renamed over the old file, its `imports`
    /// history carried over: as fast as a first import, where replacing the rows in place writes every
    /// page twice. When a connection has the file open, the feed is replaced in place, so that connection
    /// sees the new rows after the commit.
    ///
    /// - Parameters:
    ///   - source: the feed.
    ///   - databasePath: the SQLite file; opening errors become the operation's ``/GTFSStoreCore/ImportError/store(_:)``
    ///     or ``/GTFSStoreCore/ImportError/database(path:message:code:)`` result.
    ///   - options: atomic or batched, strict or lenient, and the rest.
    ///   - progressQueue: where `progressHandler` runs.
    ///   - progressHandler: as in ``init(source:store:options:progressQueue:progressHandler:)``.
    public convenience init(
        source: FeedSource, databasePath: String, options: ImportOptions = ImportOptions(),
        progressQueue: DispatchQueue? = nil, progressHandler: (@Sendable (ImportProgress) -> Void)? = nil
    ) {
        self.init(
            source: source, destination: .path(databasePath), options: options, progressQueue: progressQueue,
            progressHandler: progressHandler)
    }

    /// The one initializer behind both.
    private init(
        source: FeedSource, destination: ImportRun.Destination, options: ImportOptions, progressQueue: DispatchQueue?, progressHandler: (@Sendable (ImportProgress) -> Void)?
    ) {
        self.source = source
        self.options = options
        let progress = Progress(totalUnitCount: -1)
        self.progress = progress
        self.run = ImportRun(
            source: source, destination: destination, options: options,
            reporter: ProgressReporter(
                queue: progressQueue ?? DispatchQueue(label: "GTFSImport.progress"), handler: progressHandler, progress: progress))
        super.init()
        progress.cancellationHandler = { [run] in run.cancel() }
    }

    /// The outcome once the operation has finished: the summary, or why it did not complete
    /// (``/GTFSStoreCore/ImportError/cancelled(stoppedAt:)`` after a cancel); `nil` before.
    public var result: Result<ImportSummary, ImportError>? {
        if let result = outcome.withLock({ $0 }) { return result }
        // An operation cancelled before it started finishes without running `main()`.
        return isCancelled && isFinished ? .failure(.cancelled(stoppedAt: nil)) : nil
    }

    /// The outcome once `start()` has returned or the operation finished on a queue (an operation that
    /// never ran counts as cancelled).
    package var finalResult: Result<ImportSummary, ImportError> { result ?? .failure(.cancelled(stoppedAt: nil)) }

    /// Progress reports handed to the progress queue so far (each runs the handler once); for tests.
    var progressReportCount: Int { run.reporter.reportsSent }

    /// Calls `observer` on the writer's thread before each file's first row is stored and as each later
    /// phase begins (for tests).
    func observePhases(_ observer: @escaping @Sendable (ImportProgress.Phase, String) -> Void) {
        run.phaseObserver.withLock { $0 = observer }
    }

    /// Runs the import on the operation's thread.
    public override func main() {
        let result: Result<ImportSummary, ImportError>
        if isCancelled {
            result = .failure(.cancelled(stoppedAt: nil))
        } else {
            result = Result { () throws(ImportError) in try run.run() }
        }
        outcome.withLock { $0 = result }
    }

    /// Cancels the import: it finishes within about 100 ms in every phase; in atomic mode the database
    /// is left as it was.
    public override func cancel() {
        super.cancel()
        run.cancel()
    }
}
