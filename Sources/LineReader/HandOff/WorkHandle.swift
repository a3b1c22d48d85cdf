import Dispatch
import Synchronization

/// A running piece of background work that delivers what it produces on a queue (a line enumeration, a
/// feed parse): cancel it, or wait for its end.
///
/// ```swift
/// let handle = try Reader(path: "stops.txt").enumerateLines(on: .main) { line in … } completion: { _ in }
/// handle.cancel()   // when the user taps "Stop"
/// ```
public final class WorkHandle: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let stop: @Sendable () -> Void
    private let pending: @Sendable () -> Int

    /// - Parameters:
    ///   - stop: stops the work (closes its hand-off); called once, by the first ``cancel()``.
    ///   - pending: the items produced and not yet delivered.
    package init(stop: @escaping @Sendable () -> Void, pending: @escaping @Sendable () -> Int) {
        self.stop = stop
        self.pending = pending
    }

    /// Whether ``cancel()`` was called (or the work ended because its consumer threw).
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Items produced and not yet delivered (chunks of a line enumeration, batches of a parse): never more
    /// than the bound the work was started with.
    public var itemsInFlight: Int { pending() }

    /// Stops the work promptly: nothing is delivered after what is being delivered, producing stops, and
    /// the completion receives `CancellationError`.
    public func cancel() {
        if !cancelled.exchange(true, ordering: .acquiringAndReleasing) { stop() }
    }

    /// Blocks until the completion handler has returned. Never call it on the delivery queue.
    public func wait() {
        done.wait()
        done.signal()
    }

    /// Marks the completion handler as returned.
    package func markDone() { done.signal() }
}
