import ArgumentParser
import GTFSPostgres

/// What `--db` names, parsed once: an SQLite file, or a PostgreSQL server (a `postgresql://` URI or
/// libpq's `key=value` string; see ``/GTFSPostgres/PostgresStore/isConnectionString(_:)``).
package enum StoreTarget: ExpressibleByArgument, CustomStringConvertible, Sendable {
    case file(path: String)
    case server(connection: String)

    package init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        self = PostgresStore.isConnectionString(argument) ? .server(connection: argument) : .file(path: argument)
    }

    /// The file's path, or "a PostgreSQL server" (a connection string may hold a password: it is never shown).
    package var description: String {
        switch self {
        case .file(let path): path
        case .server: "a PostgreSQL server"
        }
    }
}
