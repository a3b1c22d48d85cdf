public import Foundation
public import GTFS

/// Why an import did not complete. In the default atomic mode the database is then exactly as it was.
public enum ImportError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The feed cannot be imported: a file cannot be read (a missing file, a corrupt gzip or zip), a
    /// header lacks a required column, the input holds no GTFS file, or — in strict mode — a row is bad.
    case invalidFeed(GTFSError)
    /// The database file cannot be used: it is not a GTFS database, or a newer schema wrote it.
    case store(StoreError)
    /// The database failed: SQLite while writing (a full disk, a read-only file), or a step on its file
    /// (creating, locking or placing it).
    ///
    /// ```swift
    /// if error.resultCode == .SQLITE_FULL { /* free some space */ }   // GTFSImport's resultCode
    /// ```
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - message: the explanation, e.g. `database or disk is full`.
    ///   - code: the store's own error code when the store failed: SQLite's extended result code
    ///     (`SQLITE_FULL`, `SQLITE_READONLY`, `SQLITE_IOERR_WRITE`, …); `nil` for a step on the file.
    case database(path: String, message: String, code: Int32? = nil)
    /// The import was cancelled. In batched mode, `stoppedAt` says what stayed committed.
    case cancelled(stoppedAt: ImportStopPoint?)
    /// The file system of the database lacks the space the import needs at least; nothing was written.
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - folder: its folder.
    ///   - needed: the estimated need in bytes.
    ///   - available: the bytes available.
    case notEnoughSpace(path: String, folder: String, needed: Int64, available: Int64)
    /// An option is out of its range or not done by the store (see ``ImportOptions/validate(for:)``);
    /// nothing was touched.
    /// - Parameters:
    ///   - option: the option's name in ``ImportOptions`` (or `ParseOptions`): `maxBatchesInFlight`.
    ///   - problem: what is wrong with it: `0 is out of range (1 to 1024)`.
    case invalidOption(option: String, problem: String)
    /// Another import or removal is writing the database, and ``ImportOptions/lockWait`` ran out.
    case busy(path: String)
    /// More rows of a file were rejected than ``ImportOptions/maxRejected`` allows: the import failed
    /// and wrote nothing (batched mode keeps what it committed), so a file of bad rows cannot empty its table.
    ///
    /// - Parameters:
    ///   - file: the file's name.
    ///   - rejected: its rejected rows.
    ///   - read: its rows.
    ///   - limit: the limit.
    ///   - first: the first rejected row's error.
    case tooManyRejected(file: String, rejected: Int, read: Int, limit: ImportOptions.RejectionLimit, first: GTFSError?)
    /// ``ImportOptions/beforeCommit`` threw: the import rolled back, and `reason` is its error's text.
    case commitRefused(reason: String)

    /// Whether this is a cancellation.
    public var isCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// The store's error code when the store failed the import (``database(path:message:code:)``).
    public var databaseCode: Int32? {
        if case .database(_, _, let code) = self { return code }
        return nil
    }

    /// What stayed committed when a batched import was cancelled.
    public var stoppedAt: ImportStopPoint? {
        if case .cancelled(let point) = self { return point }
        return nil
    }

    /// One line naming the problem, e.g. `stops.txt:12: stop_lat: "north" is not a decimal number`.
    public var description: String {
        switch self {
        case .invalidFeed(let error): error.description
        case .store(let error): error.description
        case .database(let path, let message, _): "\(path): \(message)"
        case .cancelled(let point):
            if let point { "cancelled; committed before the cancel: \(point)" } else { "cancelled; the database is unchanged" }
        case .notEnoughSpace(let path, let folder, let needed, let available):
            "\(GTFSError.displayable(path)): needs about \(Count.bytes(needed)) in \(GTFSError.displayable(folder)), "
                + "\(Count.bytes(available)) free"
        case .invalidOption(let option, let problem): "invalid option \(option): \(problem)"
        case .busy(let path): "\(GTFSError.displayable(path)): another import or removal is writing it"
        case .tooManyRejected(let file, let rejected, let read, let limit, let first):
            "\(GTFSError.displayable(file)): \(Count.grouped(rejected)) of \(Count.grouped(read)) rows rejected, more than the limit of \(limit)"
                + (first.map { " (the first: \($0))" } ?? "")
        case .commitRefused(let reason): reason
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

/// Where a batched import stopped: the rows committed per file so far.
public struct ImportStopPoint: Sendable, Hashable, CustomStringConvertible {
    /// The file being loaded when the import stopped.
    public let fileName: String
    /// Rows of that file committed.
    public let rowsCommitted: Int
    /// Rows committed per table over the import.
    public let rowsCommittedByTable: [GTFSFile: Int]

    /// Creates a stop point.
    ///
    /// - Parameters:
    ///   - fileName: the file being loaded when the import stopped.
    ///   - rowsCommitted: rows of that file committed.
    ///   - rowsCommittedByTable: rows committed per table over the import.
    package init(fileName: String, rowsCommitted: Int, rowsCommittedByTable: [GTFSFile: Int]) {
        self.fileName = fileName
        self.rowsCommitted = rowsCommitted
        self.rowsCommittedByTable = rowsCommittedByTable
    }

    /// `stop_times.txt after 120000 rows`.
    public var description: String { "\(fileName) after \(rowsCommitted) rows" }
}
