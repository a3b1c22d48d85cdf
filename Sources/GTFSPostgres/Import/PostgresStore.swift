import Dispatch
import Foundation
import GTFS
public import GTFSStoreCore
import Synchronization

/// GTFS feeds in a schema of a PostgreSQL database: the tables of every GTFS file (the same columns and
/// keys as the SQLite store, with PostgreSQL's types: ``PostgresColumnType``) and `feeds`, one row per feed.
/// A `FeedStore`: it imports, lists, removes and reads feeds as the SQLite store does.
///
/// ```swift
/// let store = try PostgresStore(connectionString: "postgresql:///gtfs", schema: "gtfs")
/// var options = ImportOptions()
/// options.feed = "vbb"
/// let summary = try store.importFeedSynchronously(from: try FeedSource(path: "vbb.zip"), options: options)
/// print(summary.rowsStored, summary.changes)
/// ```
///
/// A store holds one connection, used by one call at a time: a read waits for an import of the same
/// store to end (another store, another connection, reads meanwhile what was committed).
public final class PostgresStore: FeedStore, @unchecked Sendable {
    /// The schema that holds the tables (`gtfs`).
    public let schema: String
    /// The connection; every use holds ``serial``.
    let connection: PostgresConnection
    /// One call on the connection at a time.
    private let serial = NSRecursiveLock()
    /// Whether a read or an import runs its transaction; touched only under ``serial``.
    private var inTransaction = false
    private let settings: Mutex<(usesPostGIS: Bool, migrations: [PostgresMigration])>

    /// Whether imports use PostGIS where the server has it (the default): the extension is created when
    /// missing, stops get a `geom` point and the view `shape_lines` a line per shape. Without PostGIS, or with this
    /// `false`, there are none; the summary notes when the server lacks it.
    public var usesPostGIS: Bool {
        get { settings.withLock { $0.usesPostGIS } }
        set { settings.withLock { $0.usesPostGIS = newValue } }
    }

    /// Called on the import's thread once an import has listed its source's files, before it asks the
    /// server anything (tests cancel there).
    let sourceListed = Mutex<(@Sendable () -> Void)?>(nil)

    /// The migrations of the schema's tables (``PostgresSchemaVersion``); tests add a made-up later one.
    var migrations: [PostgresMigration] {
        get { settings.withLock { $0.migrations } }
        set { settings.withLock { $0.migrations = newValue } }
    }

    /// Connects to the server and checks the schema name.
    /// - Parameters:
    ///   - connectionString: libpq's connection URI or `key=value` string (as `psql` takes them: `PG*` variables, `~/.pgpass` and services apply).
    ///   - schema: the schema of the tables: lower-case letters, digits and `_`, not starting with a digit, at
    ///     most 63 bytes (PostgreSQL's limit).
    /// - Throws: ``PostgresError`` when the name is not allowed or the server cannot be reached or refuses.
    public init(connectionString: String, schema: String = "gtfs") throws(PostgresError) {
        if let problem = Self.identifierProblem(schema) {
            throw PostgresError(target: PostgresConnection.describe(connectionString), operation: "schema \(schema)", message: problem)
        }
        self.schema = schema
        connection = try PostgresConnection(connectionString)
        settings = Mutex((true, PostgresSchemaVersion.migrations))
    }

    /// Closes the connection; later calls fail.
    public func close() { serially { connection.close() } }

    /// Runs `body` with the connection to itself.
    func serially<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        serial.lock()
        defer { serial.unlock() }
        return try body()
    }

    /// Runs `body` as ``serially(_:)`` does, refusing to start inside another such call on this thread: a
    /// read or an import is one transaction on the store's one connection, and a second one in its body
    /// (a board's body that asks for a stop) would end the first's transaction, snapshot and cursors.
    /// - Parameter operation: what is refused, for the message.
    func exclusively<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        try serially { () throws -> T in
            guard !inTransaction else {
                throw PostgresError(
                    target: connection.target, operation: operation,
                    message: "asked for inside another read or import of this store (a board's body, a change handler); use another PostgresStore for it")
            }
            inTransaction = true
            defer { inTransaction = false }
            return try body()
        }
    }

    /// A PostgreSQL import is one transaction: no batched commits; its changes are reported and kept as
    /// in the SQLite store.
    public static let capabilities = StoreCapabilities(batchedCommits: false, reportsChanges: true, keepsChanges: true)

    /// The static `capabilities`, for a store at hand.
    public var capabilities: StoreCapabilities { Self.capabilities }

    /// Whether `text` names a PostgreSQL server rather than a file: a URI (`postgresql://…`,
    /// `postgres://…`) or libpq's `key=value` form whose first word is one of its keywords
    /// (`host=/run/postgresql dbname=gtfs`). A file of such a name is `./host=…`.
    /// - Parameter text: what a user gave as the database.
    /// - Returns: `true` for a connection string.
    public static func isConnectionString(_ text: String) -> Bool {
        if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") { return true }
        guard let equals = text.firstIndex(of: "=") else { return false }
        let keyword = text[..<equals].trimmingCharacters(in: .whitespaces)
        return connectionKeywords.contains(keyword)
    }

    /// libpq's connection keywords (libpq 17's list), as the first word of a `key=value` string.
    private static let connectionKeywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth", "channel_binding",
        "connect_timeout", "client_encoding", "options", "application_name", "fallback_application_name", "keepalives",
        "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication", "gssencmode",
        "sslmode", "requiressl", "sslnegotiation", "sslcompression", "sslcert", "sslkey", "sslpassword", "sslcertmode",
        "sslrootcert", "sslcrl", "sslcrldir", "sslsni", "requirepeer", "ssl_min_protocol_version",
        "ssl_max_protocol_version", "krbsrvname", "gsslib", "gssdelegation", "service", "target_session_attrs",
        "load_balance_hosts",
    ]

    /// Cancels an import of this store from any thread (Ctrl-C, say): see ``PostgresCancel``.
    public var canceller: PostgresCancel { connection.canceller }

    /// The server and database, for messages, without a password.
    public var target: String { connection.target }


    /// Why `name` cannot stand in SQL unquoted and mean itself, or `nil` when it can: lower-case letters,
    /// digits and `_`, not starting with a digit, at most 63 bytes (PostgreSQL cuts a longer name, so two
    /// names would mean one schema).
    static func identifierProblem(_ name: String) -> String? {
        let plain = name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
        guard let first = name.utf8.first, plain, !(UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(first) else {
            return "a schema name has lower-case letters, digits and _ only, and does not start with a digit"
        }
        guard name.utf8.count <= 63 else { return "a schema name has at most 63 bytes (PostgreSQL's limit), this one \(name.utf8.count)" }
        return nil
    }
}
