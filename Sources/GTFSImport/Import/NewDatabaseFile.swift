import Foundation
import GRDB
import GRDBSQLite
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
/// loss) never leaves a partial store there. The temporary file is named `PATH.importing-XXXXXXXX`; its
/// lock file `PATH.importing-XXXXXXXX-lock`, created first, is held with `flock` while the import runs, so
/// a later import into the same path can tell a leftover of a killed import (unlocked; deleted) from an
/// import still running (locked; kept). The lock is not on the store itself because Darwin's `flock` and
/// SQLite's `fcntl` locks on one file exclude each other (Linux keeps them apart).
final class NewDatabaseFile: Sendable {
    /// Where the store goes.
    let path: String
    /// Where it is built.
    let temporaryPath: String
    /// The connection that builds it.
    let queue: DatabaseQueue
    /// Open descriptors of the temporary file (to flush it and set its owner) and of its lock file, which
    /// holds the `flock`, until the file is placed or discarded (then -1, so each is closed once).
    private let descriptors: Mutex<(file: Int32, lock: Int32)>

    /// The suffix that marks a store being built, before its random part.
    static let marker = ".importing-"
    /// The suffix of a store's lock file, after its name.
    static let lockSuffix = "-lock"

    /// Creates the temporary file and its schema, when nothing exists at `path`.
    ///
    /// - Parameter path: where the store goes.
    /// - Parameter replacing: whether the store replaces a file at `path` (see ``ReplacedDatabase``).
    /// - Returns: `nil` when `path` exists (or cannot be examined) and `replacing` is false: the import
    ///   then opens it as a store.
    /// - Throws: `DatabaseError` or `ImportError.database(path:message:code:)` when the temporary file cannot be
    ///   created next to `path` (a missing or read-only directory).
    static func begin(at path: String, replacing: Bool = false) throws -> NewDatabaseFile? {
        guard replacing || isFree(path) else { return nil }
        var created: (path: String, file: Int32, lock: Int32)?
        for _ in 0 ..< 8 where created == nil {
            created = try createLocked(path + marker + String(UInt32.random(in: 0 ... .max), radix: 16), for: path)
        }
        guard let (temporaryPath, descriptor, lockDescriptor) = created else {
            throw systemError(path, "cannot create a file in \(directory(of: path))", EEXIST)
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
            unlink(temporaryPath + lockSuffix)
            close(lockDescriptor)
            throw error
        }
        let file = NewDatabaseFile(
            path: path, temporaryPath: temporaryPath, queue: queue, descriptors: (descriptor, lockDescriptor))
        do {
            try GTFSSchema.migrator.migrate(queue)
        } catch {
            file.discard()
            throw error
        }
        return file
    }

    /// Creates `temporaryPath`'s lock file and locks it, then the file itself.
    /// - Returns: the path and both descriptors, or `nil` when either name exists (try another).
    /// - Throws: `ImportError.database(path:message:code:)` when a file cannot be created or locked.
    private static func createLocked(_ temporaryPath: String, for path: String) throws -> (path: String, file: Int32, lock: Int32)? {
        let lockPath = temporaryPath + lockSuffix
        let lock = open(lockPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if lock < 0 {
            let code = errno
            if code == EEXIST { return nil }
            throw systemError(path, "cannot create a file in \(directory(of: path))", code)
        }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            unlink(lockPath)
            close(lock)
            throw systemError(path, "cannot lock \(lockPath)", code)
        }
        let file = open(temporaryPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if file < 0 {
            let code = errno
            unlink(lockPath)
            close(lock)
            if code == EEXIST { return nil }
            throw systemError(path, "cannot create a file in \(directory(of: path))", code)
        }
        return (temporaryPath, file, lock)
    }

    private init(path: String, temporaryPath: String, queue: DatabaseQueue, descriptors: (file: Int32, lock: Int32)) {
        self.path = path
        self.temporaryPath = temporaryPath
        self.queue = queue
        self.descriptors = Mutex(descriptors)
    }

    /// Turns the committed store into a WAL database, flushes it to disk and gives it its path.
    ///
    /// - Throws: `ImportError.database(path:message:code:)` when another process created `path` meanwhile
    ///   (that file is left alone), or when a step fails. The path then holds nothing new; the caller
    ///   discards the temporary file with ``discard()``.
    func install() throws {
        try prepare()
        try place(replacing: false)
    }

    /// Turns the committed store into a WAL database, closes it and flushes it to disk: what ``place(replacing:)``
    /// then names is complete.
    /// - Throws: `ImportError.database(path:message:code:)` when a step fails.
    func prepare() throws {
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode == "wal" else {
                throw ImportError.database(path: path, message: "SQLite kept journal mode \(mode ?? "?") instead of WAL")
            }
            // Apple's SQLite keeps an empty -wal file when the last connection closes; it would stay behind
            // under the temporary name.
            var persist: Int32 = 0
            _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        }
        try queue.close()
        let flushError = descriptors.withLock { System.flushToStorage($0.file) }
        guard flushError == 0 else { throw Self.systemError(path, "cannot flush \(temporaryPath) to disk", flushError) }
    }

    /// Gives the prepared file the owner, group and permissions of `status` (the file it replaces).
    /// - Returns: whether it could (changing the owner needs to be that owner, or root).
    func takeOwnership(of status: stat) -> Bool {
        descriptors.withLock { descriptors in
            fchown(descriptors.file, status.st_uid, status.st_gid) == 0 && fchmod(descriptors.file, status.st_mode & 0o7777) == 0
        }
    }

    /// Gives the prepared file its path: a free one, or the file it replaces (whose exclusive lock the
    /// caller holds).
    /// - Throws: `ImportError.database(path:message:code:)` when another process created `path` meanwhile
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

    /// Deletes the lock file and closes both descriptors, once. The lock file goes while still locked, so
    /// that no other import can take it for a leftover.
    private func releaseLock() {
        descriptors.withLock { descriptors in
            if descriptors.lock >= 0 { unlink(temporaryPath + Self.lockSuffix) }
            for descriptor in [descriptors.file, descriptors.lock] where descriptor >= 0 { close(descriptor) }
            descriptors = (-1, -1)
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
        // Each store being built once, by the name without the suffix of a file beside it.
        let suffixes = siblingSuffixes.dropFirst() + [lockSuffix]
        let stores = Set(names.filter { $0.hasPrefix(prefix) }.map { name in
            suffixes.first(where: name.hasSuffix).map { String(name.dropLast($0.count)) } ?? name
        })
        for name in stores {
            let leftover = folder + "/" + name
            // Its lock file decides; a store built by an earlier version has none and was locked itself.
            let lockPath = FileManager.default.fileExists(atPath: leftover + lockSuffix) ? leftover + lockSuffix : leftover
            // Read-only is enough for flock, and opens a leftover of another user's import too.
            let descriptor = open(lockPath, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                for suffix in siblingSuffixes + [lockSuffix] { unlink(leftover + suffix) }
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
        case EPERM, EOPNOTSUPP, ENOTSUP, EMLINK:  // ENOTSUP differs from EOPNOTSUPP on Darwin
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
        _ = System.flushToStorage(descriptor)
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
