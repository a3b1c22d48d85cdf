import Foundation
import GTFS
import GTFSStoreCore

/// Group digests in the PostgreSQL store: `feed_groups` holds one row per group of rows of a grouped table
/// (a trip of `stop_times`, a shape; see `GroupedTables`) with the digest of its rows, as in
/// the SQLite store. An incremental import reads a changed grouped file once to digest its groups,
/// compares them with the stored ones in SQL, and then sends only the rows of groups that differ.
enum PostgresGroups {
    /// The columns of new digests, as ``GroupDigestEncoder`` writes them.
    private static let columns = "feed, table_name, group_key, digest_a, digest_b, rows"

    /// The temporary table that receives the digests of one file's groups.
    static func newGroupsTable(_ table: PostgresTable) -> String { "pg_temp.gtfs_groups_\(table.name)" }

    /// Creates (empty) the temporary table of new digests and starts a `COPY` into it.
    static func beginCopy(_ table: PostgresTable, connection: PostgresConnection) throws(PostgresError) -> CopyStream {
        let name = newGroupsTable(table)
        try connection.execute(
            """
            DROP TABLE IF EXISTS \(name);
            CREATE TEMPORARY TABLE \(name.dropFirst("pg_temp.".count)) (
                feed integer, table_name text, group_key text COLLATE "C", digest_a bigint, digest_b bigint, rows bigint) ON COMMIT DROP
            """, "stage the groups of \(table.name)")
        return try connection.beginCopy("COPY \(name) (\(columns)) FROM STDIN (FREEZE)", "COPY the groups of \(table.name)")
    }

    /// Starts a `COPY` of new digests straight into `feed_groups`, which this transaction created without its
    /// key: there is nothing to replace, so the digests skip the temporary table and the statement that would
    /// move them. ``recordSent(_:schema:feed:invalid:connection:)`` and ``addKey(schema:connection:)`` finish.
    static func beginCopyIntoNewTable(_ table: PostgresTable, schema: String, connection: PostgresConnection) throws(PostgresError) -> CopyStream {
        try connection.beginCopy("COPY \(schema).feed_groups (\(columns)) FROM STDIN (FREEZE)", "COPY the groups of \(table.name)")
    }

    /// After ``beginCopyIntoNewTable(_:schema:connection:)``: the `invalid` groups (rows refused) lose their digests.
    static func recordSent(
        _ table: PostgresTable, schema: String, feed: Int32, invalid: Set<String>, connection: PostgresConnection
    ) throws(PostgresError) {
        guard !invalid.isEmpty else { return }
        _ = try connection.query(
            """
            UPDATE \(schema).feed_groups SET digest_a = NULL, digest_b = NULL
            WHERE feed = \(feed) AND table_name = $1 AND group_key = ANY($2::text[])
            """, [table.name, arrayLiteral(invalid)], "record the groups of \(table.name)")
    }

    /// Adds the key of a `feed_groups` created without it in this transaction. When a group's rows were apart
    /// in a file it has two rows of digests; then each group's rows become one, without digests (as
    /// ``record(_:schema:feed:invalid:states:connection:)`` makes it), and the key is added again.
    static func addKey(schema: String, connection: PostgresConnection) throws(PostgresError) {
        let table = "\(schema).feed_groups"
        _ = try PostgresKeys.add(["ALTER TABLE \(table) ADD \(PostgresFeedTables.groupsKey)"], name: "feed_groups", connection: connection) {
            () throws(PostgresError) in
            try connection.execute(
                """
                CREATE TEMPORARY TABLE gtfs_groups_joined ON COMMIT DROP AS
                SELECT feed, table_name, group_key, CASE WHEN count(*) = 1 THEN min(digest_a) END AS digest_a,
                    CASE WHEN count(*) = 1 THEN min(digest_b) END AS digest_b, sum(rows) AS rows
                FROM \(table) GROUP BY feed, table_name, group_key;
                TRUNCATE \(table);
                INSERT INTO \(table) (\(columns)) SELECT \(columns) FROM pg_temp.gtfs_groups_joined;
                DROP TABLE pg_temp.gtfs_groups_joined
                """, "join the groups of feed_groups")
        }
    }

    /// Replaces the feed's `feed_groups` rows of `table` with the new digests: a group whose rows were not
    /// together in the file (two rows of digests) gets none, and so do `invalid` groups (rows refused).
    /// - Parameter states: after a comparison, its table of states: only the groups that changed or went
    ///   are replaced.
    static func record(
        _ table: PostgresTable, schema: String, feed: Int32, invalid: Set<String>, states: String?, connection: PostgresConnection
    ) throws(PostgresError) {
        let changed = { (condition: String) in states.map { " AND group_key IN (SELECT group_key FROM \($0) WHERE \(condition))" } ?? "" }
        _ = try connection.query(
            "DELETE FROM \(schema).feed_groups WHERE feed = \(feed) AND table_name = $1" + changed("state <> 0"), [table.name],
            "forget the groups of \(table.name)")
        _ = try connection.query(
            """
            INSERT INTO \(schema).feed_groups (feed, table_name, group_key, digest_a, digest_b, rows)
            SELECT \(feed), $1, group_key,
                CASE WHEN count(*) = 1 AND NOT group_key = ANY($2::text[]) THEN min(digest_a) END,
                CASE WHEN count(*) = 1 AND NOT group_key = ANY($2::text[]) THEN min(digest_b) END, sum(rows)
            FROM \(newGroupsTable(table)) WHERE true\(changed("state = 1")) GROUP BY group_key
            """, [table.name, arrayLiteral(invalid)], "record the groups of \(table.name)")
    }

    /// Deletes the feed's `feed_groups` rows of `tables`.
    static func forget(_ tables: some Sequence<GTFSFile>, schema: String, feed: Int32, connection: PostgresConnection) throws(PostgresError) {
        let names = tables.map { "'\($0.rawValue)'" }
        guard !names.isEmpty else { return }
        try connection.execute(
            "DELETE FROM \(schema).feed_groups WHERE feed = \(feed) AND table_name IN (\(names.joined(separator: ", ")))", "forget groups")
    }

    /// A text array as PostgreSQL reads it: `{"a","b\"c"}`, in order.
    static func arrayLiteral(_ values: Set<String>) -> String {
        PostgresConnection.arrayLiteral(values.sorted())
    }
}

/// Encodes the digests of a grouped file's groups, batch by batch, as text `COPY` rows of
/// `(feed, table_name, group_key, digest_a, digest_b, rows)`.
struct GroupDigestEncoder {
    private var joiner = GroupRunJoiner(keepsSegments: false)
    private var encoder = TextRowEncoder(types: [.text, .text, .bigint, .bigint, .bigint])
    let feed: Int32
    let tableName: String

    init(feed: Int32, table: PostgresTable) {
        self.feed = feed
        tableName = table.name
    }

    /// Takes the runs of the next batch (`GroupRun.split(_:)`).
    /// - Returns: the encoded rows of the groups this batch completed.
    mutating func add(_ runs: [GroupRun], of batch: RecordBatch) -> [UInt8] {
        for group in joiner.add(runs, of: batch) { encode(group) }
        return encoder.takeBytes()
    }

    /// The last group, at the file's end.
    mutating func finish() -> [UInt8] {
        if let group = joiner.finish() { encode(group) }
        return encoder.takeBytes()
    }

    private mutating func encode(_ group: PendingGroup) {
        // A row without a group value is refused by the table (the column is NOT NULL).
        guard var key = group.key else { return }
        encoder.beginRow(feed: feed)
        encoder.write(tableName)
        key.withUTF8 { encoder.writeText($0) }
        encoder.write(Int(group.digest.storedA))
        encoder.write(Int(group.digest.storedB))
        encoder.write(group.digest.rows)
    }
}

/// Digests written to a private temporary file while the table's own `COPY` runs (one connection has one
/// `COPY` at a time), sent into the table of new digests after it: memory stays flat however many groups.
final class GroupSpool {
    private let path: String
    private let handle: FileHandle

    init() throws {
        path = NSTemporaryDirectory() + "gtfs-import-groups-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        // Unlinked at once: the open handle keeps it, and nothing is left behind whatever happens.
        try? FileManager.default.removeItem(atPath: path)
    }

    deinit { try? handle.close() }

    func append(_ bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        try handle.write(contentsOf: bytes)
    }

    /// Sends what was appended into `stream`, in chunks.
    func send(into stream: CopyStream) throws {
        try handle.seek(toOffset: 0)
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            try stream.send(Array(chunk))
        }
    }
}

/// A grouped file's groups compared with the stored ones (`state` 0 same, 1 changed or new, 2 gone, in a
/// temporary table): only the changed groups' rows are sent and merged.
struct GroupComparison {
    /// The group column (`trip_id`).
    let column: String
    /// The temporary table of states, by `group_key`.
    let states: String
    /// The groups to send.
    let changed: Set<String>
    /// The rows of the groups that are the same, which the import leaves as they are.
    let unchangedRows: Int
}
