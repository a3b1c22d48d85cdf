import GTFS
import GTFSStoreCore

/// The name search of the PostgreSQL store: `stop_name_words` holds each word of each stop's name, split
/// and folded by ``/GTFSStoreCore/StopNames`` (the rule the SQLite store's name index follows), so that a
/// search finds in both stores the same stops in the same order. A word of a search matches the words it
/// begins, through the table's key (`LIKE 'word%'` on a `COLLATE "C"` column is a range of the index).
enum PostgresStopNames {
    /// `CREATE TABLE … IF NOT EXISTS` of the words, in `schema`.
    static func createStatement(schema: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS \(schema).stop_name_words (feed integer NOT NULL, word text COLLATE "C" NOT NULL,
            stop_id text COLLATE "C" NOT NULL, PRIMARY KEY (feed, word, stop_id))
        """
    }

    /// The stops read per batch while filling.
    private static let batch = 5_000

    /// Fills the words of `feed`'s stops (which have none yet), reading the stops through a cursor: memory
    /// stays bounded for any number of stops.
    static func fill(schema: String, feed: Int32, connection: PostgresConnection) throws(PostgresError) {
        try connection.execute(
            "DECLARE stop_names NO SCROLL CURSOR FOR SELECT stop_id, stop_name FROM \(schema).stops WHERE feed = \(feed) AND stop_name IS NOT NULL",
            "read the stops' names")
        let cursor = PostgresCursor(name: "stop_names", batch: batch, connection: connection, operation: "read the stops' names")
        var words: [String] = [], stops: [String] = []
        func flush() throws(PostgresError) {
            guard !words.isEmpty else { return }
            _ = try connection.query(
                """
                INSERT INTO \(schema).stop_name_words (feed, word, stop_id)
                SELECT \(feed), w, s FROM unnest($1::text[], $2::text[]) AS u(w, s) ON CONFLICT DO NOTHING
                """, [array(words), array(stops)], "fill stop_name_words")
            (words, stops) = ([], [])
        }
        while let row = try cursor.nextRow() {
            guard let stop = row[0], let name = row[1] else { continue }
            for word in Set(StopNames.words(name).map { StopNames.folded($0) }) {
                words.append(word)
                stops.append(stop)
            }
            if stops.count >= batch * 4 { try flush() }
        }
        try flush()
        try connection.execute("CLOSE stop_names", "read the stops' names")
    }

    /// Whether the schema has the table of words: a schema of version 1 gets it on its first write.
    static func requireTable(_ reading: PostgresReading) throws(PostgresError) {
        let exists = try reading.query("SELECT to_regclass('stop_name_words') IS NOT NULL", [], "look for stop_name_words")
        guard exists.first?.first == "t" else {
            throw PostgresError(
                target: reading.connection.target, operation: "search the stops' names",
                message: "schema \(reading.schema) was written by an earlier version and has no index of names yet: an import or a removal brings it up to date")
        }
    }

    /// The query of the stops whose names have every one of `words` (folded) as a word's beginning, best
    /// first (``/GTFSStoreCore/StopNames``' order), at most `limit`; its arguments.
    static func search(_ words: [String], feed: Int32, limit: Int) -> (sql: String, arguments: [SQLArgument]) {
        let matches = words.indices.map { index in
            "SELECT stop_id FROM stop_name_words WHERE feed = $1 AND word LIKE $\(index + 2)"
        }
        let sql = """
            SELECT s.stop_id FROM stops s
            JOIN (\(matches.joined(separator: " INTERSECT "))) m ON m.stop_id = s.stop_id
            WHERE s.feed = $1
            ORDER BY CASE WHEN coalesce(s.location_type, 0) = 1 THEN 0 WHEN s.parent_station IS NULL THEN 1 ELSE 2 END,
                least(char_length(s.stop_name), 255), s.stop_id
            LIMIT \(limit)
            """
        return (sql, [.integer(Int64(feed))] + words.map { .text(likePrefix($0)) })
    }

    /// A `LIKE` pattern of the words that begin with `word`.
    private static func likePrefix(_ word: String) -> String {
        var pattern = ""
        for character in word {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }

    /// `values` as a PostgreSQL array literal of text (`{"a","b"}`).
    static func array(_ values: [String]) -> String {
        var literal = "{"
        for (index, value) in values.enumerated() {
            if index > 0 { literal += "," }
            literal += "\""
            for character in value {
                if character == "\"" || character == "\\" { literal.append("\\") }
                literal.append(character)
            }
            literal += "\""
        }
        return literal + "}"
    }
}
