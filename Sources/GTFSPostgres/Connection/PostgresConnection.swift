import CLibpq
import Foundation
import Platform

/// One connection to a PostgreSQL server through libpq, used from one thread at a time.
///
/// The connection string is libpq's: a URI (`postgresql://me@db.example/gtfs?sslmode=require`) or
/// `key=value` pairs (`host=/run/postgresql dbname=gtfs`), and libpq fills in what it leaves out from
/// `PGHOST`, `PGDATABASE`, `PGUSER`, `PGPASSWORD`, `PGSERVICE`, `~/.pgpass` and its defaults. Messages name
/// the server as ``target``, without a password.
final class PostgresConnection {
    /// The server and database, for messages: `postgresql://user@host:port/dbname`, never a password.
    let target: String
    /// The connection string, for a second connection (``logAside(_:)``).
    private let conninfo: String
    /// Its passwords, which no message of the server or of libpq may show.
    private let secrets: ConnectionSecrets
    private var connection: OpaquePointer?
    /// Cancels from other threads.
    let canceller: PostgresCancel

    /// Connects.
    /// - Parameter conninfo: a URI or `key=value` connection string; empty for libpq's defaults.
    /// - Throws: ``PostgresError`` when the string is malformed or the server cannot be reached or refuses.
    init(_ conninfo: String) throws(PostgresError) {
        target = Self.describe(conninfo)
        secrets = Self.secrets(conninfo)
        self.conninfo = conninfo
        if let failure = Self.loadLibpq() {
            throw PostgresError(target: target, operation: "cannot connect", message: failure)
        }
        guard let connection = PQconnectdb(conninfo) else {
            throw PostgresError(target: target, operation: "cannot connect", message: "out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(target: target, operation: "cannot connect", message: secrets.redact(message))
        }
        self.connection = connection
        canceller = PostgresCancel(connection: connection)
        // Notices (e.g. "table does not exist, skipping") are not errors; keep them off standard error.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { close() }

    /// Closes the connection; safe to call twice.
    func close() {
        canceller.release()
        if let connection { PQfinish(connection) }
        connection = nil
    }

    /// Results of a cancelled statement not read yet: the server sends its error at once but is ready for
    /// the next statement only when it has cleaned up (0.4 s after an index build), and a cancel need not wait.
    private var pending = false
    /// Whether the transaction was given up (``abandonTransaction()``) and is still to be rolled back.
    private var abandoned = false
    /// Whether a cancel interrupted a `COPY` while libpq still held data for it, or a statement whose server
    /// process did not answer the cancel in time: the session cannot go on, and the next statement starts a
    /// new one (``ready()``).
    private var interrupted = false

    /// Gives up the transaction in progress without waiting for the server: the next statement on this
    /// connection first waits for the server and rolls back, and closing the connection leaves the rollback
    /// to the server (it rolls back the transaction of a closed connection). A rollback of a large import
    /// takes the server a while (172 ms for two 5 M-row tables), which a cancelled import need not wait for.
    func abandonTransaction() {
        abandoned = true
    }

    /// Runs statements on a connection of their own and commits them, without waiting for this connection's
    /// server process: how a cancelled import logs itself while its own transaction still rolls back.
    /// Errors are dropped (a schema created by the abandoned transaction has no `imports` table to log in).
    func logAside(_ sql: String) {
        guard let aside = try? PostgresConnection(conninfo) else { return }
        _ = try? aside.execute(sql, "log")
        aside.close()
    }

    /// The connection, ready for a statement: after the results of a cancelled statement and the rollback
    /// of an abandoned transaction; `nil` when closed.
    private func ready() -> OpaquePointer? {
        guard let connection else { return nil }
        if interrupted {
            // A new session; the server rolls back the old one's transaction when it sees it closed.
            PQsetnonblocking(connection, 0)
            PQreset(connection)
            canceller.replace(connection: connection)
            (interrupted, pending, abandoned) = (false, false, false)
        }
        if pending {
            while let result = PQgetResult(connection) { PQclear(result) }
            pending = false
        }
        if abandoned {
            abandoned = false
            PQclear(PQexec(connection, "ROLLBACK"))
        }
        return connection
    }

    /// The result of what was sent, as `PQexec` gives it (the last result, or the first error; a COPY's
    /// start), read as the server answers. When a cancel was asked for, the error it causes returns at once,
    /// without waiting for the server to be ready again; the rest is read before the next statement.
    /// - Returns: `nil` when the connection broke, or when the session was given up after a cancel.
    private func collect(_ raw: OpaquePointer) -> OpaquePointer? {
        var kept: OpaquePointer?
        while let result = nextResult(raw) {
            let status = PQresultStatus(result)
            if status == PGRES_COPY_IN { PQclear(kept); return result }
            let failed = status == PGRES_FATAL_ERROR || status == PGRES_BAD_RESPONSE || status == PGRES_NONFATAL_ERROR
            if failed && canceller.isRequested {
                PQclear(kept)
                pending = true
                return result
            }
            if let previous = kept, PQresultStatus(previous) == PGRES_FATAL_ERROR {
                PQclear(result)
            } else {
                PQclear(kept)
                kept = result
            }
        }
        if interrupted {
            PQclear(kept)
            return nil
        }
        return kept
    }

    /// The next result of what was sent, waiting for the server's answer on the socket; `nil` after the last.
    ///
    /// A cancel asked for is seen within 20 ms and sent again, once: the first may have reached the server
    /// between two statements, where it does nothing. When the server has still not answered 40 ms later
    /// (a parallel index build can be slow to stop), the session is given up (``interrupted``) and
    /// `nil` returned: the statement's transaction never commits, and the server rolls it back when it
    /// finds the session closed.
    private func nextResult(_ raw: OpaquePointer) -> OpaquePointer? {
        var cancelSeen: ContinuousClock.Instant?
        while PQisBusy(raw) == 1 {
            var descriptor = pollfd(fd: PQsocket(raw), events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 20)
            if ready < 0 && errno != EINTR { break }
            if ready == 0 && canceller.isRequested {
                if let seen = cancelSeen {
                    if ContinuousClock.now - seen >= .milliseconds(40) {
                        interrupted = true
                        return nil
                    }
                } else {
                    canceller.cancel()
                    cancelSeen = .now
                }
            }
            if PQconsumeInput(raw) == 0 { break }
        }
        return PQgetResult(raw)
    }

    /// Sends `sql` (with text parameters `$1`, `$2`, … when given: then one statement) on the connection
    /// made ready, and returns its result as ``collect(_:)`` reads it (the caller clears it).
    private func exchange(_ sql: String, _ parameters: [String?]?, _ operation: String) throws(PostgresError) -> OpaquePointer {
        guard let connection = ready() else { throw PostgresError(target: target, operation: operation, message: "the connection is closed") }
        if canceller.isRequested { throw cancelled(operation) }
        let sent: Int32
        if let parameters {
            var copies = parameters.map { $0.map { strdup($0) } ?? nil }
            defer { for copy in copies { free(copy) } }
            sent = copies.withUnsafeMutableBufferPointer { values in
                values.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                    PQsendQueryParams(connection, sql, Int32(values.count), nil, values.baseAddress, nil, nil, 0)
                }
            }
        } else {
            sent = PQsendQuery(connection, sql)
        }
        guard sent == 1, let result = collect(connection) else { throw interrupted ? cancelled(operation) : failure(operation, nil) }
        return result
    }

    /// The error of a statement stopped by a cancel, as the server words it.
    private func cancelled(_ operation: String) -> PostgresError {
        PostgresError(target: target, operation: operation, message: "canceling statement due to user request", sqlState: "57014")
    }

    /// `value` as an SQL string literal, quoted and escaped for this connection.
    func literal(_ value: String) -> String {
        guard let connection, let escaped = PQescapeLiteral(connection, value, value.utf8.count) else { return "NULL" }
        defer { PQfreemem(escaped) }
        return String(cString: escaped)
    }

    /// Runs statements that return no rows.
    /// - Parameters:
    ///   - sql: one or more statements.
    ///   - operation: what they do, for an error message.
    /// - Throws: ``PostgresError`` with the server's message.
    /// - Returns: the rows the last statement inserted, updated or deleted (0 for others).
    @discardableResult
    func execute(_ sql: String, _ operation: String) throws(PostgresError) -> Int {
        let result = try exchange(sql, nil, operation)
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY, PGRES_TUPLES_OK:
            return Int(String(cString: PQcmdTuples(result))) ?? 0
        default:
            throw failure(operation, result)
        }
    }

    /// Runs one statement with text parameters (`$1`, `$2`, …) and returns its rows as text (`nil` for NULL).
    /// - Parameters:
    ///   - sql: one statement.
    ///   - parameters: the values of `$1`, `$2`, …; `nil` is NULL.
    ///   - operation: what it does, for an error message.
    /// - Returns: the rows, each a column's value in order; none for a command.
    /// - Throws: ``PostgresError`` with the server's message.
    func query(_ sql: String, _ parameters: [String?], _ operation: String) throws(PostgresError) -> [[String?]] {
        try rows(of: exchange(sql, parameters, operation), operation)
    }

    /// Runs one statement with text parameters that returns no rows.
    /// - Returns: the rows it inserted, updated or deleted.
    /// - Throws: ``PostgresError`` with the server's message.
    @discardableResult
    func command(_ sql: String, _ parameters: [String?], _ operation: String) throws(PostgresError) -> Int {
        let result = try exchange(sql, parameters, operation)
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return Int(String(cString: PQcmdTuples(result))) ?? 0
        default: throw failure(operation, result)
        }
    }

    /// Runs a query and returns its rows as text (`nil` for NULL).
    /// - Parameters:
    ///   - sql: one query.
    ///   - operation: what it does, for an error message.
    /// - Returns: the rows, each a column's value in order.
    /// - Throws: ``PostgresError`` with the server's message.
    func query(_ sql: String, _ operation: String) throws(PostgresError) -> [[String?]] {
        try rows(of: exchange(sql, nil, operation), operation)
    }

    /// A result's rows as text (none for a command), and clears it.
    /// - Throws: ``PostgresError`` when the result is an error.
    private func rows(of result: OpaquePointer, _ operation: String) throws(PostgresError) -> [[String?]] {
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY: return []
        case PGRES_TUPLES_OK: break
        default: throw failure(operation, result)
        }
        let rows = Int(PQntuples(result)), columns = Int(PQnfields(result))
        return (0 ..< rows).map { row in
            (0 ..< columns).map { column in
                PQgetisnull(result, Int32(row), Int32(column)) == 1
                    ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
            }
        }
    }

    /// Starts `COPY … FROM STDIN`; the rows go through the returned stream, which ends the COPY.
    /// - Parameters:
    ///   - sql: the COPY statement.
    ///   - operation: what it loads, for error messages.
    /// - Returns: the stream to send the data through.
    /// - Throws: ``PostgresError`` when the server refuses the statement.
    func beginCopy(_ sql: String, _ operation: String) throws(PostgresError) -> CopyStream {
        let started = try exchange(sql, nil, operation)
        defer { PQclear(started) }
        guard PQresultStatus(started) == PGRES_COPY_IN, let connection else { throw failure(operation, started) }
        // Non-blocking while the data goes out, so that a cancel is seen while the socket is full: after
        // a cancel the server reads no more until it has cleaned up (unlinking the files of the tables this
        // transaction created), and a blocking send would wait for that.
        PQsetnonblocking(connection, 1)
        return CopyStream(connection: self, raw: connection, operation: operation)
    }

    /// Hands `COPY` data to libpq and sends what it holds, waiting while the socket is full.
    /// - Throws: ``PostgresError`` when the connection broke, or `57014` when a cancel was asked for while
    ///   waiting (the session is then given up: see ``interrupted``).
    func putCopyData(_ raw: OpaquePointer, _ bytes: UnsafeBufferPointer<UInt8>, _ operation: String) throws(PostgresError) {
        while true {
            let queued = bytes.withMemoryRebound(to: CChar.self) { PQputCopyData(raw, $0.baseAddress, Int32(clamping: $0.count)) }
            if queued < 0 { throw failure(operation, nil) }
            try flush(raw, operation)
            if queued == 1 { return }
        }
    }

    /// Sends what libpq holds, waiting for the socket to take it and reading what the server sends
    /// meanwhile; a cancel asked for ends the wait.
    private func flush(_ raw: OpaquePointer, _ operation: String) throws(PostgresError) {
        while true {
            let left = PQflush(raw)
            if left < 0 { throw failure(operation, nil) }
            if left == 0 { return }
            if canceller.isRequested {
                interrupted = true
                throw cancelled(operation)
            }
            var descriptor = pollfd(fd: PQsocket(raw), events: Int16(POLLOUT | POLLIN), revents: 0)
            if poll(&descriptor, 1, 50) < 0 && errno != EINTR { throw failure(operation, nil) }
            if descriptor.revents & Int16(POLLIN) != 0 && PQconsumeInput(raw) == 0 { throw failure(operation, nil) }
        }
    }

    /// Ends the COPY in progress, with an error message that makes the server refuse it, or without.
    /// - Returns: the rows the server stored.
    /// - Throws: ``PostgresError`` when the server refused the data or the connection broke.
    func endCopy(_ raw: OpaquePointer, _ operation: String, abandoning reason: String?) throws(PostgresError) -> Int {
        if interrupted {
            throw cancelled(operation)
        }
        var problem: PostgresError?
        var ended: Int32 = 0
        repeat {
            ended = PQputCopyEnd(raw, reason)
            if ended >= 0 { try flush(raw, operation) }
        } while ended == 0
        if ended < 0 { problem = failure(operation, nil) }
        PQsetnonblocking(raw, 0)
        guard let result = collect(raw) else { throw interrupted ? cancelled(operation) : problem ?? failure(operation, nil) }
        defer { PQclear(result) }
        if let problem { throw problem }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw failure(operation, result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// The error of a failed call: the result's message and SQLSTATE, or the connection's message.
    func failure(_ operation: String, _ result: OpaquePointer?) -> PostgresError {
        if let result, let text = PQresultErrorField(result, Int32(UInt8(ascii: "M"))) {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            return PostgresError(target: target, operation: operation, message: secrets.redact(String(cString: text)), sqlState: state)
        }
        let message = connection.map { String(cString: PQerrorMessage($0)) } ?? "the connection is closed"
        return PostgresError(target: target, operation: operation, message: message.isEmpty ? "unknown error" : secrets.redact(message))
    }
}
