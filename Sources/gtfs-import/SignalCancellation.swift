import Dispatch
import Foundation
import GTFSImport
import Synchronization

import Platform

/// Turns SIGINT (Ctrl-C) and SIGTERM into a call to `cancel`, and remembers which signal came first.
final class SignalCancellation: @unchecked Sendable {
    /// A signal that cancels the import.
    struct Received: Sendable {
        let number: Int32

        /// `SIGINT` or `SIGTERM`.
        var name: String { number == SIGINT ? "SIGINT" : "SIGTERM" }
        /// 128 + the signal number: 130 for SIGINT, 143 for SIGTERM.
        var exitStatus: Int32 { 128 + number }
    }

    /// The first signal's number, 0 before any.
    private final class First: Sendable {
        let number = Atomic<Int32>(0)
    }

    private let first = First()
    /// Kept alive for the process; never changed after `init`.
    private let sources: [any DispatchSourceSignal]

    /// Starts listening; the signals' default action (ending the process at once) is turned off.
    init(cancel: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "gtfs-import.signals")
        var sources: [any DispatchSourceSignal] = []
        let first = self.first
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                _ = first.number.compareExchange(expected: 0, desired: number, ordering: .relaxed)
                cancel()
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// The first signal received, if any.
    var received: Received? {
        let number = first.number.load(ordering: .relaxed)
        return number == 0 ? nil : Received(number: number)
    }
}

extension SignalCancellation {
    /// Starts listening: a signal calls `cancel`, and when `giveUpAfter` is given and the work has not
    /// finished by then, `givingUp` says so and the process ends with the signal's status.
    /// - Parameters:
    ///   - giveUpAfter: how long after a signal the process may wait for the cancelled work to end
    ///     (`nil`: as long as it takes). A server that does not answer the cancel (stopped, or its host
    ///     gone) could otherwise hold the process for ever.
    ///   - isFinished: whether the work has ended.
    ///   - givingUp: the last words before the process ends so.
    static func watching(
        giveUpAfter: Duration?, isFinished: @escaping @Sendable () -> Bool, givingUp: @escaping @Sendable (Received) -> Void,
        cancel: @escaping @Sendable () -> Void
    ) -> SignalCancellation {
        let signals = Mutex<SignalCancellation?>(nil)
        let handler = SignalCancellation {
            if let giveUpAfter {
                // Scheduled before the cancel, which may itself wait for the server.
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(giveUpAfter / .milliseconds(1)))) {
                    guard !isFinished(), let received = signals.withLock({ $0?.received }) else { return }
                    givingUp(received)
                    System.exit(received.exitStatus)
                }
            }
            cancel()
        }
        signals.withLock { $0 = handler }
        return handler
    }

    /// Runs `operation` to its end, SIGINT and SIGTERM cancelling it (see
    /// ``watching(giveUpAfter:isFinished:givingUp:cancel:)``).
    /// - Returns: its outcome, and the signal that cancelled it, if one did.
    static func run(
        _ operation: ImportOperation, giveUpAfter: Duration? = nil, givingUp: @escaping @Sendable (Received) -> Void = { _ in }
    ) -> (result: Result<ImportSummary, ImportError>, signal: Received?) {
        let handler = watching(giveUpAfter: giveUpAfter, isFinished: { operation.isFinished }, givingUp: givingUp) { operation.cancel() }
        OperationQueue().addOperations([operation], waitUntilFinished: true)
        return (operation.finalResult, handler.received)
    }
}
