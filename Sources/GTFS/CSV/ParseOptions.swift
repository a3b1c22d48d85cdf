import LineReader

/// How strictly and in what portions a feed is parsed, and the limits that bound the memory and time one
/// row can take.
public struct ParseOptions: Sendable {
    /// Strict mode: the first error (bad value, wrong cell count, bad encoding) stops the parse.
    /// Lenient (the default): bad rows are rejected and reported, the rest delivered.
    public var strict: Bool
    /// Records per batch handed to the consumer: 1 to ``maxBatchSize``.
    public var batchSize: Int
    /// Bytes the Reader requests per read: 1 to `Reader.Options.maxChunkSize` (16 MiB).
    public var chunkSize: Int
    /// Warnings kept per file (all are counted).
    public var maxStoredWarnings: Int
    /// Rejected-row errors kept per file (all are counted).
    public var maxStoredErrors: Int
    /// The longest identifier value accepted (`stop_id`, `trip_id`, `parent_station`, …), in bytes; a
    /// longer one rejects its row. Default 64 KiB; at most ``maxFieldLengthLimit``.
    public var maxIDLength = 64 << 10
    /// The longest text value accepted (names, descriptions, URLs, …), in bytes; a longer one rejects
    /// its row. Default 1 MiB; at most ``maxFieldLengthLimit``.
    public var maxTextLength = 1 << 20

    /// Whether each file's content is hashed (SHA-256 of its decoded bytes) into ``TableSummary/contentHash``
    /// as it is parsed. Default `false`.
    public var hashesContent = false
    /// The only tables a ``FeedParser`` parses; the feed's other files are left unread (and not reported
    /// as skipped). `nil`, the default, parses every table.
    public var tables: Set<GTFSFile>?

    /// The largest batch size.
    public static let maxBatchSize = 1 << 16
    /// The largest value of ``maxIDLength`` and ``maxTextLength`` (64 MiB).
    public static let maxFieldLengthLimit = 64 << 20

    /// The longest line, and the longest record whose quoted field spans several lines: four times the
    /// larger field limit (4 MiB by default). A feed's longer line rejects its row (its bytes are dropped as
    /// they arrive). With the chunk size this bounds the parser's memory whatever the input: about two
    /// chunks plus two such lines.
    public var maxLineLength: Int { 4 * max(maxIDLength, maxTextLength) }

    /// Creates options; ``maxIDLength``, ``maxTextLength``, ``hashesContent`` and ``tables`` start at their
    /// defaults and are set as properties.
    ///
    /// - Parameters:
    ///   - strict: whether the first bad row stops the parse; default `false`.
    ///   - batchSize: records per batch; default 1,024.
    ///   - chunkSize: bytes per read; default 65,536.
    ///   - maxStoredWarnings: warnings kept per file; default 100.
    ///   - maxStoredErrors: errors of rejected rows kept per file; default 1,000.
    public init(
        strict: Bool = false, batchSize: Int = 1024, chunkSize: Int = 64 * 1024,
        maxStoredWarnings: Int = 100, maxStoredErrors: Int = 1000
    ) {
        self.strict = strict
        self.batchSize = batchSize
        self.chunkSize = chunkSize
        self.maxStoredWarnings = maxStoredWarnings
        self.maxStoredErrors = maxStoredErrors
    }

    /// Checks every limit against its range.
    ///
    /// - Throws: ``GTFSError`` (kind ``GTFSError/Kind/invalidOption``) naming the option, its value and its range.
    public func validate() throws(GTFSError) {
        try Self.check("batchSize", batchSize, 1 ... Self.maxBatchSize)
        try Self.check("chunkSize", chunkSize, 1 ... Reader.Options.maxChunkSize)
        try Self.check("maxStoredWarnings", maxStoredWarnings, 0 ... .max)
        try Self.check("maxStoredErrors", maxStoredErrors, 0 ... .max)
        try Self.check("maxIDLength", maxIDLength, 1 ... Self.maxFieldLengthLimit)
        try Self.check("maxTextLength", maxTextLength, 1 ... Self.maxFieldLengthLimit)
    }

    private static func check(_ name: String, _ value: Int, _ range: ClosedRange<Int>) throws(GTFSError) {
        guard range.contains(value) else {
            let upper = range.upperBound == .max ? "" : " to \(Count.grouped(range.upperBound))"
            throw GTFSError(
                .invalidOption, file: "ParseOptions", column: name,
                message: "\(value) is out of range (\(Count.grouped(range.lowerBound))\(upper))")
        }
    }
}
