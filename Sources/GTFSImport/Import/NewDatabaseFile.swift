import Foundation
import GRDB
import Synchronization
import Platform

/// A store that does not exist yet, built whole under a temporary name next to its path and moved into
/// place when the import has committed.
///
/// A first import has no earlier content to keep and no reader to serve, so it need not pay for WAL:
/// the temporary file is written once, with an in-memory rollback journal (a new file's pages have no
/// earlier content to journal), no fsync until the end and an exclusive lock. At the end it is switched
/// to WAL mode, flushed to disk and linked to its path only if that path is still free.
///
/// Until then the path holds nothing: a failed, cancelled or killed import (even `kill -9` or a power
/// loss) never leaves a partial store there. The temporary file is named `PATH.importing-XXXXXXXX` and
/// locked with `flock` while its import runs, so a later import into the same path can tell a leftover
/// of a killed import (unlocked; deleted) from an import still running (locked; kept).
final class NewDatabaseFile: Sendable {
    /// Where the store goes.
    let path: String
    /// Where it is built.
    let temporaryPath: String
    /// The connection that builds it.
    let queue: DatabaseQueue
    /// An open descriptor of the temporary file, holding its `flock` until the file is placed or discarded
    /// (then -1, so it is closed once).
    private let lock: Mutex<Int32>

    /// The suffix that marks a store being built, before its random part.
    static let marker = ".importing-"

    /// Creates the temporary file and its schema, when nothing exists at `path`.
    ///
    /// - Parameter path: where the store goes.
    /// - Parameter replacing: whether the store replaces a file at `path` (see ``ReplacedDatabase``).
    /// - Returns: `nil` when `path` exists (or cannot be examined) and `replacing` is false: the import
    ///   then opens it as a store.
    /// - Throws: `DatabaseError` or ``ImportError/database(path:message:)`` when the temporary file cannot be
    ///   created next to `path` (a missing or read-only directory).
    static func begin(at path: String, replacing: Bool = false) throws -> NewDatabaseFile? {
        guard replacing || isFree(path) else { return nil }
        var temporaryPath = ""
        var descriptor: Int32 = -1
        for _ in 0 ..< 8 where descriptor < 0 {
            temporaryPath = path + marker + String(UInt32.random(in: 0 ... .max), radix: 16)
            descriptor = open(temporaryPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor < 0 && errno != EEXIST { break }
        }
        guard descriptor >= 0 else {
            let code = errno
            throw systemError(path, "cannot create a file in \(directory(of: path))", code)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let error = systemError(path, "cannot lock \(temporaryPath)", code)
            close(descriptor)
            unlink(temporaryPath)
            throw error
        }
        var configuration = GTFSStore.defaultConfiguration()
        configuration.label = "GTFSStore.new"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = \(GTFSStore.pageSize)")
            try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
            try db.execute(sql: "PRAGMA journal_mode = MEMORY")
            try db.execute(sql: "PRAGMA synchronous = OFF")
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: temporaryPath, configuration: configuration)
        } catch {
            unlink(temporaryPath)
            close(descriptor)
            throw error
        }
        let file = NewDatabaseFile(path: path, temporaryPath: temporaryPath, queue: queue, lock: descriptor)
        do {
            try GTFSSchema.migrator.migrate(queue)
        } catch {
            file.discard()
            throw error
        }
        return file
    }

    private init(path: String, temporaryPath: String, queue: DatabaseQueue, lock: Int32) {
        self.path = path
        self.temporaryPath = temporaryPath
        self.queue = queue
        self.lock = Mutex(lock)
    }

    /// Turns the committed store into a WAL database, flushes it to disk and gives it its path.
    ///
    /// - Throws: ``ImportError/database(path:message:)`` when another process created `path` meanwhile
    ///   (that file is left alone), or when a step fails. The path then holds nothing new; the caller
    ///   discards the temporary file with ``discard()``.
    func install() throws {
        try prepare()
        try place(replacing: false)
    }

    /// Turns the committed store into a WAL database, closes it and flushes it to disk: what ``place(replacing:)``
    /// then names is complete.
    /// - Throws: ``ImportError/database(path:message:)`` when a step fails.
    func prepare() throws {
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode == "wal" else {
                throw ImportError.database(path: path, message: "SQLite kept journal mode \(mode ?? "?") instead of WAL")
            }
        }
        try queue.close()
        // The errno of a failed fsync, read inside the lock, before unlocking can touch it.
        let flushError = lock.withLock { fsync($0) == 0 ? 0 : errno }
        guard flushError == 0 else { throw Self.systemError(path, "cannot flush \(temporaryPath) to disk", flushError) }
    }

    /// Gives the prepared file the owner, group and permissions of `status` (the file it replaces).
    /// - Returns: whether it could (changing the owner needs to be that owner, or root).
    func takeOwnership(of status: stat) -> Bool {
        lock.withLock { descriptor in
            fchown(descriptor, status.st_uid, status.st_gid) == 0 && fchmod(descriptor, status.st_mode & 0o7777) == 0
        }
    }

    /// Gives the prepared file its path: a free one, or the file it replaces (whose exclusive lock the
    /// caller holds).
    /// - Throws: ``ImportError/database(path:message:)`` when another process created `path` meanwhile
    ///   (not replacing: that file is left alone), or when the rename fails.
    func place(replacing: Bool) throws {
        if replacing {
            guard rename(temporaryPath, path) == 0 else {
                let code = errno
                throw Self.systemError(path, "cannot rename \(temporaryPath) to \(path)", code)
            }
        } else {
            try link()
        }
        syncDirectory()
        releaseLock()
    }

    /// Closes the connection and deletes the temporary file; safe to call more than once.
    func discard() {
        // A connection that cannot close (a statement still running) goes away with the file anyway.
        try? queue.close()
        for suffix in Self.siblingSuffixes { unlink(temporaryPath + suffix) }
        releaseLock()
    }

    /// Closes the descriptor that holds the `flock`, once.
    private func releaseLock() {
        lock.withLock { descriptor in
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    /// The file and the files SQLite may keep next to it.
    private static let siblingSuffixes = ["", "-journal", "-wal", "-shm"]

    /// Deletes the stores a killed import left being built for `path`: those no running import locks.
    ///
    /// Best effort: a leftover that cannot be examined or deleted stays as it was.
    static func removeLeftovers(of path: String) {
        let folder = directory(of: path)
        let prefix = URL(fileURLWithPath: path).lastPathComponent + marker
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) && !siblingSuffixes.dropFirst().contains(where: name.hasSuffix) {
            let leftover = folder + "/" + name
            let descriptor = open(leftover, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                for suffix in siblingSuffixes { unlink(leftover + suffix) }
            }
            close(descriptor)
        }
    }

    // MARK: - Placing the file

    /// Gives the temporary file its final name, unless that name exists by now.
    private func link() throws {
        if System.link(temporaryPath, path) == 0 {
            unlink(temporaryPath)
            return
        }
        let code = errno
        let taken = ImportError.database(
            path: path, message: "another process created \(path) during the import; nothing was written, run the import again")
        switch code {
        case EEXIST:
            throw taken
        case EPERM, EOPNOTSUPP, EMLINK:
            // A file system without hard links: check, then rename (a race with a creator is then possible).
            guard Self.isFree(path) else { throw taken }
            guard rename(temporaryPath, path) == 0 else {
                let code = errno
                throw Self.systemError(path, "cannot rename \(temporaryPath) to \(path)", code)
            }
        default:
            throw Self.systemError(path, "cannot link \(temporaryPath) to \(path)", code)
        }
    }

    /// Flushes the directory entry of the new name (best effort: the file itself is already on disk).
    private func syncDirectory() {
        let descriptor = open(Self.directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    // MARK: - Helpers

    /// Whether nothing exists at `path` (not even a dangling symbolic link).
    private static func isFree(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) != 0 && errno == ENOENT
    }

    /// The directory that holds `path`.
    private static func directory(of path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// An error about the store at `path` that names the failed step and the system's reason.
    /// - Parameter code: the `errno` of the failed call, read before anything else can change it.
    private static func systemError(_ path: String, _ what: String, _ code: Int32) -> ImportError {
        .database(path: path, message: "\(what): \(System.message(forErrno: code))")
    }
}
