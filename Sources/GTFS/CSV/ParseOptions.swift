/// How strictly and in what portions a feed is parsed.
public struct ParseOptions: Sendable {
    /// Strict mode: the first error (bad value, wrong cell count, bad encoding) stops the parse.
    /// Lenient (the default): bad rows are rejected and reported, the rest delivered.
    public var strict: Bool
    /// Records per batch handed to the consumer.
    public var batchSize: Int
    /// Bytes the Reader requests per read.
    public var chunkSize: Int
    /// Warnings kept per file (all are counted).
    public var maxStoredWarnings: Int
    /// Rejected-row errors kept per file (all are counted).
    public var maxStoredErrors: Int

    /// Whether each file's content is hashed (SHA-256 of its decoded bytes) into ``TableSummary/contentHash``
    /// as it is parsed. Default `false`.
    public var hashesContent = false
    /// The only tables a ``FeedParser`` parses; the feed's other files are left unread (and not reported
    /// as skipped). `nil`, the default, parses every table.
    public var tables: Set<GTFSFile>?

    /// Creates options; every parameter has the documented default.
    public init(
        strict: Bool = false, batchSize: Int = 1024, chunkSize: Int = 64 * 1024,
        maxStoredWarnings: Int = 100, maxStoredErrors: Int = 1000
    ) {
        self.strict = strict
        self.batchSize = max(1, batchSize)
        self.chunkSize = max(1, chunkSize)
        self.maxStoredWarnings = maxStoredWarnings
        self.maxStoredErrors = maxStoredErrors
    }
}
