import GTFS
import GTFSStoreCore

/// The words of the stops' names for the PostgreSQL store's name search (``PostgresNameSearch``):
/// `stop_name_words` holds each word of each stop's name, split and folded by `StopNames`
/// (the rule the SQLite store's name index follows), so that a search finds in both stores the same stops
/// in the same order.
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
                """, [PostgresConnection.arrayLiteral(words), PostgresConnection.arrayLiteral(stops)], "fill stop_name_words")
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
}
