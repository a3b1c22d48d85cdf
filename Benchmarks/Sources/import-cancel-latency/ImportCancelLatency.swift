import Dispatch
import Foundation
import GTFS
import GTFSImport
import Synchronization

/// Measures how long an import takes to end after `cancel()`, in each phase, on a large input:
/// `import-cancel-latency FEED DB_DIRECTORY`. For each phase it starts a fresh import into a new database,
/// cancels it once the phase has run for a while (loading: 1 s in; building indexes and checking
/// references: 150 ms in), and prints the time from `cancel()` to the operation's end.
@main
struct ImportCancelLatency {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 else {
            print("usage: import-cancel-latency FEED DB_DIRECTORY")
            exit(2)
        }
        let source = try FeedSource(path: arguments[1])
        for (phase, delay) in [(ImportProgress.Phase.loading, 1.0), (.buildingIndexes, 0.15), (.checkingReferences, 0.15)] {
            let path = arguments[2] + "/cancel-\(phase.rawValue).sqlite"
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.removeItem(atPath: path + suffix)
            }
            let store = try GTFSStore(path: path)
            let cancelledAt = Mutex<ContinuousClock.Instant?>(nil)
            let scheduled = Atomic<Bool>(false)
            let box = Mutex<ImportOperation?>(nil)
            let operation = ImportOperation(source: source, store: store, progressQueue: DispatchQueue(label: "progress")) { progress in
                guard progress.phase == phase, !scheduled.exchange(true, ordering: .relaxed) else { return }
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                    cancelledAt.withLock { $0 = .now }
                    box.withLock { $0 }?.cancel()
                }
            }
            box.withLock { $0 = operation }
            operation.start()
            let finishedAt = ContinuousClock.now
            let outcome: String
            switch operation.result {
            case .failure(let error)? where error.isCancellation: outcome = "cancelled"
            case .failure(let error)?: outcome = "failed: \(error)"
            case .success?: outcome = "completed before the cancel"
            case nil: outcome = "no result"
            }
            if let start = cancelledAt.withLock({ $0 }) {
                let ms = (finishedAt - start) / .milliseconds(1)
                print("\(phase.rawValue): \(outcome), cancel() to end \(String(format: "%.1f", ms)) ms")
            } else {
                print("\(phase.rawValue): \(outcome), never cancelled")
            }
            try store.close()
        }
    }
}
