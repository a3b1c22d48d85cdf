import Foundation

/// A full import of a schema's only feed built aside and switched in, as the SQLite store renames a new
/// file over the old one: the feed's tables are made in a schema of their own exactly as a first import
/// makes them (loaded frozen, keys and indexes built once after the load), and the switch drops the old
/// tables whole and moves the new ones in, inside the import's transaction. Deleting millions of rows and
/// inserting them again through every index cost 6 to 8 times a first import.
///
/// Readers see the old tables until the commit and the new ones after. They wait only for the switch:
/// its locks are taken last, right before the commit, a short attempt at a time so that a reader is never
/// held behind the import for longer than one attempt.
///
/// Anything of the user's own that depends on the tables (a view, an index, a trigger, a foreign key) would
/// be lost with them: then the switch is not made and the import runs in place (``switchable()``).
/// Privileges granted on the tables, views and functions are granted again on the new ones.
struct AsideBuild {
    let connection: PostgresConnection
    /// The store's schema.
    let schema: String
    /// The schema the new tables are built in, new in this transaction.
    let aside: String
    /// The longest a reader may wait behind one attempt to take the switch's locks.
    static let lockAttempt = Duration.milliseconds(100)

    /// - Throws: `PostgresError` when the schema cannot be looked up.
    init(schema: String, connection: PostgresConnection) throws(PostgresError) {
        let oid = try connection.query("SELECT oid FROM pg_namespace WHERE nspname = $1", [schema], "look up schema \(schema)")
        self.connection = connection
        self.schema = schema
        aside = "gtfs_aside_\(oid.first?.first.flatMap { $0 } ?? "0")"
    }

    /// Makes the schema to build in (new: it ends with the transaction, moved or dropped).
    func create() throws(PostgresError) {
        try connection.execute("DROP SCHEMA IF EXISTS \(aside) CASCADE; CREATE SCHEMA \(aside)", "create schema \(aside)")
    }

    /// Keeps autovacuum off the old tables while the new ones are built: vacuuming tables about to be
    /// dropped only takes the machine from the build (a re-import after an incremental one, whose dead
    /// rows autovacuum was cleaning, took 44-60 s, not 22 s). The lock (SHARE UPDATE EXCLUSIVE) is one
    /// that readers do not wait for; the server cancels an autovacuum it waits for after
    /// `deadlock_timeout`.
    /// - Parameter replaced: the tables the build replaces (``movedTables()``, once created empty).
    func holdOffAutovacuum(_ replaced: [String]) throws(PostgresError) {
        let tables = try connection.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename = ANY($2::text[]) ORDER BY tablename",
            [schema, PostgresConnection.arrayLiteral(replaced)], "list the tables"
        ).compactMap { $0.first.flatMap { $0 }.map { "\(schema).\($0)" } }
        guard !tables.isEmpty else { return }
        try connection.execute("LOCK TABLE \(tables.joined(separator: ", ")) IN SHARE UPDATE EXCLUSIVE MODE", "hold off autovacuum")
    }

    /// The tables that move: every table built aside but the catalog, which stays.
    func movedTables() throws(PostgresError) -> [String] {
        try connection.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename <> ALL($2::text[]) ORDER BY tablename",
            [aside, PostgresFeedTables.catalogArray], "list the tables built aside"
        ).compactMap { $0.first.flatMap { $0 } }
    }

    /// Whether the old tables can be dropped without losing anything of the user's: every object that
    /// depends on them (their indexes, triggers and constraints, the views and functions over them) has its
    /// like among the objects that depend on the new tables, and nothing of the user's is set on them
    /// that a new table lacks (a comment, column privileges, storage options or statistics targets, row
    /// security, a replica identity) nor are they published for logical replication.
    func switchable(_ tables: [String]) throws(PostgresError) -> Bool {
        let foreign = try connection.query(
            """
            WITH theirs AS (SELECT * FROM (\(Self.dependents("$1"))) d WHERE NOT is_table),
                ours AS (SELECT * FROM (\(Self.dependents("$2"))) d WHERE NOT is_table)
            SELECT (SELECT count(*) FROM theirs WHERE (type, relative) NOT IN (SELECT type, relative FROM ours))
                + (SELECT count(*) FROM theirs t JOIN pg_description c
                    ON c.objoid = (CASE WHEN t.type IN ('view', 'index') THEN t.identity::regclass END)::oid)
                + (SELECT count(*) FROM pg_class c WHERE c.relnamespace = $1::text::regnamespace AND c.relname = ANY($3::text[])
                    AND (c.reloptions IS NOT NULL OR c.relrowsecurity OR c.relreplident <> 'd' OR EXISTS (
                        SELECT 1 FROM pg_description d WHERE d.objoid = c.oid) OR EXISTS (
                        SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND (a.attacl IS NOT NULL OR a.attstattarget > 0))))
                + (SELECT count(*) FROM pg_publication WHERE puballtables)
                + (SELECT count(*) FROM pg_publication_tables WHERE schemaname = $1)
            """, [schema, aside, PostgresConnection.arrayLiteral(tables)], "compare what depends on the tables")
        return foreign.first?.first.flatMap { $0 } == "0"
    }

    /// Switches the tables built aside in, after the rest of the import: the old tables dropped with the
    /// views and functions over them, the new ones moved in, the views and functions made again by
    /// `recreate`, their privileges granted again, and the schema built in dropped.
    func switchIn(_ tables: [String], shouldContinue: () -> Bool, recreate: () throws -> Void) throws {
        let grants = try (connection.query(Self.grants, [schema, PostgresConnection.arrayLiteral(tables)], "read the privileges")
            + connection.query(Self.owners, [schema, PostgresConnection.arrayLiteral(tables)], "read the owners")).compactMap { $0.first.flatMap { $0 } }
        try lock(tables, shouldContinue: shouldContinue)
        try connection.execute(
            "DROP TABLE " + tables.map { "\(schema).\($0)" }.joined(separator: ", ") + " CASCADE", "drop the old tables")
        try connection.execute(tables.map { "ALTER TABLE \(aside).\($0) SET SCHEMA \(schema)" }.joined(separator: ";\n"), "move the new tables in")
        try recreate()
        if !grants.isEmpty { try connection.execute(grants.joined(separator: ";\n"), "give the privileges and owners again") }
        try connection.execute("DROP SCHEMA \(aside) CASCADE", "drop schema \(aside)")
    }

    /// Takes the switch's locks on the old tables and everything over them: one short attempt at a time,
    /// readers going on between attempts. An attempt's locks are all given back when it runs out, so a
    /// reader that holds one table and waits for another never deadlocks with the import.
    private func lock(_ tables: [String], shouldContinue: () -> Bool) throws {
        let relations = try connection.query(
            "SELECT identity FROM (\(Self.dependents("$1", tables: "$2"))) d WHERE type IN ('table', 'view')", [schema, PostgresConnection.arrayLiteral(tables)],
            "list what the switch locks"
        ).compactMap { $0.first.flatMap { $0 } }
        let statement = "LOCK TABLE \(relations.joined(separator: ", ")) IN ACCESS EXCLUSIVE MODE"
        var pause = 0.02
        while try !attempt(statement) {
            guard shouldContinue() else { throw CancellationError() }
            Thread.sleep(forTimeInterval: pause)
            pause = min(pause * 2, 0.5)
        }
    }

    /// One attempt at `statement`, which takes locks, given ``lockAttempt``.
    /// - Returns: whether it took them.
    private func attempt(_ statement: String) throws(PostgresError) -> Bool {
        try connection.execute("SAVEPOINT switch; SET LOCAL lock_timeout = \(Int(Self.lockAttempt / .milliseconds(1)))", "lock the tables")
        do {
            try connection.execute(statement, "lock the tables")
        } catch {
            // lock_not_available: the attempt ran out.
            guard error.sqlState == "55P03" else { throw error }
            try connection.execute("ROLLBACK TO SAVEPOINT switch; RELEASE SAVEPOINT switch", "lock the tables")
            return false
        }
        try connection.execute("SET LOCAL lock_timeout = 0; RELEASE SAVEPOINT switch", "lock the tables")
        return true
    }

    /// The tables named by the text array `tables` in the schema `namespace` (both parameters: `$1`), and every object that
    /// depends on them, directly or through others (a view through its rule, a function through a view's
    /// row type): its type, its identity, the identity without the schema (`relative`), and whether it is
    /// one of the tables.
    private static func dependents(_ namespace: String, tables: String = "$3") -> String {
        """
        WITH RECURSIVE closure(classid, objid) AS (
            SELECT 'pg_class'::regclass::oid, c.oid FROM pg_class c
            WHERE c.relnamespace = \(namespace)::text::regnamespace AND c.relname = ANY(\(tables)::text[]) AND c.relkind = 'r'
          UNION
            SELECT x.classid, x.objid FROM closure p CROSS JOIN LATERAL (
                SELECT CASE WHEN d.classid = 'pg_rewrite'::regclass THEN 'pg_class'::regclass::oid ELSE d.classid END AS classid,
                    CASE WHEN d.classid = 'pg_rewrite'::regclass THEN r.ev_class ELSE d.objid END AS objid
                FROM pg_depend d LEFT JOIN pg_rewrite r ON d.classid = 'pg_rewrite'::regclass AND r.oid = d.objid
                WHERE d.deptype IN ('n', 'a') AND (d.refclassid, d.refobjid) IN (
                    (p.classid, p.objid),
                    ('pg_type'::regclass, (SELECT reltype FROM pg_class WHERE p.classid = 'pg_class'::regclass AND oid = p.objid)))
            ) x
        )
        SELECT i.type, i.identity, replace(i.identity, quote_ident(\(namespace)::text) || '.', '') AS relative,
            c.classid = 'pg_class'::regclass AND EXISTS (
                SELECT 1 FROM pg_class t WHERE t.oid = c.objid AND t.relkind = 'r' AND t.relname = ANY(\(tables)::text[])) AS is_table
        FROM closure c CROSS JOIN LATERAL pg_identify_object(c.classid, c.objid, 0) i
        """
    }

    /// `ALTER … OWNER` statements that give the new tables, views and functions the owners of the old ones
    /// where another role than the importing one owned them (a role the importing one is a member of, or
    /// it could not have dropped them).
    private static let owners = """
        SELECT format('ALTER %s %s OWNER TO %I', CASE d.type WHEN 'function' THEN 'FUNCTION' WHEN 'view' THEN 'VIEW' ELSE 'TABLE' END,
            d.identity, pg_get_userbyid(coalesce(c.relowner, f.proowner)))
        FROM (\(dependents("$1", tables: "$2"))) d
        LEFT JOIN pg_class c ON c.oid = (CASE WHEN d.type IN ('table', 'view') THEN d.identity::regclass END)::oid
        LEFT JOIN pg_proc f ON f.oid = (CASE WHEN d.type = 'function' THEN d.identity::regprocedure END)::oid
        WHERE coalesce(c.relowner, f.proowner) <> (SELECT oid FROM pg_roles WHERE rolname = current_user)
        """

    /// `GRANT` statements that give again the privileges held on the old tables and what depends on them.
    private static let grants = """
        SELECT format('GRANT %s ON %s %s TO %s%s', a.privilege_type, CASE WHEN d.type = 'function' THEN 'FUNCTION' ELSE 'TABLE' END,
            d.identity, CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END,
            CASE WHEN a.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END)
        FROM (\(dependents("$1", tables: "$2"))) d
        JOIN pg_class c ON c.oid = (CASE WHEN d.type IN ('table', 'view') THEN d.identity::regclass END)::oid
        CROSS JOIN LATERAL aclexplode(c.relacl) a
        UNION ALL
        SELECT format('GRANT EXECUTE ON FUNCTION %s TO %s%s', d.identity,
            CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END,
            CASE WHEN a.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END)
        FROM (\(dependents("$1", tables: "$2"))) d
        JOIN pg_proc f ON f.oid = (CASE WHEN d.type = 'function' THEN d.identity::regprocedure END)::oid
        CROSS JOIN LATERAL aclexplode(f.proacl) a
        """

}

extension PostgresImportRun {
    /// A full import of the schema's only feed, built aside and switched in (``AsideBuild``): a whole feed
    /// replacing every table, in one transaction, without changes to report or keep.
    /// - Returns: its summary, or `nil` when the import runs in place: the schema holds other feeds, a hook
    ///   runs before the commit (which readers would wait for behind the switch's locks), or something of
    ///   the user's depends on the tables (then what was built aside is rolled back).
    func writeAside(_ plan: ImportPlan) throws -> ImportSummary? {
        guard assignedFeed == nil, let number = existing, let stored = plan.existing, !plan.incremental, plan.replaceAll,
            source.isWholeFeed, changes == nil, options.mode == .atomic, options.beforeCommit == nil, try holdsOnlyFeed()
        else { return nil }
        let build = try AsideBuild(schema: schema, connection: connection)
        try connection.execute("SAVEPOINT aside", "build aside")
        try build.create()
        let child = PostgresImportRun(
            connection: connection, schema: build.aside, source: source, options: options, usesPostGIS: usesPostGIS, migrations: migrations,
            reporter: reporter, catalog: schema, assignedFeed: number, shouldContinue: shouldContinue)
        child.startedAt = startedAt
        child.fresh = try child.prepareSchema()
        try build.holdOffAutovacuum(try build.movedTables())
        try child.prepare()
        for file in stored.tablesWithRows {
            child.deleted[file] = try stored.tables[file]?.rowsStored ?? rowCount(PostgresTable(file), feed: number)
        }
        var summary = try child.write(plan)
        let tables = try build.movedTables()
        guard try build.switchable(tables) else {
            try connection.execute("ROLLBACK TO SAVEPOINT aside; RELEASE SAVEPOINT aside", "build in place")
            return nil
        }
        try build.switchIn(tables, shouldContinue: shouldContinue) {
            try PostgresSchemaVersion.define(PostgresTimetable.createStatements(schema: schema), schema: schema, always: true, connection: connection)
            try child.postgis?.addColumns(schema: schema, connection: connection)
        }
        try connection.execute("RELEASE SAVEPOINT aside", "build aside")
        summary.duration = clock.now - start
        return summary
    }

    /// An incremental import that would compare and write more of the feed's rows than
    /// ``rebuildShare``, built aside as a full one instead (when ``writeAside(_:)`` can).
    /// - Returns: its summary, or `nil` when the import goes on row by row.
    func rebuildIfMuchChanged(_ plan: ImportPlan) throws -> ImportSummary? {
        // The rows of every file to parse, but those of the groups found equal to the stored ones.
        let touched = plan.tablesToParse.reduce(0) { sum, file in
            sum + max(0, (plan.existing?.tables[file]?.rowsStored ?? 0) - (comparisons[file]?.unchangedRows ?? 0))
        }
        guard plan.rebuilds(touchedRows: touched, share: Self.rebuildShare) else { return nil }
        return try writeAside(plan.rebuilt())
    }

    /// The share of the feed's rows past which writing changes row by row costs more than building the
    /// feed aside: measured at VBB scale (Benchmarks/README.md, "Where row by row stops paying").
    static let rebuildShare = 0.25

    /// Whether the feed is the only one the schema holds.
    private func holdsOnlyFeed() throws(PostgresError) -> Bool {
        try connection.query("SELECT count(*) FROM \(schema).feeds", [], "count the feeds").first?.first.flatMap { $0 } == "1"
    }

    /// The rows of feed number `feed` in `table`.
    private func rowCount(_ table: PostgresTable, feed: Int32) throws(PostgresError) -> Int {
        let rows = try connection.query("SELECT count(*) FROM \(schema).\(table.name) WHERE feed = \(feed)", [], "count \(table.name)")
        return rows.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
    }
}
