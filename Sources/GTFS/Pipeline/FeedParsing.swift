public import Dispatch
public import LineReader
import Synchronization

extension FeedParser {
    /// Parses on a thread of its own and delivers batches serially on `queue`, at most
    /// `maxBatchesInFlight` ahead of the consumer: a thin adapter over ``batches(maxBatchesInFlight:progress:)``.
    ///
    /// - Parameters:
    ///   - queue: where `consume`, `progress` and `completion` run (serially).
    ///   - maxBatchesInFlight: batches parsed ahead of the consumer; parsing waits beyond that.
    ///   - progress: called after each delivered batch.
    ///   - consume: receives each batch; throwing stops the parse with that error.
    ///   - completion: called once with the summary or the error (`CancellationError` after cancel).
    /// - Returns: a handle to cancel or wait.
    @discardableResult
    public func start(
        deliveringOn queue: DispatchQueue,
        maxBatchesInFlight: Int = 4,
        progress: (@Sendable (FeedProgress) -> Void)? = nil,
        consume: @escaping @Sendable (RecordBatch) throws -> Void,
        completion: @escaping @Sendable (Result<FeedSummary, any Error>) -> Void
    ) -> WorkHandle {
        let delivery = DispatchQueue(label: "GTFS.FeedParser.deliver", target: queue)
        let latest = Mutex<FeedProgress?>(nil)
        let batches = self.batches(maxBatchesInFlight: maxBatchesInFlight) { state in latest.withLock { $0 = state } }
        let handle = WorkHandle(stop: { batches.cancel() }, pending: { batches.batchesInFlight })
        DispatchQueue(label: "GTFS.FeedParser.pump").async {
            // The consumer's own error ends the parse and is what the completion receives.
            let result = Result<FeedSummary, any Error> {
                while let batch = try batches.next() {
                    try delivery.sync {
                        // Nothing is delivered after a cancel, even a batch already taken.
                        guard !handle.isCancelled else { throw CancellationError() }
                        try consume(batch)
                        if let progress, let state = latest.withLock({ $0 }) { progress(state) }
                    }
                }
                return batches.summary ?? FeedSummary()
            }
            if case .failure = result { handle.cancel() }
            let final: Result<FeedSummary, any Error> =
                if case .failure(let error) = result, !(error is CancellationError) { result }
                else if handle.isCancelled { .failure(CancellationError()) } else { result }
            delivery.sync {
                completion(final)
                handle.markDone()
            }
        }
        return handle
    }

    /// Parses with `async`/`await`: parsing runs on its own thread, `consume` on the calling task;
    /// cancelling the task cancels the parse.
    ///
    /// - Parameters:
    ///   - maxBatchesInFlight: batches parsed ahead of the consumer.
    ///   - progress: called after each batch.
    ///   - consume: receives each batch.
    /// - Returns: the feed summary.
    /// - Throws: what the parse or `consume` throws, or `CancellationError`.
    public func parse(
        maxBatchesInFlight: Int = 4,
        progress: (@Sendable (FeedProgress) -> Void)? = nil,
        consume: @escaping @Sendable (RecordBatch) throws -> Void
    ) async throws -> FeedSummary {
        let batches = self.batches(maxBatchesInFlight: maxBatchesInFlight, progress: progress)
        do {
            for try await batch in batches { try consume(batch) }
        } catch {
            batches.cancel()
            throw error
        }
        return batches.summary ?? FeedSummary()
    }
}
