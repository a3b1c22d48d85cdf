import Foundation
package import GTFS
import Synchronization

/// The content hashes of the files an incremental import assumed unchanged because their zip entry's
/// CRC-32 equals the stored one, computed on a thread of their own while the import parses and writes
/// the other files.
///
/// Hashing an unchanged file costs as much as inflating it (shapes.txt is most of a feed's bytes), and
/// the parser's core has time to spare while the writer applies a diff. A CRC-32 match is not proof,
/// though: the import must not commit, nor report a change, before every hash matched (``confirmed()``).
/// A mismatch, which takes a file with the stored CRC-32 but other content, ends the attempt with
/// ``ImportPlan/Outdated``, and the import starts again with every such file hashed first.
package final class HashConfirmation: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var finished = false
    private var matched = false
    private var elapsed: Duration = .zero
    /// Polled once per line of the files being hashed: an atomic, not the condition's lock.
    private let abandoned = Atomic<Bool>(false)

    /// Starts hashing `entries`, each against the hash the store holds for it.
    /// - Parameter isCancelled: polled while hashing, as the import's cancel.
    package init(_ entries: [(entry: FeedEntry, hash: String)], options: ParseOptions, isCancelled: @escaping @Sendable () -> Bool) {
        let thread = Thread { [self] in
            let clock = ContinuousClock()
            let start = clock.now
            var matches = true
            for (entry, hash) in entries where matches {
                do {
                    let found = try entry.contentHash(chunkSize: options.chunkSize, maxLineLength: options.maxLineLength) {
                        !self.abandoned.load(ordering: .relaxed) && !isCancelled()
                    }
                    matches = found == hash
                } catch {
                    // Unreadable or cancelled: not confirmed. The exact plan hashes it again and reports the error.
                    matches = false
                }
            }
            condition.lock()
            finished = true
            matched = matches
            elapsed = clock.now - start
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "gtfs-import hashing"
        thread.start()
    }

    /// Waits for the hashes.
    /// - Returns: whether every file has the stored content.
    package func confirmed() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !finished { condition.wait() }
        return matched
    }

    /// How long the hashing took (once ``confirmed()`` returned).
    package var duration: Duration {
        condition.lock()
        defer { condition.unlock() }
        return elapsed
    }

    /// Stops the hashing at its next line and waits for its thread to end.
    package func finish() {
        abandoned.store(true, ordering: .relaxed)
        _ = confirmed()
    }
}
