import GTFS

/// Where the server has PostGIS: stops get a `geom` point (generated from their coordinates, so every
/// write keeps it current) with a GiST index, and `shape_lines` holds a line per shape, rebuilt when
/// `shapes.txt` changes. Both in WGS 84 (SRID 4326), as GTFS gives coordinates.
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
            // Not allowed (it needs a superuser or the database's owner with a trusted PostGIS): go without.
            try connection.execute("ROLLBACK TO SAVEPOINT postgis; RELEASE SAVEPOINT postgis", "create PostGIS")
            return nil
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

    /// Adds `stops.geom` and `shape_lines` where missing (on an empty `stops`, before the load, this
    /// costs nothing; on a loaded one it rewrites the table once).
    func addColumns(schema: String, connection: PostgresConnection) throws(PostgresError) {
        let present = try connection.query(
            "SELECT count(*) FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'stops' AND column_name = 'geom'",
            [schema], "look for stops.geom")
        let geometry = "\(extensionSchema).geometry"
        if present.first?.first.flatMap({ $0 }) == "0" {
            try connection.execute(
                """
                ALTER TABLE \(schema).stops ADD COLUMN geom \(geometry)(Point, 4326) GENERATED ALWAYS AS (
                    CASE WHEN stop_lon IS NOT NULL AND stop_lat IS NOT NULL
                    THEN \(extensionSchema).ST_SetSRID(\(extensionSchema).ST_MakePoint(stop_lon, stop_lat), 4326) END) STORED
                """, "add stops.geom")
        }
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS \(schema).shape_lines (
                feed integer NOT NULL, shape_id text NOT NULL, geom \(geometry)(LineString, 4326) NOT NULL, PRIMARY KEY (shape_id, feed))
            """, "create shape_lines")
    }

    /// The GiST indexes, after the load.
    func createIndexes(schema: String, connection: PostgresConnection) throws(PostgresError) {
        try connection.execute(
            """
            CREATE INDEX IF NOT EXISTS stops_geom ON \(schema).stops USING gist (geom);
            CREATE INDEX IF NOT EXISTS shape_lines_geom ON \(schema).shape_lines USING gist (geom)
            """, "index the geometries")
    }

    /// Rebuilds the feed's lines from its shapes' points in sequence (a shape of one point has no line).
    func updateShapeLines(schema: String, feed: Int32, connection: PostgresConnection) throws(PostgresError) {
        let gis = extensionSchema
        try connection.execute(
            """
            DELETE FROM \(schema).shape_lines WHERE feed = \(feed);
            INSERT INTO \(schema).shape_lines (feed, shape_id, geom)
            SELECT feed, shape_id, \(gis).ST_MakeLine(\(gis).ST_SetSRID(\(gis).ST_MakePoint(shape_pt_lon, shape_pt_lat), 4326) ORDER BY shape_pt_sequence)
            FROM \(schema).shapes WHERE feed = \(feed) AND shape_pt_lon IS NOT NULL AND shape_pt_lat IS NOT NULL
            GROUP BY feed, shape_id HAVING count(*) > 1
            """, "build shape_lines")
    }
}
