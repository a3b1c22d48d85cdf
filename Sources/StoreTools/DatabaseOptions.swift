import ArgumentParser
import Foundation
package import GTFSImport
package import GTFSPostgres
import ToolSupport

/// `--db` and `--schema`: the store a tool reads or writes, an SQLite file or a schema of a PostgreSQL
/// server, the same options in every command of `gtfs-import` and `gtfs-query`.
package struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "The database file, or a PostgreSQL server: postgresql://[user@]host/database.")
    package var db = "gtfs.sqlite"

    @Option(name: .long, help: ArgumentHelp("The PostgreSQL schema of the tables, with --db postgresql://….", valueName: "NAME"))
    package var schema = "gtfs"

    package init() {}

    /// Whether `--db` names a PostgreSQL server rather than a file.
    package var isServer: Bool { PostgresStore.isConnectionString(db) }

    /// What the store `--db` names does of an import's options.
    package var capabilities: StoreCapabilities { isServer ? PostgresStore.capabilities : GTFSStore.capabilities }

    /// Connects to the server `--db` names, or ends the process with one line (and `nothing`: what did not happen).
    package func openServer(nothing: String) -> PostgresStore {
        do {
            return try PostgresStore(connectionString: db, schema: schema)
        } catch {
            fail("\(error); \(nothing)")
        }
    }

    /// Opens a store that exists (a file is never created), or ends the process with one line.
    /// - Parameters:
    ///   - readOnly: whether the command only reads (an SQLite file is then opened read-only).
    ///   - nothing: what did not happen, for the message.
    /// - Returns: the store, and its name for messages (a server without its password).
    package func openExisting(readOnly: Bool, nothing: String) -> (store: any FeedStore, name: String) {
        if isServer {
            let store = openServer(nothing: nothing)
            return (store, "\(store.target) schema \(schema)")
        }
        guard FileManager.default.fileExists(atPath: db) else { fail("\(db): no such database (gtfs-import writes one)") }
        do {
            return (try readOnly ? GTFSStore(readingFrom: db) : GTFSStore(path: db), db)
        } catch {
            fail("\(db): \(error)")
        }
    }
}
