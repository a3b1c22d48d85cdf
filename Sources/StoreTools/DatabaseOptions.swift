import ArgumentParser
import Foundation
package import GTFSImport
package import GTFSPostgres
package import ToolSupport

/// `--db` and `--schema`: the store a tool reads or writes, an SQLite file or a schema of a PostgreSQL
/// server, the same options in every command of `gtfs-import` and `gtfs-query`.
package struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("The database file, or a PostgreSQL server: postgresql://[user@]host/database.", valueName: "FILE|URI"))
    package var db = StoreTarget.file(path: "gtfs.sqlite")

    @Option(name: .long, help: ArgumentHelp("The PostgreSQL schema of the tables, with --db postgresql://….", valueName: "NAME"))
    package var schema = "gtfs"

    package init() {}

    /// Whether `--db` names a PostgreSQL server rather than a file.
    package var isServer: Bool { if case .server = db { true } else { false } }

    /// The file `--db` names; `nil` for a server.
    package var path: String? { if case .file(let path) = db { path } else { nil } }

    /// What the store `--db` names does of an import's options.
    package var capabilities: StoreCapabilities { isServer ? PostgresStore.capabilities : GTFSStore.capabilities }

    /// Connects to the server `--db` names.
    /// - Parameter nothing: what did not happen, for the message.
    /// - Throws: ``/ToolSupport/ToolFailure`` when the server cannot be reached or refuses.
    package func openServer(nothing: String) throws(ToolFailure) -> PostgresStore {
        guard case .server(let connection) = db else { preconditionFailure("--db names a file") }
        do {
            return try PostgresStore(connectionString: connection, schema: schema)
        } catch {
            throw ToolFailure("\(error); \(nothing)")
        }
    }

    /// Opens a store that exists (a file is never created).
    /// - Parameters:
    ///   - readOnly: whether the command only reads (an SQLite file is then opened read-only).
    ///   - nothing: what did not happen, for the message.
    /// - Returns: the store, and its name for messages (a server without its password).
    /// - Throws: ``/ToolSupport/ToolFailure`` when there is no such file or it cannot be opened.
    package func openExisting(readOnly: Bool, nothing: String) throws(ToolFailure) -> (store: any FeedStore, name: String) {
        guard case .file(let path) = db else {
            let store = try openServer(nothing: nothing)
            return (store, "\(store.target) schema \(schema)")
        }
        guard FileManager.default.fileExists(atPath: path) else { throw ToolFailure("\(path): no such database (gtfs-import writes one)") }
        do {
            return (try readOnly ? GTFSStore(readingFrom: path) : GTFSStore(path: path), path)
        } catch {
            throw ToolFailure("\(path): \(error)")
        }
    }
}

/// `--feed`: which of the feeds of a store a command imports or reads.
package struct FeedOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The feed's name; several feeds live side by side in one database.", valueName: "NAME"))
    package var feed = ImportOptions().feed

    package init() {}
}
