import CLibpq
import Synchronization

/// Cancels what a ``PostgresStore`` is doing, from any thread: the import stops at its next batch, and the
/// statement the server is running (a COPY, a key or an index being built) is cancelled at once
/// (`PQcancel`), so the import's transaction rolls back.
public final class PostgresCancel: Sendable {
    /// Whether a cancel was asked for, and libpq's handle to cancel the running statement (`nil` once the
    /// connection is closed).
    private let state: Mutex<(requested: Bool, handle: Handle)>

    /// libpq's cancel object: `PQcancel` may be called on it from any thread (libpq's documentation), and
    /// the mutex keeps it from being freed meanwhile.
    private struct Handle: @unchecked Sendable {
        var pointer: OpaquePointer?
    }

    init(connection: OpaquePointer) {
        state = Mutex((false, Handle(pointer: PQgetCancel(connection))))
    }

    /// Cancels the import in progress, or the next one.
    public func cancel() {
        state.withLock { state in
            state.requested = true
            guard let handle = state.handle.pointer else { return }
            var message = [CChar](repeating: 0, count: 256)
            _ = PQcancel(handle, &message, Int32(message.count))
        }
    }

    /// Whether a cancel was asked for.
    public var isRequested: Bool { state.withLock { $0.requested } }

    /// Forgets a cancel that has taken effect.
    func reset() { state.withLock { $0.requested = false } }

    /// Takes the handle of `connection`'s new session (after `PQreset`).
    func replace(connection: OpaquePointer) {
        state.withLock { state in
            if let handle = state.handle.pointer { PQfreeCancel(handle) }
            state.handle.pointer = PQgetCancel(connection)
        }
    }

    /// Frees libpq's handle; later cancels only set the flag.
    func release() {
        state.withLock { state in
            if let handle = state.handle.pointer { PQfreeCancel(handle) }
            state.handle.pointer = nil
        }
    }
}
