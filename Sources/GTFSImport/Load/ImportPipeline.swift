import GTFS
import LineReader
import Synchronization

/// A batch as the writer takes it: the records, and for a grouped table its group runs, hashed on the
/// parser's thread (see ``GroupRun``) so that the writer only handles whole groups.
struct ParsedBatch: Sendable {
    let batch: RecordBatch
    let runs: [GroupRun]?
}

/// The parser's side of an import and the cancel that reaches both sides: a ``GTFS/FeedParser`` on its own
/// thread, the bounded channel it fills and the writer empties, and the input bytes read so far.
///
/// A cancel closes the channel (a waiting parser or writer wakes at once, the parser stops at its next batch
/// or poll) and raises the flag that the writer's SQLite progress handler reads, so a running statement
/// (an index build, say) is interrupted within a few thousand VM steps.
final class ImportPipeline: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let channel = Mutex<BoundedChannel<ParsedBatch, FeedSummary>?>(nil)
    /// Raw bytes the parser has consumed, and the input's total (-1 when unknown), for progress.
    private let parsedBytes = Atomic<Int64>(0)
    private let totalBytes = Atomic<Int64>(-1)

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Stops the import: the parse, a wait for a batch, a running statement.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        channel.withLock { $0 }?.close()
    }

    /// Throws `CancellationError` once ``cancel()`` was called.
    func checkCancelled() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Raw input bytes read so far and the input's total, when known.
    var bytes: (read: Int64, total: Int64?) {
        let total = totalBytes.load(ordering: .relaxed)
        return (parsedBytes.load(ordering: .relaxed), total >= 0 ? total : nil)
    }

    /// Starts parsing `source` on the parser's thread; the writer takes the batches from the result.
    ///
    /// - Parameters:
    ///   - options: the parse's options (its `tables` limit what is read).
    ///   - maxBatchesInFlight: batches parsed ahead of the writer.
    /// - Returns: the channel, closed at once when the import was cancelled meanwhile.
    func start(_ source: FeedSource, options: ParseOptions, maxBatchesInFlight: Int) -> BoundedChannel<ParsedBatch, FeedSummary> {
        let started = FeedParser(source: source, options: options).stream(maxBatchesInFlight: maxBatchesInFlight) { [self] state in
            parsedBytes.store(state.bytesRead, ordering: .relaxed)
            totalBytes.store(state.totalBytes ?? -1, ordering: .relaxed)
        } prepare: { batch in
            ParsedBatch(batch: batch, runs: GroupedTables.column(for: batch.file) != nil ? GroupRun.split(batch) : nil)
        }
        channel.withLock { $0 = started }
        if isCancelled { started.close() }
        return started
    }

    /// Ends the hand-off after the writer is done (a parser still reading stops at its next batch).
    func stop() {
        channel.withLock { $0 }?.close()
    }
}
