import Dispatch
import GTFSFetch
import Synchronization

/// Runs async work from the tools' synchronous commands.
enum Blocking {
    /// Runs `body` in a task and waits for it; `started` receives the task (to cancel it from a signal).
    static func run<T: Sendable>(
        started: (Task<T, any Error>) -> Void = { _ in }, _ body: @escaping @Sendable () async throws -> T
    ) -> Result<T, any Error> {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome<T>()
        let task = Task<T, any Error> {
            defer { done.signal() }
            do {
                let value = try await body()
                outcome.value.withLock { $0 = .success(value) }
                return value
            } catch {
                outcome.value.withLock { $0 = .failure(error) }
                throw error
            }
        }
        started(task)
        done.wait()
        return outcome.value.withLock { $0! }
    }

    /// Runs `body` as ``run(started:_:)`` does, SIGINT and SIGTERM cancelling its task (also one that came
    /// before the task existed). When `giveUpAfter` passes after a signal and the task has not ended, the
    /// downloads in progress are deleted, `givingUp` says why, and the process ends with the signal's status
    /// (see `SignalCancellation.watching`).
    /// - Returns: its outcome, and the signal that cancelled it, if one did.
    static func runCancellable<T: Sendable>(
        giveUpAfter: Duration?, givingUp: @escaping @Sendable (SignalCancellation.Received) -> Void,
        _ body: @escaping @Sendable () async throws -> T
    ) -> (Result<T, any Error>, SignalCancellation.Received?) {
        let tasks = Locked<Task<T, any Error>?>(nil)
        let finished = Locked(false)
        let signals = SignalCancellation.watching(
            giveUpAfter: giveUpAfter, isFinished: { finished.withLock { $0 } },
            givingUp: { signal in
                FeedFetcher.removeDownloadsInProgress()
                givingUp(signal)
            }, cancel: { tasks.withLock { $0?.cancel() } })
        let result = run(
            started: { task in
                tasks.withLock { $0 = task }
                if signals.received != nil { task.cancel() }
            }, body)
        finished.withLock { $0 = true }
        return (result, signals.received)
    }
}

/// A task's result, set once inside it and read after it.
private final class Outcome<T: Sendable>: Sendable {
    let value = Mutex<Result<T, any Error>?>(nil)
}
