import Foundation
import GTFS

/// The bounded hand-off between the parser's thread and the writer: the parser waits when
/// ``capacity`` batches are waiting, the writer waits when none is; ``close()`` wakes both at once.
final class BatchChannel: @unchecked Sendable {
    /// What the writer takes next.
    enum Item {
        /// A batch, with its group runs when its table is grouped (see ``GroupRun``).
        case batch(RecordBatch, runs: [GroupRun]?)
        /// The parser finished with this result; nothing follows.
        case end(Result<FeedSummary, any Error>)
    }

    let capacity: Int
    // All below only under `condition`.
    private let condition = NSCondition()
    private var batches: [(RecordBatch, [GroupRun]?)] = []
    private var end: Result<FeedSummary, any Error>?
    private var closed = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Hands a batch and its group runs to the writer, waiting while the channel is full.
    /// - Throws: `CancellationError` once the channel is closed.
    func put(_ batch: RecordBatch, runs: [GroupRun]?) throws {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity && !closed { condition.wait() }
        if closed { throw CancellationError() }
        batches.append((batch, runs))
        condition.broadcast()
    }

    /// Records the parser's result; the writer receives it after the last batch.
    func finish(_ result: Result<FeedSummary, any Error>) {
        condition.lock()
        defer { condition.unlock() }
        end = result
        condition.broadcast()
    }

    /// Stops the hand-off: a waiting or later ``put(_:)`` throws, ``next()`` returns `nil`.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
    }

    /// The next batch, or the parser's result after the last one; `nil` once closed.
    func next() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && end == nil && !closed { condition.wait() }
        if closed { return nil }
        if !batches.isEmpty {
            condition.broadcast()
            let (batch, runs) = batches.removeFirst()
            return .batch(batch, runs: runs)
        }
        return end.map { .end($0) }
    }
}
