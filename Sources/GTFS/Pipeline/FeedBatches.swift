import Dispatch
package import LineReader
import Synchronization

/// The batches of a feed parse that runs on a thread of its own, taken by the consumer at its own pace:
/// at most `maxBatchesInFlight` wait, so memory stays flat however slow the consumer.
///
/// Pull them blocking with ``next()`` (an importer's writer thread does), or with `for try await` on a task:
///
/// ```swift
/// let batches = FeedParser(source: try FeedSource(path: "vbb.zip")).batches()
/// while let batch = try batches.next() { print(batch.fileName, batch.count) }
/// print(batches.summary?.tables.count ?? 0)
///
/// for try await batch in FeedParser(source: source).batches() { … }
/// ```
public final class FeedBatches: Sendable, AsyncSequence {
    /// The element type: a batch of one file's records.
    public typealias Element = RecordBatch
    /// The error type: what the parse throws, or `CancellationError`.
    public typealias Failure = any Error

    private let channel: BoundedChannel<RecordBatch, FeedSummary>
    /// The summary, written once by the consumer that takes the end.
    private let ended = Mutex<FeedSummary?>(nil)

    init(_ channel: BoundedChannel<RecordBatch, FeedSummary>) {
        self.channel = channel
    }

    /// The next batch, waiting for the parser while none is ready; `nil` after the last one (then
    /// ``summary`` holds the feed's summary).
    ///
    /// - Returns: the next batch, or `nil` at the end of the feed.
    /// - Throws: the parse's error (a file-level problem, or a bad row in strict mode), or `CancellationError`
    ///   after ``cancel()``.
    public func next() throws -> RecordBatch? {
        try take(channel.next())
    }

    /// The feed's summary, once ``next()`` has returned `nil`.
    public var summary: FeedSummary? { ended.withLock { $0 } }

    /// Batches parsed and not yet taken: never more than `maxBatchesInFlight`.
    public var batchesInFlight: Int { channel.count }

    /// Stops the parse at its next batch; ``next()`` then throws `CancellationError`.
    public func cancel() { channel.close() }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { channel.isClosed }

    private func take(_ taken: BoundedChannel<RecordBatch, FeedSummary>.Taken) throws -> RecordBatch? {
        switch taken {
        case .item(let batch): return batch
        case .end(let result):
            let summary = try result.get()
            ended.withLock { $0 = summary }
            return nil
        case .closed: throw CancellationError()
        }
    }

    /// Makes the iterator: batches are taken as they come, and cancelling the task cancels the parse.
    /// - Returns: an iterator over the remaining batches.
    public func makeAsyncIterator() -> Iterator { Iterator(batches: self) }

    /// Takes batches without blocking a thread.
    public struct Iterator: AsyncIteratorProtocol {
        let batches: FeedBatches

        /// The next batch, or `nil` after the last.
        /// - Returns: the next batch, or `nil` at the end of the feed.
        /// - Throws: as ``FeedBatches/next()``.
        public mutating func next() async throws -> RecordBatch? {
            let batches = self.batches
            let taken = await withTaskCancellationHandler {
                await batches.channel.nextAsync()
            } onCancel: {
                batches.cancel()
            }
            return try batches.take(taken)
        }
    }
}

extension FeedParser {
    /// Starts parsing on a thread of its own; take the batches from the result.
    ///
    /// - Parameters:
    ///   - maxBatchesInFlight: batches parsed ahead of the consumer; parsing waits beyond that.
    ///   - progress: called on the parser's thread after every batch and at the end of every file.
    /// - Returns: the batches.
    public func batches(maxBatchesInFlight: Int = 4, progress: (@Sendable (FeedProgress) -> Void)? = nil) -> FeedBatches {
        FeedBatches(stream(maxBatchesInFlight: maxBatchesInFlight, progress: progress) { $0 })
    }

    /// Starts parsing on a thread of its own, handing each batch through `prepare` (run on that thread too)
    /// to a channel of at most `maxBatchesInFlight` items; the end carries the summary or the parse's error.
    package func stream<Item: Sendable>(
        maxBatchesInFlight: Int, progress: (@Sendable (FeedProgress) -> Void)? = nil,
        prepare: @escaping @Sendable (RecordBatch) -> Item
    ) -> BoundedChannel<Item, FeedSummary> {
        let channel = BoundedChannel<Item, FeedSummary>(capacity: maxBatchesInFlight)
        let parser = self
        DispatchQueue(label: "GTFS.FeedParser.parse", qos: .userInitiated).async {
            let result = Result<FeedSummary, any Error> {
                try parser.parse(
                    shouldContinue: { !channel.isClosed },
                    progress: { state in progress?(state) },
                    consume: { batch in try channel.send(prepare(batch)) })
            }
            channel.finish(result)
        }
        return channel
    }
}
