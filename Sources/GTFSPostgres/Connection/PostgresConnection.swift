import CLibpq
import Foundation

/// One connection to a PostgreSQL server through libpq, used from one thread at a time.
///
/// The connection string is libpq's: a URI (`postgresql://me@db.example/gtfs?sslmode=require`) or
/// `key=value` pairs (`host=/run/postgresql dbname=gtfs`), and libpq fills in what it leaves out from
/// `PGHOST`, `PGDATABASE`, `PGUSER`, `PGPASSWORD`, `PGSERVICE`, `~/.pgpass` and its defaults. Messages name
/// the server as ``target``, without a password.
final class PostgresConnection {
    /// The server and database, for messages: `postgresql://user@host:port/dbname`, never a password.
    let target: String
    private var connection: OpaquePointer?
    /// Cancels from other threads.
    let canceller: PostgresCancel

    /// Connects.
    /// - Parameter conninfo: a URI or `key=value` connection string; empty for libpq's defaults.
    /// - Throws: ``PostgresError`` when the string is malformed or the server cannot be reached or refuses.
    init(_ conninfo: String) throws(PostgresError) {
        target = Self.describe(conninfo)
        guard let connection = PQconnectdb(conninfo) else {
            throw PostgresError(target: target, operation: "cannot connect", message: "out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(target: target, operation: "cannot connect", message: message)
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

    /// Statements sent by ``sendWithoutWaiting(_:)`` whose results are not read yet.
    private var pending = false

    /// Sends statements (no parameters) and returns at once: the server runs them while the caller goes on,
    /// and the next call on this connection first waits for them to end. Their results and errors are
    /// dropped. A rollback of a large import takes the server a while (172 ms for two 5 M-row tables);
    /// a cancelled import need not wait for it, since the server finishes it also when the client is gone.
    func sendWithoutWaiting(_ sql: String) {
        guard let connection = ready() else { return }
        pending = PQsendQuery(connection, sql) == 1
    }

    /// The connection, after the results of statements sent without waiting; `nil` when closed.
    private func ready() -> OpaquePointer? {
        guard let connection else { return nil }
        if pending {
            while let result = PQgetResult(connection) { PQclear(result) }
            pending = false
        }
        return connection
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
        guard let connection = ready() else { throw PostgresError(target: target, operation: operation, message: "the connection is closed") }
        guard let result = PQexec(connection, sql) else { throw failure(operation, nil) }
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
        guard let connection = ready() else { throw PostgresError(target: target, operation: operation, message: "the connection is closed") }
        var copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let result = copies.withUnsafeMutableBufferPointer { values in
            values.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                PQexecParams(connection, sql, Int32(values.count), nil, values.baseAddress, nil, nil, 0)
            }
        }
        guard let result else { throw failure(operation, nil) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK: return []
        case PGRES_TUPLES_OK: return Self.rows(of: result)
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
        guard let result = try run(sql, operation) else { return [] }
        defer { PQclear(result) }
        return Self.rows(of: result)
    }

    /// A result's rows as text.
    private static func rows(of result: OpaquePointer) -> [[String?]] {
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
        guard let connection = ready() else { throw PostgresError(target: target, operation: operation, message: "the connection is closed") }
        guard let started = PQexec(connection, sql) else { throw failure(operation, nil) }
        defer { PQclear(started) }
        guard PQresultStatus(started) == PGRES_COPY_IN else { throw failure(operation, started) }
        return CopyStream(connection: self, raw: connection, operation: operation)
    }

    /// Ends the COPY in progress, with an error message that makes the server refuse it, or without.
    /// - Returns: the rows the server stored.
    /// - Throws: ``PostgresError`` when the server refused the data or the connection broke.
    func endCopy(_ raw: OpaquePointer, _ operation: String, abandoning reason: String?) throws(PostgresError) -> Int {
        var problem: PostgresError?
        if PQputCopyEnd(raw, reason) != 1 { problem = failure(operation, nil) }
        var stored = 0
        while let result = PQgetResult(raw) {
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                stored = Int(String(cString: PQcmdTuples(result))) ?? 0
            } else if problem == nil {
                problem = failure(operation, result)
            }
            PQclear(result)
        }
        if let problem { throw problem }
        return stored
    }

    /// Runs `sql`; returns a result holding rows (the caller clears it), or `nil` for a command.
    private func run(_ sql: String, _ operation: String) throws(PostgresError) -> OpaquePointer? {
        guard let connection = ready() else { throw PostgresError(target: target, operation: operation, message: "the connection is closed") }
        guard let result = PQexec(connection, sql) else { throw failure(operation, nil) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            PQclear(result)
            return nil
        case PGRES_TUPLES_OK:
            return result
        default:
            defer { PQclear(result) }
            throw failure(operation, result)
        }
    }

    /// The error of a failed call: the result's message and SQLSTATE, or the connection's message.
    func failure(_ operation: String, _ result: OpaquePointer?) -> PostgresError {
        if let result, let text = PQresultErrorField(result, Int32(UInt8(ascii: "M"))) {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            return PostgresError(target: target, operation: operation, message: String(cString: text), sqlState: state)
        }
        let message = connection.map { String(cString: PQerrorMessage($0)) } ?? "the connection is closed"
        return PostgresError(target: target, operation: operation, message: message.isEmpty ? "unknown error" : message)
    }

    /// `postgresql://user@host:port/dbname` from what libpq makes of `conninfo` (without the environment),
    /// or `PostgreSQL` when it cannot parse it. Never the password.
    static func describe(_ conninfo: String) -> String {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &error) else {
            if let error { PQfreemem(error) }
            return "PostgreSQL"
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        let user = values["user"].map { $0 + "@" } ?? ""
        let host = values["host"] ?? values["hostaddr"] ?? ""
        let port = values["port"].map { ":" + $0 } ?? ""
        let database = values["dbname"].map { "/" + $0 } ?? ""
        return "postgresql://\(user)\(host)\(port)\(database)"
    }
}
