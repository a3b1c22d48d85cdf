package import Dispatch
package import Foundation
import Synchronization

/// Where an import offers its progress (``FeedStore/makeImport(from:options:reporter:)``): it decides when a
/// report goes out and hands it to the caller's queue without flooding it.
///
/// A report goes out at a phase change, and while loading at most once per 1% of the input and at most
/// every 50 ms (every interval only, when the size is unknown). At most one report waits on the caller's
/// queue: a newer one replaces it, so a slow receiver never piles up blocks, nor a cancel behind them.
public final class ProgressReporter: Sendable {
    /// Fraction of the input between two reports while loading.
    static let minimumFraction = 0.01
    /// Time between two reports.
    static let minimumInterval = Duration.milliseconds(50)

    private struct State {
        var lastSent: ContinuousClock.Instant?
        var lastFraction = -1.0
        var lastPhase: ImportProgress.Phase?
        var waiting: ImportProgress?
    }

    private let queue: DispatchQueue
    private let handler: (@Sendable (ImportProgress) -> Void)?
    private let foundationProgress: Progress
    private let state = Mutex(State())
    private let sentCount = Atomic<Int>(0)

    /// - Parameters:
    ///   - queue: where the handler runs.
    ///   - handler: receives the reports; `nil` to update only the Foundation progress.
    ///   - progress: the Foundation `Progress` kept in step (units: input bytes).
    package init(queue: DispatchQueue, handler: (@Sendable (ImportProgress) -> Void)?, progress: Progress) {
        self.queue = queue
        self.handler = handler
        self.foundationProgress = progress
    }

    /// Reports handed to the handler's queue so far.
    package var reportsSent: Int { sentCount.load(ordering: .relaxed) }

    /// Offers a snapshot; it goes out only when the rules above allow. Cheap enough to call per batch.
    ///
    /// - Parameter progress: the snapshot.
    package func offer(_ progress: ImportProgress) {
        let send = state.withLock { state -> Bool in
            let now = ContinuousClock.now
            if state.lastPhase == progress.phase, progress.phase != .finished {
                if let last = state.lastSent, now - last < Self.minimumInterval { return false }
                if let fraction = progress.fractionCompleted, fraction - state.lastFraction < Self.minimumFraction { return false }
            }
            state.lastSent = now
            state.lastPhase = progress.phase
            state.lastFraction = progress.fractionCompleted ?? state.lastFraction
            let alreadyWaiting = state.waiting != nil
            state.waiting = progress
            return !alreadyWaiting
        }
        guard send else { return }
        sentCount.add(1, ordering: .relaxed)
        queue.async { [self] in
            guard let latest = state.withLock({ state -> ImportProgress? in
                defer { state.waiting = nil }
                return state.waiting
            }) else { return }
            if let total = latest.totalBytes {
                foundationProgress.totalUnitCount = total
                foundationProgress.completedUnitCount = latest.phase == .finished ? total : min(total, latest.bytesRead)
            } else {
                foundationProgress.completedUnitCount = latest.bytesRead
            }
            handler?(latest)
        }
    }
}
