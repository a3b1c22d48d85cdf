public import GTFS

/// A snapshot of a running import, as the progress handler receives it.
///
/// ```swift
/// let summary = try await store.importFeed(from: source) { progress in
///     print(progress.phase, progress.fractionCompleted ?? 0, progress.rowsPerSecond)
/// }
/// ```
public struct ImportProgress: Sendable {
    /// What the import is doing.
    public enum Phase: String, Sendable, Hashable {
        /// Waiting for another import or removal writing the same database to end (see ``ImportOptions/lockWait``).
        case waiting
        /// Hashing the files of an incremental import, to skip those the store already holds.
        case hashing
        /// Deleting the rows a full import replaces (of a feed the store already holds).
        case removingRows
        /// Reading, parsing and storing rows (in an incremental import: comparing them with the stored ones).
        case loading
        /// Building the indexes after the load.
        case buildingIndexes
        /// Checking references between tables.
        case checkingReferences
        /// Committing the transaction.
        case committing
        /// Done: the last report of a completed import.
        case finished
    }

    /// The current phase.
    public var phase: Phase = .loading
    /// The file being read (while loading).
    public var fileName = ""
    /// The table of that file (also when its name does not say, as with `--table`).
    public var table: GTFSFile?
    /// Raw input bytes consumed so far (compressed bytes for gzip and zip).
    public var bytesRead: Int64 = 0
    /// The input's total raw size, when known (not for standard input).
    public var totalBytes: Int64?
    /// Rows stored so far, per table.
    public var rowsByTable: [GTFSFile: Int] = [:]
    /// Time since the import started.
    public var elapsed: Duration = .zero
    /// Time since rows began to go in: ``elapsed`` without the phases before (waiting for another import,
    /// hashing the files, removing a feed's old rows), so that the rate and the estimate count rows only.
    public var loadingElapsed: Duration = .zero
    /// The files loaded completely so far, in load order: a file is complete when the next one begins or
    /// loading ends. Files without rows do not appear.
    public var finishedFiles: [FinishedFile] = []

    /// A file loaded completely.
    public struct FinishedFile: Sendable, Hashable {
        /// The file's name, as in ``ImportProgress/fileName``.
        public var fileName: String
        /// Its table.
        public var table: GTFSFile
        /// Its rows the store holds for this import (stored, or kept unchanged by an incremental import).
        public var rows: Int
        /// From its first row to its end (including applying its changes).
        public var duration: Duration

        package init(fileName: String, table: GTFSFile, rows: Int, duration: Duration) {
            self.fileName = fileName
            self.table = table
            self.rows = rows
            self.duration = duration
        }
    }

    /// Creates an empty snapshot.
    public init() {}

    /// Rows stored so far over all tables.
    public var rowsStored: Int { rowsByTable.values.reduce(0, +) }

    /// The fraction of the input consumed, 0…1, when the total is known.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytesRead) / Double(totalBytes))
    }

    /// Rows stored per second since rows began to go in (``loadingElapsed``).
    public var rowsPerSecond: Double {
        let seconds = loadingElapsed / .seconds(1)
        return seconds > 0 ? Double(rowsStored) / seconds : 0
    }

    /// The time the rest of the input should take at the rate so far (since rows began to go in): while loading, once the rate means
    /// something (after ``estimateAfter`` and ``estimateAfterFraction`` of the input); `nil` before, and
    /// when the input's size is unknown. The first rows, of small files read while the pipeline fills,
    /// would give wild estimates.
    public var estimatedTimeRemaining: Duration? {
        guard phase == .loading, let totalBytes, totalBytes > 0, bytesRead > 0, loadingElapsed >= Self.estimateAfter,
            Double(bytesRead) / Double(totalBytes) >= Self.estimateAfterFraction
        else { return nil }
        return loadingElapsed * (Double(max(0, totalBytes - bytesRead)) / Double(bytesRead))
    }

    /// The time before ``estimatedTimeRemaining`` gives an estimate.
    public static let estimateAfter = Duration.seconds(3)
    /// The share of the input read before ``estimatedTimeRemaining`` gives an estimate.
    public static let estimateAfterFraction = 0.05
}
