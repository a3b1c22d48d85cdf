import Foundation

/// What went wrong talking to a PostgreSQL server: one line, without the password.
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server or connection the error is about, its password removed (`postgresql://me@host/db`).
    public let target: String
    /// What failed (`cannot connect`, `COPY stop_times`).
    public let operation: String
    /// The server's or libpq's message, on one line.
    public let message: String
    /// The SQLSTATE code the server sent (`42501`: insufficient privilege), when it sent one.
    public let sqlState: String?

    /// Creates an error.
    /// - Parameters:
    ///   - target: the redacted connection target.
    ///   - operation: what failed.
    ///   - message: the message; line breaks become spaces.
    ///   - sqlState: the SQLSTATE code, if any.
    public init(target: String, operation: String, message: String, sqlState: String? = nil) {
        self.target = target
        self.operation = operation
        self.message = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        self.sqlState = sqlState
    }

    /// `postgresql://me@host/db: cannot connect: connection refused`.
    public var description: String { "\(target): \(operation): \(message)" }
}
