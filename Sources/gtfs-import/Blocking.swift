import Dispatch
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
}

/// A task's result, set once inside it and read after it.
private final class Outcome<T: Sendable>: Sendable {
    let value = Mutex<Result<T, any Error>?>(nil)
}
