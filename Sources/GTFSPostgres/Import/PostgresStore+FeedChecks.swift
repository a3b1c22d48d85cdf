import Foundation
public import GTFSStoreCore

extension PostgresStore {
    /// The last check of the feed named `name` against its URL (table `feed_checks`); `nil` when it was never
    /// checked, or the schema holds no store or one of a version before 6.
    public func feedCheck(named name: String) throws -> FeedCheck? {
        try exclusively("read a feed's check") { () throws -> FeedCheck? in
            let exists = try connection.query(
                "SELECT count(*) FROM pg_tables WHERE schemaname = $1 AND tablename IN ('feeds', 'feed_checks')", [schema], "look for feed_checks")
            guard exists.first?.first.flatMap({ $0 }) == "2" else { return nil }
            let sql = FeedCheckTable.select(table: "\(schema).feed_checks", feeds: "\(schema).feeds") { "$\($0)" }
            return try connection.query(sql, [name], "read the check of feed \(name)").first.flatMap(FeedCheckTable.check)
        }
    }

    /// Records a check of a feed against its URL, replacing the previous one; brings an older schema to the
    /// latest version first. Nothing is written to a schema that holds no store.
    public func recordFeedCheck(_ check: FeedCheck) throws {
        try exclusively("record a feed's check") { () throws -> Void in
            guard let version = try PostgresSchemaVersion.stored(schema: schema, connection: connection) else { return }
            try connection.execute("BEGIN", "begin a transaction")
            do {
                if version < PostgresSchemaVersion.latest(migrations) {
                    try lock(waiting: nil)
                    try PostgresSchemaVersion.migrate(schema: schema, from: version, migrations: migrations, connection: connection)
                }
                let sql = FeedCheckTable.upsert(table: "\(schema).feed_checks") { "$\($0)" }
                _ = try connection.query(sql, FeedCheckTable.values(check), "record the check of feed \(check.feed)")
                try connection.execute("COMMIT", "commit")
            } catch {
                _ = try? connection.execute("ROLLBACK", "roll back")
                throw error
            }
        }
    }
}
