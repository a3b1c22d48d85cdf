import GTFSStoreCore

/// The name search of the PostgreSQL store over `stop_name_words` (``PostgresStopNames``): a word of a
/// search matches the words it begins, through the table's key (`LIKE 'word%'` on a `COLLATE "C"` column
/// is a range of the index), and the stops that match every word come in `StopNames`' order.
enum PostgresNameSearch {
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
    /// first (`StopNames`' order), at most `limit` (all when `nil`); its arguments.
    static func search(_ words: [String], feed: Int32, limit: Int?) -> (sql: String, arguments: [SQLArgument]) {
        let matches = words.indices.map { index in
            "SELECT stop_id FROM stop_name_words WHERE feed = $1 AND word LIKE $\(index + 2)"
        }
        let sql = """
            SELECT s.stop_id FROM stops s
            JOIN (\(matches.joined(separator: " INTERSECT "))) m ON m.stop_id = s.stop_id
            WHERE s.feed = $1
            ORDER BY CASE WHEN coalesce(s.location_type, 0) = 1 THEN 0 WHEN s.parent_station IS NULL THEN 1 ELSE 2 END,
                least(char_length(s.stop_name), 255), s.stop_id
            """ + (limit.map { " LIMIT \($0)" } ?? "")
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
}
