public import Foundation

/// The last check of a feed against its publisher's URL, as a store keeps it (table `feed_checks`, one row
/// per feed name): the validators and the downloaded bytes' digest of the version it imported, when and how
/// the check ended. `GTFSFetch` writes it after each check; `gtfs-import list` shows it.
///
/// The validators belong to one version of the feed: ``contentHash`` is the content hash of the version the
/// check imported or confirmed, and a conditional request is only made while the store still holds that
/// version (``holdsCheckedVersion``). A feed removed, or imported again from a file, is fetched whole.
public struct FeedCheck: Sendable, Hashable {
    /// How a check ended.
    public enum Result: String, Sendable, Hashable, CaseIterable {
        /// The body was downloaded and imported.
        case imported
        /// The server answered 304 Not Modified to the stored validators.
        case notModified = "not modified"
        /// The body was downloaded, and its bytes hash to those of the version the store holds.
        case unchanged
        /// The download or the import failed; the feed stays as it was.
        case failed
    }

    /// The feed's name (``ImportOptions/feed``).
    public var feed: String
    /// The URL as shown: without user, password and query (see `RedactedURL` in `GTFSFetch`).
    public var source: String
    /// The SHA-256 of the whole URL, a space, and that of the URL its redirects led to: a changed URL
    /// (another key, another query) drops the validators, and a 304 from another final URL is not taken.
    public var urlDigest: String?
    /// The `ETag` of the response the held version came from.
    public var etag: String?
    /// The `Last-Modified` of that response, as the server sent it.
    public var lastModified: String?
    /// The SHA-256 of the downloaded bytes of the held version.
    public var bodyDigest: String?
    /// The content hash of the version the validators and ``bodyDigest`` belong to.
    public var contentHash: String?
    /// When the check ended.
    public var checkedAt: Date
    /// How it ended.
    public var result: Result
    /// Why it failed, for ``Result/failed`` (never a header value).
    public var message: String?
    /// The content hash of the feed's version the store held when the check was read; `nil` for a feed it
    /// does not hold. Filled by a store's `feedCheck(named:)`, ignored when recording.
    public package(set) var storedContentHash: String?

    /// A check to record.
    public init(
        feed: String, source: String, urlDigest: String?, etag: String?, lastModified: String?, bodyDigest: String?, contentHash: String?,
        checkedAt: Date, result: Result, message: String?
    ) {
        self.feed = feed
        self.source = source
        self.urlDigest = urlDigest
        self.etag = etag
        self.lastModified = lastModified
        self.bodyDigest = bodyDigest
        self.contentHash = contentHash
        self.checkedAt = checkedAt
        self.result = result
        self.message = message
    }

    /// Whether the store still holds the version the validators belong to.
    public var holdsCheckedVersion: Bool { contentHash != nil && contentHash == storedContentHash }
}

/// The table `feed_checks` in both stores: one statement, one row format.
package enum FeedCheckTable {
    /// The table's columns, in the order of ``values(_:)`` and of the rows ``select(table:feeds:placeholder:)`` reads.
    static let columns = [
        "feed_name", "source", "url_digest", "etag", "last_modified", "body_digest", "content_hash", "checked_at", "result", "message",
    ]

    /// `CREATE TABLE IF NOT EXISTS` (its text is valid in SQLite and PostgreSQL). Frozen: a store's
    /// migration runs it, so a later change is a new migration.
    /// - Parameter table: the table's name, with its schema for PostgreSQL.
    package static func createStatement(table: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS \(table) (
            feed_name TEXT PRIMARY KEY,
            source TEXT NOT NULL,
            url_digest TEXT,
            etag TEXT,
            last_modified TEXT,
            body_digest TEXT,
            content_hash TEXT,
            checked_at TEXT NOT NULL,
            result TEXT NOT NULL CHECK (result IN ('imported', 'not modified', 'unchanged', 'failed')),
            message TEXT)
        """
    }

    /// The upsert of one check, with parameters in ``columns`` order.
    /// - Parameter placeholder: the store's placeholder for parameter `n` (1-based): `?` or `$n`.
    package static func upsert(table: String, placeholder: (Int) -> String) -> String {
        let values = columns.indices.map { placeholder($0 + 1) }.joined(separator: ", ")
        let updates = columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(values)) ON CONFLICT (feed_name) DO UPDATE SET \(updates)"
    }

    /// The check of the feed named by parameter 1, with the content hash of the version `feeds` holds last.
    package static func select(table: String, feeds: String, placeholder: (Int) -> String) -> String {
        "SELECT \(columns.map { "c.\($0)" }.joined(separator: ", ")), f.content_hash FROM \(table) c "
            + "LEFT JOIN \(feeds) f ON f.name = c.feed_name WHERE c.feed_name = \(placeholder(1))"
    }

    /// The parameters of ``upsert(table:placeholder:)``.
    package static func values(_ check: FeedCheck) -> [String?] {
        [
            check.feed, check.source, check.urlDigest, check.etag, check.lastModified, check.bodyDigest, check.contentHash,
            timestamp.format(check.checkedAt), check.result.rawValue, check.message,
        ]
    }

    /// A check from a row of ``select(table:feeds:placeholder:)``; `nil` for a row it cannot read.
    package static func check(_ row: [String?]) -> FeedCheck? {
        guard row.count == columns.count + 1, let feed = row[0], let source = row[1], let at = row[7].flatMap({ try? timestamp.parse($0) }),
            let result = row[8].flatMap(FeedCheck.Result.init(rawValue:))
        else { return nil }
        var check = FeedCheck(
            feed: feed, source: source, urlDigest: row[2], etag: row[3], lastModified: row[4], bodyDigest: row[5], contentHash: row[6],
            checkedAt: at, result: result, message: row[9])
        check.storedContentHash = row[10]
        return check
    }

    /// UTC, to the second: `2026-11-27T03:04:05Z`.
    private static let timestamp = Date.ISO8601FormatStyle()
}
