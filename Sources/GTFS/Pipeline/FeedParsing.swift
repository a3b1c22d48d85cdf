public import Dispatch
import Synchronization

/// A running ``FeedParser/start(deliveringOn:maxBatchesInFlight:progress:consume:completion:)``.
public final class FeedParsing: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let inFlight = Atomic<Int>(0)

    /// Batches parsed and not yet consumed: never more than the `maxBatchesInFlight` given to `start`.
    public var batchesInFlight: Int { inFlight.load(ordering: .relaxed) }

    func batchQueued() { inFlight.add(1, ordering: .relaxed) }
    func batchConsumed() { inFlight.subtract(1, ordering: .relaxed) }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Stops the parse: no batch is delivered after the one in progress, and the completion
    /// receives `CancellationError`.
    public func cancel() { cancelled.store(true, ordering: .releasing) }

    /// Blocks until the completion handler has returned. Never call it on the delivery queue.
    public func wait() {
        done.wait()
        done.signal()
    }

    func markDone() { done.signal() }
}

extension FeedParser {
    /// Parses on a private serial queue and delivers batches serially on `queue`, with a bounded hand-off.
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
    ) -> FeedParsing {
        let handle = FeedParsing()
        let delivery = DispatchQueue(label: "GTFS.FeedParser.deliver", target: queue)
        let parsing = DispatchQueue(label: "GTFS.FeedParser.parse")
        let slots = DispatchSemaphore(value: max(1, maxBatchesInFlight))
        let consumerError = Mutex<(any Error)?>(nil)
        let parser = self
        parsing.async {
            let result = Result<FeedSummary, any Error> {
                try parser.parse(
                    shouldContinue: { !handle.isCancelled },
                    progress: { state in
                        guard let progress else { return }
                        delivery.async { if !handle.isCancelled { progress(state) } }
                    },
                    consume: { batch in
                        slots.wait()
                        handle.batchQueued()
                        delivery.async {
                            defer {
                                handle.batchConsumed()
                                slots.signal()
                            }
                            guard !handle.isCancelled else { return }
                            do {
                                try consume(batch)
                            } catch {
                                consumerError.withLock { $0 = $0 ?? error }
                                handle.cancel()
                            }
                        }
                    })
            }
            delivery.async {
                let final: Result<FeedSummary, any Error>
                if let error = consumerError.withLock({ $0 }) {
                    final = .failure(error)
                } else if handle.isCancelled {
                    final = .failure(CancellationError())
                } else {
                    final = result
                }
                completion(final)
                handle.markDone()
            }
        }
        return handle
    }

    /// Parses with `async`/`await`: parsing runs on its own serial queue, `consume` on a delivery
    /// queue; cancelling the task cancels the parse.
    ///
    /// - Parameters:
    ///   - maxBatchesInFlight: batches parsed ahead of the consumer.
    ///   - progress: called after each delivered batch.
    ///   - consume: receives each batch.
    /// - Returns: the feed summary.
    /// - Throws: what the parse throws, or `CancellationError`.
    public func parse(
        maxBatchesInFlight: Int = 4,
        progress: (@Sendable (FeedProgress) -> Void)? = nil,
        consume: @escaping @Sendable (RecordBatch) throws -> Void
    ) async throws -> FeedSummary {
        let box = Mutex<FeedParsing?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let handle = start(
                    deliveringOn: DispatchQueue(label: "GTFS.FeedParser.async"), maxBatchesInFlight: maxBatchesInFlight,
                    progress: progress, consume: consume
                ) { result in
                    continuation.resume(with: result)
                }
                box.withLock { $0 = handle }
                if Task.isCancelled { handle.cancel() }
            }
        } onCancel: {
            box.withLock { $0?.cancel() }
        }
    }
}
