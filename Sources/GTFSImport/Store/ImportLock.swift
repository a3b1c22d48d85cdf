import Foundation

import Platform

/// The lock that lets one import or removal at a time write a database, whichever process runs it: an
/// exclusive `flock` on `DATABASE.lock`, a file next to the database that exists only while it is held.
///
/// SQLite alone would let a second writer wait at most its busy timeout and then fail, so whether a second
/// import succeeded depended on timing. With this lock the second import waits for the first and then runs
/// as if started after it.
///
/// The holder deletes the file before unlocking; a waiter that locked a file already deleted sees that its
/// descriptor no longer matches the path and tries again, so two holders never coexist.
final class ImportLock: Sendable {
    /// The lock file.
    let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// How often a waiting import tries the lock again, and checks for a cancel.
    static let pollInterval = Duration.milliseconds(20)

    /// Takes the lock of the database at `databasePath`, waiting while another import holds it.
    ///
    /// - Parameters:
    ///   - databasePath: the database (its symbolic links resolved: see ``DatabasePath``).
    ///   - wait: the longest wait; `nil` waits as long as it takes.
    ///   - onWait: called once, when the lock is held by another import.
    ///   - shouldContinue: polled while waiting; `false` ends the wait with `CancellationError`.
    /// - Throws: `ImportError.busy(path:)` when the wait runs out, `ImportError.database(path:message:code:)`
    ///   when the lock file cannot be created, `CancellationError`.
    static func acquire(
        for databasePath: String, wait: Duration?, onWait: () -> Void, shouldContinue: () -> Bool
    ) throws -> ImportLock {
        let path = databasePath + ".lock"
        let start = ContinuousClock.now
        var waited = false
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let code = errno
                throw ImportError.database(
                    path: databasePath, message: "cannot create a file in \(DatabasePath.folder(of: path)): \(System.message(forErrno: code))")
            }
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                guard code == EWOULDBLOCK || code == EINTR else {
                    close(descriptor)
                    throw ImportError.database(path: databasePath, message: "cannot lock \(path): \(System.message(forErrno: code))")
                }
                if let wait, ContinuousClock.now - start >= wait {
                    close(descriptor)
                    throw ImportError.busy(path: databasePath)
                }
                if !waited {
                    waited = true
                    onWait()
                }
                guard shouldContinue() else {
                    close(descriptor)
                    throw CancellationError()
                }
                Thread.sleep(forTimeInterval: pollInterval / .seconds(1))
            }
            // Locked: keep it if the file is still the one at the path (its holder deletes it before unlocking).
            var current = stat()
            if stat(path, &current) == 0, System.isSameFile(descriptor, current) {
                return ImportLock(path: path, descriptor: descriptor)
            }
            close(descriptor)
        }
    }

    /// Deletes the lock file and unlocks it.
    func release() {
        unlink(path)
        close(descriptor)
    }
}
