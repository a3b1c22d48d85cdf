public import Dispatch
import Foundation
public import GTFS

extension GTFSStore: FeedStore {
    /// The SQLite store does every option: batched commits, reported and kept changes.
    public static let capabilities = StoreCapabilities(batchedCommits: true, reportsChanges: true, keepsChanges: true)

    /// The static `capabilities`, for a store at hand.
    public var capabilities: StoreCapabilities { Self.capabilities }

    /// An import into this store (`ImportOperation` runs it).
    public func makeImport(from source: FeedSource, options: ImportOptions, reporter: ProgressReporter) -> any FeedImport {
        ImportRun(source: source, destination: .store(self), options: options, reporter: reporter)
    }
}

extension ImportOperation {
    /// Creates an import into the SQLite database at `path`, which is opened (or created) when the
    /// operation runs.
    ///
    /// When nothing exists at `path` and the mode is `ImportOptions.Mode.atomic`, the store is built
    /// under a temporary name next to it (`PATH.importing-XXXXXXXX`), written once without WAL, and linked
    /// to `path` after its commit: a failed, cancelled or killed first import leaves no file at `path`, and
    /// the next import into `path` deletes what a killed one left. A file created at `path` by someone
    /// else meanwhile is left alone; the import then fails and says so.
    ///
    /// A full import (`ImportOptions.Update.full`) of a whole feed into a file that holds only that feed
    /// and that no connection has open is built the same way and renamed over the old file, its `imports`
    /// history carried over: as fast as a first import, where replacing the rows in place writes every
    /// page twice. When a connection has the file open, the feed is replaced in place, so that connection
    /// sees the new rows after the commit.
    ///
    /// - Parameters:
    ///   - source: the feed.
    ///   - databasePath: the SQLite file; opening errors become the operation's `ImportError.store(_:)`
    ///     or `ImportError.database(path:message:code:)` result.
    ///   - options: atomic or batched, strict or lenient, and the rest.
    ///   - progressQueue: where `progressHandler` runs.
    ///   - progressHandler: as in `ImportOperation.init(source:store:options:progressQueue:progressHandler:)`.
    public convenience init(
        source: FeedSource, databasePath: String, options: ImportOptions = ImportOptions(),
        progressQueue: DispatchQueue? = nil, progressHandler: (@Sendable (ImportProgress) -> Void)? = nil
    ) {
        self.init(source: source, options: options, progressQueue: progressQueue, progressHandler: progressHandler) { reporter in
            ImportRun(source: source, destination: .path(databasePath), options: options, reporter: reporter)
        }
    }

    /// Calls `observer` on the writer's thread before each file's first row is stored and as each later
    /// phase begins (for tests of an SQLite import).
    func observePhases(_ observer: @escaping @Sendable (ImportProgress.Phase, String) -> Void) {
        (job as? ImportRun)?.phaseObserver.withLock { $0 = observer }
    }
}
