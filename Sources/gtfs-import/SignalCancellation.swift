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
    /// Runs `operation` to its end, SIGINT and SIGTERM cancelling it.
    /// - Returns: its outcome, and the signal that cancelled it, if one did.
    static func run(_ operation: ImportOperation) -> (result: Result<ImportSummary, ImportError>, signal: Received?) {
        let signals = SignalCancellation { operation.cancel() }
        OperationQueue().addOperations([operation], waitUntilFinished: true)
        return (operation.finalResult, signals.received)
    }
}
