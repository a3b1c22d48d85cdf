import CLibpq
import Synchronization

/// Cancels what a ``PostgresStore`` is doing, from any thread: the import stops at its next batch, and the
/// statement the server is running (a COPY, a key or an index being built) is cancelled at once
/// (`PQcancel`), so the import's transaction rolls back.
public final class PostgresCancel: Sendable {
    /// Whether a cancel was asked for: apart from the handle, so that the import polling it never waits for
    /// a `PQcancel` that a server which does not answer holds up.
    private let requested = Atomic(false)
    /// libpq's handle to cancel the running statement (`nil` once the connection is closed).
    private let handle: Mutex<Handle?>

    /// libpq's cancel object, freed when the last user lets go: `PQcancel` may be called on it from any
    /// thread (libpq's documentation), and a `PQcancel` waiting for a server that does not answer keeps it
    /// alive without holding up the connection's close.
    private final class Handle: @unchecked Sendable {
        let pointer: OpaquePointer

        init?(_ connection: OpaquePointer) {
            guard let pointer = PQgetCancel(connection) else { return nil }
            self.pointer = pointer
        }

        deinit { PQfreeCancel(pointer) }
    }

    init(connection: OpaquePointer) {
        handle = Mutex(Handle(connection))
    }

    /// Cancels the import in progress, or the next one.
    ///
    /// It sends the server a cancel request and waits for its answer (`PQcancel`), which a server that
    /// does not answer never gives: call it from a thread that may wait.
    public func cancel() {
        requested.store(true, ordering: .sequentiallyConsistent)
        interrupt()
    }

    /// Cancels the statement the server is running now, without asking to cancel later imports (an import
    /// cancelled this way stops through its own flag). Waits for the server's answer, as ``cancel()`` does.
    func interrupt() {
        guard let current = handle.withLock({ $0 }) else { return }
        var message = [CChar](repeating: 0, count: 256)
        _ = PQcancel(current.pointer, &message, Int32(message.count))
    }

    /// Whether a cancel was asked for.
    public var isRequested: Bool { requested.load(ordering: .sequentiallyConsistent) }

    /// Forgets a cancel that has taken effect.
    func reset() { requested.store(false, ordering: .sequentiallyConsistent) }

    /// Takes the handle of `connection`'s new session (after `PQreset`).
    func replace(connection: OpaquePointer) {
        handle.withLock { $0 = Handle(connection) }
    }

    /// Lets go of libpq's handle; later cancels only set the flag.
    func release() {
        handle.withLock { $0 = nil }
    }
}
