import GTFS

/// Where the server has PostGIS: stops get a `geom` point (generated from their coordinates, so every
/// write keeps it current) with a GiST index, and the view `shape_lines` gives a line per shape. Both in
/// WGS 84 (SRID 4326), as GTFS gives coordinates.
///
/// `shape_lines` is a view, computed when read: one shape's line comes through the key of `shapes`, and
/// an import pays nothing for it (building every line of a VBB-scale feed took 4.4–6.2 s). A program that
/// searches lines by place can keep them in a materialized view with a GiST index of its own.
struct PostGIS {
    /// The schema that holds PostGIS's types and functions (`public`, usually).
    let extensionSchema: String

    /// The extension, created when the server offers it and this user may create it.
    /// - Returns: `nil` when the server has no PostGIS or refuses to create it.
    static func enable(connection: PostgresConnection) throws(PostgresError) -> PostGIS? {
        if let installed = try installedSchema(connection) { return PostGIS(extensionSchema: installed) }
        let available = try connection.query("SELECT count(*) FROM pg_available_extensions WHERE name = 'postgis'", [], "look for PostGIS")
        guard available.first?.first.flatMap({ $0 }) == "1" else { return nil }
        try connection.execute("SAVEPOINT postgis", "create PostGIS")
        do {
            try connection.execute("CREATE EXTENSION postgis", "create PostGIS")
            try connection.execute("RELEASE SAVEPOINT postgis", "create PostGIS")
        } catch {
            try connection.execute("ROLLBACK TO SAVEPOINT postgis; RELEASE SAVEPOINT postgis", "create PostGIS")
            // Another import created it meanwhile (ours waited for its commit, then found the name taken): use it.
            // Otherwise it is not allowed (it needs a superuser or the database's owner with a trusted
            // PostGIS): go without.
            return try installedSchema(connection).map { PostGIS(extensionSchema: $0) }
        }
        return try installedSchema(connection).map { PostGIS(extensionSchema: $0) }
    }

    private static func installedSchema(_ connection: PostgresConnection) throws(PostgresError) -> String? {
        let rows = try connection.query(
            "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'postgis'", [],
            "look for PostGIS")
        return rows.first?.first.flatMap { $0 }
    }

    /// The note for a summary when the server has no PostGIS.
    static let unavailable = GTFSError(
        .rule, file: "PostGIS",
        message: "is not installed on the server, or this user may not create it: stops have no geom column and shapes no lines")

    /// Adds `stops.geom` where missing (on an empty `stops`, before the load, this costs nothing; on a
    /// loaded one it rewrites the table once), and the view `shape_lines` where missing.
    func addColumns(schema: String, connection: PostgresConnection) throws(PostgresError) {
        let present = try connection.query(
            "SELECT count(*) FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'stops' AND column_name = 'geom'",
            [schema], "look for stops.geom")
        let gis = extensionSchema
        let added = present.first?.first.flatMap({ $0 }) == "0"
        if added {
            try connection.execute(
                """
                ALTER TABLE \(schema).stops ADD COLUMN geom \(gis).geometry(Point, 4326) GENERATED ALWAYS AS (
                    CASE WHEN stop_lon IS NOT NULL AND stop_lat IS NOT NULL
                    THEN \(gis).ST_SetSRID(\(gis).ST_MakePoint(stop_lon, stop_lat), 4326) END) STORED
                """, "add stops.geom")
        }
        // Replacing a view locks it against its readers until the commit: only when it is missing.
        let view = try connection.query("SELECT to_regclass($1) IS NULL", ["\(schema).shape_lines"], "look for shape_lines")
        guard added || view.first?.first.flatMap({ $0 }) == "t" else { return }
        try connection.execute(
            """
            CREATE OR REPLACE VIEW \(schema).shape_lines AS
            SELECT feed, shape_id,
                \(gis).ST_SetSRID(\(gis).ST_MakeLine(array_agg(\(gis).ST_MakePoint(shape_pt_lon, shape_pt_lat) ORDER BY shape_pt_sequence)), 4326)
                    ::\(gis).geometry(LineString, 4326) AS geom
            FROM \(schema).shapes WHERE shape_pt_lon IS NOT NULL AND shape_pt_lat IS NOT NULL
            GROUP BY feed, shape_id HAVING count(*) > 1
            """, "create shape_lines")
    }

    /// The GiST index of the stops' points, after the load.
    func createIndexes(schema: String, connection: PostgresConnection) throws(PostgresError) {
        try connection.execute("CREATE INDEX IF NOT EXISTS stops_geom ON \(schema).stops USING gist (geom)", "index the stops' points")
    }
}
