import Dispatch
import Synchronization

/// The bounded hand-off between a producing thread and a consumer: the producer waits while `capacity`
/// items wait, the consumer waits while none does, and ``close()`` wakes both at once.
///
/// The one hand-off of the package: a line enumeration passes chunks through it, a feed parse passes
/// batches through it to an importer, a queue or a task. The consumer pulls, blocking
/// (``next()``) or suspending (``nextAsync()``); after the last item it gets the end with the producer's
/// result.
///
/// ```swift
/// let channel = BoundedChannel<Int, Int>(capacity: 4)
/// Thread { for i in 0 ..< 100 { try? channel.send(i) }; channel.finish(.success(100)) }.start()
/// while case .item(let i) = channel.next() { print(i) }
/// ```
package final class BoundedChannel<Item: Sendable, End: Sendable>: Sendable {
    /// What the consumer takes next.
    package enum Taken: Sendable {
        /// An item.
        case item(Item)
        /// The producer finished with this result; nothing follows.
        case end(Result<End, any Error>)
        /// The channel was closed (cancelled) before the end.
        case closed
    }

    private struct State {
        /// The items waiting, oldest first: at most `capacity`, so taking the first is cheap.
        var items: [Item] = []
        var end: Result<End, any Error>?
        var closed = false
        /// Consumers suspended in ``nextAsync()``, first come first served.
        var waitingConsumers: [CheckedContinuation<Taken, Never>] = []

        var count: Int { items.count }

        mutating func takeItem() -> Item? {
            items.isEmpty ? nil : items.removeFirst()
        }

        /// What a consumer can take now, or `nil` when it must wait.
        mutating func take() -> Taken? {
            if closed { return .closed }
            if let item = takeItem() { return .item(item) }
            return end.map { .end($0) }
        }
    }

    /// The most items waiting for the consumer.
    package let capacity: Int
    private let state: Mutex<State>
    /// Wakes blocked producers and consumers (``send(_:)`` and ``next()``).
    private let condition = Condition()

    /// A channel holding at most `capacity` items (at least 1).
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
        state = Mutex(State())
    }

    /// Items sent and not yet taken.
    package var count: Int { state.withLock { $0.count } }

    /// Whether ``close()`` was called.
    package var isClosed: Bool { state.withLock { $0.closed } }

    /// Hands an item to the consumer, waiting while the channel is full.
    /// - Throws: `CancellationError` once the channel is closed.
    package func send(_ item: Item) throws {
        try condition.wait {
            // Resuming under the lock: a `close()` that follows cannot overtake the item on its way.
            let outcome: (sent: Bool, closed: Bool) = state.withLock { state in
                if state.closed { return (false, true) }
                if !state.waitingConsumers.isEmpty {
                    state.waitingConsumers.removeFirst().resume(returning: .item(item))
                    return (true, false)
                }
                guard state.count < capacity else { return (false, false) }
                state.items.append(item)
                return (true, false)
            }
            if outcome.closed { throw CancellationError() }
            return outcome.sent
        }
        condition.broadcast()
    }

    /// Records the producer's result; the consumer receives it after the last item.
    package func finish(_ result: Result<End, any Error>) {
        state.withLock { state in
            guard state.end == nil else { return }
            state.end = result
            guard state.count == 0, !state.closed else { return }
            for consumer in state.waitingConsumers { consumer.resume(returning: .end(result)) }
            state.waitingConsumers.removeAll()
        }
        condition.broadcast()
    }

    /// Stops the hand-off: a waiting or later ``send(_:)`` throws, the consumer takes ``Taken/closed``, and
    /// the items still waiting are released at once (a closed channel may be kept long after).
    package func close() {
        // The items are returned to be released outside the lock: an item's deinit may do work of its own.
        _ = state.withLock { state -> [Item] in
            state.closed = true
            for consumer in state.waitingConsumers { consumer.resume(returning: .closed) }
            state.waitingConsumers.removeAll()
            defer { state.items = [] }
            return state.items
        }
        condition.broadcast()
    }

    /// The next item, or the end, blocking the calling thread while there is neither.
    package func next() -> Taken {
        var taken: Taken = .closed
        condition.wait {
            guard let next = state.withLock({ $0.take() }) else { return false }
            taken = next
            return true
        }
        condition.broadcast()
        return taken
    }

    /// The next item, or the end, suspending the calling task while there is neither. Several tasks may
    /// wait; each item goes to one of them, the end and ``close()`` to all.
    package func nextAsync() async -> Taken {
        let taken = await withCheckedContinuation { (continuation: CheckedContinuation<Taken, Never>) in
            state.withLock { state in
                if let next = state.take() {
                    continuation.resume(returning: next)
                } else {
                    state.waitingConsumers.append(continuation)
                }
            }
        }
        condition.broadcast()
        return taken
    }
}

/// A condition variable for ``BoundedChannel``: waiters re-check their predicate after every broadcast.
private final class Condition: Sendable {
    private struct Waiters {
        var generation = 0
        var sleeping: [DispatchSemaphore] = []
    }

    private let waiters = Mutex(Waiters())

    /// Calls `attempt` until it returns `true`, sleeping between tries until a broadcast.
    func wait(_ attempt: () throws -> Bool) rethrows {
        while true {
            let seen = waiters.withLock { $0.generation }
            if try attempt() { return }
            let semaphore = DispatchSemaphore(value: 0)
            let sleeps = waiters.withLock { waiters in
                // A broadcast since `seen` means the state changed: try again at once.
                guard waiters.generation == seen else { return false }
                waiters.sleeping.append(semaphore)
                return true
            }
            if sleeps { semaphore.wait() }
        }
    }

    /// Wakes every waiter, which then re-checks its predicate.
    func broadcast() {
        let sleeping = waiters.withLock { waiters in
            waiters.generation &+= 1
            defer { waiters.sleeping.removeAll() }
            return waiters.sleeping
        }
        for semaphore in sleeping { semaphore.signal() }
    }
}
