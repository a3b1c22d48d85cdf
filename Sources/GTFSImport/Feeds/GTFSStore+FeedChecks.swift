import Foundation
import GRDB
public import GTFSStoreCore

extension GTFSStore {
    /// The last check of the feed named `name` against its URL (table `feed_checks`); `nil` when it was never
    /// checked, or the file predates the table (a read-only store of version 7).
    public func feedCheck(named name: String) throws -> FeedCheck? {
        try read { db in
            guard try db.tableExists("feed_checks") else { return nil }
            let sql = FeedCheckTable.select(table: "feed_checks", feeds: "feeds") { _ in "?" }
            guard let row = try Row.fetchOne(db, sql: sql, arguments: [name]) else { return nil }
            return FeedCheckTable.check((0..<row.count).map { row[$0] as String? })
        }
    }

    /// Records a check of a feed against its URL, replacing the previous one.
    public func recordFeedCheck(_ check: FeedCheck) throws {
        try pool.write { db in
            let sql = FeedCheckTable.upsert(table: "feed_checks") { _ in "?" }
            try db.execute(sql: sql, arguments: StatementArguments(FeedCheckTable.values(check)))
        }
    }
}
