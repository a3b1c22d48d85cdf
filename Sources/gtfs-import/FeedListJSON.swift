import GTFS
import GTFSImport
import GTFSStoreCore
import ToolSupport

/// `gtfs-import list --json`.
struct FeedListJSON: Encodable {
    struct Feed: Encodable {
        let name: String
        let id: Int64
        let contentHash: String?
        let source: String?
        let importedAt: String?
        let importID: Int64?
        let importCount: Int
        let rowCount: Int
        let rowCounts: [String: Int]
        /// The first and last date the feed's services run, `YYYY-MM-DD`.
        let firstServiceDate: String?
        let lastServiceDate: String?
        /// The last check against the feed's URL, `nil` for a feed never fetched from one.
        let check: Check?
    }

    struct Check: Encodable {
        let url: String
        let checkedAt: String
        let result: String
        let message: String?
        let etag: String?
        let lastModified: String?
    }

    let database: String
    let feeds: [Feed]

    /// Pretty, key-sorted JSON text.
    static func text(
        _ feeds: [StoredFeed], serviceDates: [String: ClosedRange<GTFSDate>], checks: [String: FeedCheck], database: String
    ) throws -> String {
        try JSONText.pretty(
            FeedListJSON(
                database: database,
                feeds: feeds.map { feed in
                    Feed(
                        name: feed.name, id: feed.id, contentHash: feed.contentHash, source: feed.source, importedAt: feed.importedAt,
                        importID: feed.importID, importCount: feed.importCount, rowCount: feed.rowCount,
                        rowCounts: Dictionary(uniqueKeysWithValues: feed.rowCounts.map { (GTFSSchema.tableName(for: $0.key), $0.value) }),
                        firstServiceDate: serviceDates[feed.name].map { Format.date($0.lowerBound) },
                        lastServiceDate: serviceDates[feed.name].map { Format.date($0.upperBound) },
                        check: checks[feed.name].map {
                            Check(
                                url: $0.source, checkedAt: ListCommand.timestamp($0.checkedAt), result: $0.result.rawValue, message: $0.message,
                                etag: $0.etag, lastModified: $0.lastModified)
                        })
                }))
    }
}
